"""The top layer: the ``ofc`` command line (``main``), its subcommands (``commands``) and
``ofc bench``'s benchmarks (``bench``). The only layer that may import ``dashboard``."""
