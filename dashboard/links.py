"""Links between pages that keep the view: a hand opens in the Hands page's viewer.

>>> from dashboard.queries.filters import Filters
>>> hand_url("en:74 02", Filters(hero="Anna & Bob"))
'hands?hero=Anna+%26+Bob&hand=en%3A74+02'
"""

from __future__ import annotations

from urllib.parse import urlencode

import polars as pl

from dashboard.queries.filters import Filters


def hand_url(hand_id: str, filters: Filters) -> str:
    """A relative URL of the Hands page showing ``hand_id`` in the same view."""
    return "hands?" + urlencode({**filters.to_params(), "hand": hand_id})


def hand_links(frame: pl.DataFrame, filters: Filters) -> pl.DataFrame:
    """``frame`` with a ``hand`` column: the viewer's URL of each row's ``hand_id``."""
    urls = [hand_url(h, filters) for h in frame["hand_id"].to_list()]
    return frame.with_columns(hand=pl.Series(urls, dtype=pl.String))
