"""Every table of the dashboard is drawn by ``ui.dataframe``, which shows a missing value as
"—" (the browser test ``test_dashboard_shown_and_linked.py`` checks what it draws)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

import dashboard

ROOT = Path(dashboard.__file__).parent


def test_no_page_draws_a_table_that_would_show_none() -> None:
    direct = [
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if path.name != "ui.py" and "st.dataframe(" in path.read_text(encoding="utf-8")
    ]
    assert direct == [], "use ui.dataframe (a missing value reads —, not None)"


def test_a_figure_without_an_interval_still_shows_its_n() -> None:
    """The Players table's cell for royalties per hand of a player whose hands all scored 0
    read "—", its n dropped (docs/metrics.md: no interval when the values are all alike)."""
    from dashboard.views.players import interval_cell

    frame = pl.DataFrame(
        {
            "royalties_per_hand": [0.0, 1.2],
            "royalties_per_hand_low": [None, 0.88],
            "royalties_per_hand_high": [None, 1.51],
            "royalties_per_hand_n": [33, 280],
        }
    )
    cells = frame.select(interval_cell("royalties_per_hand")).to_series().to_list()
    assert cells == ["— · n 33", "0.88 – 1.51 · n 280"]
