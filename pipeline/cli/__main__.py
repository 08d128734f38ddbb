"""``python -m pipeline.cli`` runs the ``ofc`` command line."""

import sys

from pipeline.cli.main import main

sys.exit(main())
