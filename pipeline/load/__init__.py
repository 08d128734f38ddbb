"""``ofc import``: hand histories → staged Parquet → rules engine → DuckDB.

Modules, in the order an import uses them: ``files`` (what to read, in
pieces), ``executors``/``distributed`` (where pieces run), ``staging`` (parse,
``fingerprint``, ``recompute``, ``street_features``, write Parquet parts),
``database`` (one-transaction load, ``ddl.sql`` and ``metrics/*.sql``),
``snapshot`` (lock, copy, atomic swap), ``importer`` (one run), ``watch``,
``progress``.
"""
