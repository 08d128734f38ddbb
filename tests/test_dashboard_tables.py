"""Every table of the dashboard is drawn by ``ui.dataframe``, which shows a missing value as
"—" (the browser test ``test_dashboard_shown_and_linked.py`` checks what it draws)."""

from __future__ import annotations

from pathlib import Path

import dashboard

ROOT = Path(dashboard.__file__).parent


def test_no_page_draws_a_table_that_would_show_none() -> None:
    direct = [
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if path.name != "ui.py" and "st.dataframe(" in path.read_text(encoding="utf-8")
    ]
    assert direct == [], "use ui.dataframe (a missing value reads —, not None)"
