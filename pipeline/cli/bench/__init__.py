"""Benchmarks behind ``ofc bench``: speed figures held against the project's targets.

Each benchmark is a module of this package named in ``registry.BENCHMARKS``
that defines ``NAME``, ``TITLE`` and ``run(options) -> dict[str, Figure]``:
named figures, each with a unit and, where the project sets one, a target.
To add a benchmark (parser speed, import end-to-end, dashboard queries,
simulator, ...), write such a module and add its name to ``BENCHMARKS``;
``ofc bench`` then runs it, prints it, and writes it into
``docs/benchmarks.md``, and ``ofc bench --only NAME`` runs it alone.
"""
