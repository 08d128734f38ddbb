"""Decision review (``ofc review``): every decision of an archive valued by ``ofc decide``
or ``ofc solve``, stored in the database's ``decisions`` table. See docs/decisions.md."""
