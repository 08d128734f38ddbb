"""Links between pages that keep the view: a hand opens in the Hands page's viewer,
a player in the Overview.

>>> from dashboard.queries.filters import Filters
>>> hand_url("en:74 02", Filters(hero="Anna & Bob"))
'hands?hero=Anna+%26+Bob&hand=en%3A74+02'
>>> player_url("<b>Bo</b>", Filters(hero="Anna", variant="classic"))
'./?hero=%3Cb%3EBo%3C%2Fb%3E&variant=classic'
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


def player_url(player: str, filters: Filters) -> str:
    """A relative URL of the Overview (the app's main page, at its root) with ``player``
    as hero, the other filters kept."""
    return "./?" + urlencode(filters.with_hero(player).to_params())


def player_links(frame: pl.DataFrame, filters: Filters) -> pl.DataFrame:
    """``frame`` with an ``overview`` column: the Overview's URL of each row's ``player``."""
    urls = [player_url(p, filters) for p in frame["player"].to_list()]
    return frame.with_columns(overview=pl.Series(urls, dtype=pl.String))
