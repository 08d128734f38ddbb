"""The dashboard's filters, how they travel in a URL, and the SQL conditions they make.

A coach sends a link to exactly the view they mean: every filter is a query
parameter (``?hero=Anna&variant=pineapple&from=2025-01-01``). Values are
never pasted into SQL: conditions use ``?`` placeholders and the values go in
the parameter list.

>>> f = Filters.from_params({"hero": "Anna", "from": "2025-01-31", "stakes": "0.5 USD"})
>>> f.to_params()
{'hero': 'Anna', 'from': '2025-01-31', 'stakes': '0.5 USD'}
>>> Filters.from_params({"from": "not a date"}).date_from is None
True
>>> where = scope(Filters(hero="Anna", variant="classic", stakes="play"))
>>> where.sql
'p.variant = ? AND p.point_value IS NULL AND p.player = ?'
>>> where.params
('classic', 'Anna')
>>> scope(Filters(hero="Anna", stakes="0.5 USD")).params
(0.499999999, 0.500000001, 'USD', 'Anna')
>>> day_scope(Filters(hero="Anna", date_from=date(2025, 1, 31))).sql
'd.day >= ? AND d.player = ?'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import date, timedelta

#: URL parameter of each filter field.
PARAMS = {
    "hero": "hero",
    "variant": "variant",
    "ruleset": "ruleset",
    "date_from": "from",
    "date_to": "to",
    "stakes": "stakes",
    "opponent": "opponent",
}
PLAY_MONEY = "play"


def stakes_key(point_value: float | None, currency: str | None) -> str:
    """The label of a stake: ``"0.25 USD"``, or ``"play"`` for play money.

    >>> stakes_key(0.25, "USD"), stakes_key(None, None), stakes_key(2.0, "RUB")
    ('0.25 USD', 'play', '2 RUB')
    """
    if point_value is None:
        return PLAY_MONEY
    return f"{point_value:g} {currency or ''}".strip()


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Filters:
    """What the user chose to look at; ``None`` means no restriction."""

    hero: str | None = None
    variant: str | None = None
    ruleset: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    stakes: str | None = None
    opponent: str | None = None

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> Filters:
        """Filters from URL query parameters; unreadable values are ignored."""
        values: dict[str, object] = {}
        for name, key in PARAMS.items():
            text = params.get(key) or None
            values[name] = _date(text) if name.startswith("date_") else text
        return cls(**values)

    def to_params(self) -> dict[str, str]:
        """The URL query parameters of these filters (unset ones left out)."""
        params = {}
        for field in fields(self):
            value = getattr(self, field.name)
            if value is not None:
                params[PARAMS[field.name]] = value.isoformat() if isinstance(value, date) else value
        return params

    def with_hero(self, hero: str | None) -> Filters:
        return replace(self, hero=hero)

    def population(self) -> Filters:
        """The same view for everybody: no hero, no opponent."""
        return replace(self, hero=None, opponent=None)

    @property
    def summarised(self) -> bool:
        """Whether the pre-aggregated tables (per player and variant) answer this view."""
        return not (self.ruleset or self.date_from or self.date_to or self.stakes or self.opponent)

    @property
    def daily(self) -> bool:
        """Whether ``player_days`` (per player, day, variant, ruleset and stake) answers
        this view: any view without an opponent."""
        return not self.opponent

    @property
    def variant_key(self) -> str:
        """The ``variant`` key of ``player_summary`` and ``style_metrics`` rows."""
        return self.variant or "all"


@dataclass(frozen=True)
class Where:
    """A conjunction of SQL conditions and the values of their ``?`` placeholders."""

    conditions: tuple[str, ...] = ()
    params: tuple[object, ...] = ()

    def also(self, condition: str, *params: object) -> Where:
        return Where((*self.conditions, condition), (*self.params, *params))

    def and_(self, other: Where) -> Where:
        """Both sets of conditions."""
        return Where((*self.conditions, *other.conditions), (*self.params, *other.params))

    @property
    def sql(self) -> str:
        return " AND ".join(self.conditions) or "TRUE"


def _stake(stakes: str) -> tuple[float, str | None] | None:
    """The point value and currency of a stake label; None when it cannot be read.

    >>> _stake("0.5 USD"), _stake("2"), _stake("lots")
    ((0.5, 'USD'), (2.0, None), None)
    """
    value, _, currency = stakes.partition(" ")
    try:
        return float(value), currency or None
    except ValueError:
        return None


def _stakes(where: Where, stakes: str, alias: str) -> Where:
    """``where`` plus the stake conditions on ``point_value`` and ``currency``, columns
    of both ``hands`` and ``player_hands`` (under ``alias``). The point value is matched
    within 1e-9 as a range, which a scan tests before it reads other columns.

    >>> _stakes(Where(), "0.5 USD", "p")
    Where(conditions=('p.point_value BETWEEN ? AND ?', 'p.currency = ?'), params=(0.499999999, 0.500000001, 'USD'))
    >>> _stakes(Where(), "2", "h").sql, _stakes(Where(), "lots", "h").sql
    ('h.point_value BETWEEN ? AND ? AND h.currency IS NULL', 'FALSE')
    """
    if stakes == PLAY_MONEY:
        return where.also(f"{alias}.point_value IS NULL")
    stake = _stake(stakes)
    if stake is None:
        return where.also("FALSE")
    value, currency = stake
    where = where.also(f"{alias}.point_value BETWEEN ? AND ?", value - 1e-9, value + 1e-9)
    if currency:
        return where.also(f"{alias}.currency = ?", currency)
    return where.also(f"{alias}.currency IS NULL")


def _columns(filters: Filters, alias: str, time: str = "played_at") -> Where:
    """Conditions on the columns that ``hands``, ``player_hands`` and the metric tables
    ``player_days``, ``pair_days`` and ``player_hours`` share: variant, ruleset, stake, and
    the dates, on the column ``time``: a time (``played_at``, ``hour``), or a UTC
    ``day``."""
    where = Where()
    for name in ("variant", "ruleset"):
        value = getattr(filters, name)
        if value:
            where = where.also(f"{alias}.{name} = ?", value)
    if filters.date_from:
        where = where.also(f"{alias}.{time} >= ?", filters.date_from)
    if filters.date_to:
        if time == "day":
            where = where.also(f"{alias}.day <= ?", filters.date_to)
        else:
            where = where.also(f"{alias}.{time} < ?", filters.date_to + timedelta(days=1))
    return _stakes(where, filters.stakes, alias) if filters.stakes else where


def scope(filters: Filters, alias: str = "p") -> Where:
    """Conditions on ``player_hands`` (under ``alias``) that keep the rows of this view.

    With a hero, only the hero's rows; with an opponent too, only hands the
    opponent also played. Use ``filters.population()`` for everybody's rows.
    """
    where = _columns(filters, alias)
    if filters.hero:
        where = where.also(f"{alias}.player = ?", filters.hero)
    if filters.opponent:
        where = played_by(where, filters.opponent, alias)
        if not filters.hero:
            where = where.also(f"{alias}.player <> ?", filters.opponent)
    return where


def day_scope(filters: Filters, alias: str = "d", time: str = "day") -> Where:
    """Conditions on ``player_days`` or ``pair_days`` (under ``alias``), or with ``time``
    ``hour`` on ``player_hours``, that keep the rows of a view without an opponent
    (``filters.daily``): the hero's, or everybody's without a hero."""
    where = _columns(filters, alias, time)
    return where.also(f"{alias}.player = ?", filters.hero) if filters.hero else where


def sourced(filters: Filters, daily: str, computed: str) -> tuple[str, Where]:
    """A view's query and its conditions: ``daily`` over ``player_days`` (alias ``d``)
    for a view without an opponent (``filters.daily``), else ``computed`` over
    ``player_hands`` (alias ``p``).

    >>> sourced(Filters(hero="Anna"), "days", "hands")[0]
    'days'
    >>> sourced(Filters(hero="Anna", opponent="Bo"), "days", "hands")[0]
    'hands'
    """
    if filters.daily:
        return daily, day_scope(filters)
    return computed, scope(filters)


def played_by(where: Where, player: str, alias: str) -> Where:
    """``where`` plus: ``player`` played the hand ``{alias}.hand_id``.

    >>> played_by(Where(), "Bo", "h").sql
    'h.hand_id IN (SELECT o.hand_id FROM player_hands o WHERE o.player = ?)'
    """
    return where.also(
        f"{alias}.hand_id IN (SELECT o.hand_id FROM player_hands o WHERE o.player = ?)", player
    )


def hand_scope(filters: Filters) -> Where:
    """Conditions on ``hands`` (alias ``h``): variant, ruleset, dates and stakes only."""
    return _columns(filters, "h")
