"""The dashboard's benchmark (``ofc bench --only dashboard``): every page's queries on a
1,000,000-hand database built by ``database``."""
