"""Setup several test modules share, built once per test session.

Helpers are imported as ``tests.<module>`` (pytest's ``pythonpath`` puts the
project root on the path, so plain ``pytest`` and ``python -m pytest`` agree).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dashboard_data import database


@pytest.fixture(scope="session")
def dashboard_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dashboard tests' database (``tests/dashboard_data.py``); read it, write a copy."""
    return database(tmp_path_factory.mktemp("dashboard-db"))
