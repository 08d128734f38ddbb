"""The Streamlit script ``ofc dashboard`` serves: ``streamlit run dashboard/app.py -- --db FILE``."""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:  # run as a script: make the project's packages importable
    sys.path.insert(0, _ROOT)

from dashboard.settings import app_settings  # noqa: E402
from dashboard.shell import run  # noqa: E402

if __name__ == "__main__":  # Streamlit runs the script as __main__
    run(app_settings(sys.argv[1:]))
