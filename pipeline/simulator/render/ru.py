"""Write hands in the room text format ``ru`` (``/work/shared/formats/ofc-text-ru.md``).

``render_hands`` yields one text per hand from the hero's point of view, as
``pipeline.simulator.render.en`` does, in the Russian clients' words: Cyrillic ranks and
suit symbols (``Т♥ К♦ 10♣``), the Unicode minus, decimal commas and thousands
spaces (``1 250,50``), a Moscow clock by default.

With ``cp1251=True`` the text only uses characters Windows-1251 holds, as the
older desktop exports do: Latin suit letters after the Cyrillic ranks
(``Тh 10s Дc``), ``-`` for minus and ``RUB`` for ``₽``; write it with
``render_common.write_hands(path, texts, encoding="cp1251")``.
"""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl
import pyarrow as pa

from ofc_core.cards import CARD_NAMES, RANKS, SUIT_SYMBOLS, SUITS
from parsers.formats.ru import FORMAT
from parsers.header_words import preset_words
from pipeline.simulator.render import common as rc

SECTIONS = FORMAT.sections
#: The header's words, from the format's description (``parsers.formats.ru.FORMAT``).
VARIANT_WORDS = FORMAT.words(FORMAT.variants)
FL_WORDS = {"default": ""} | {v: f" ({w})" for v, w in FORMAT.words(FORMAT.fantasyland).items()}
ROYALTY_WORDS = FORMAT.words(FORMAT.royalties)
#: Cyrillic rank words, in ``RANKS`` order.
RANK_WORDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т")
CURRENCY_WORDS = {"RUB": "₽", "USD": "$", "EUR": "€", "UAH": "грн"}
CURRENCY_WORDS_CP1251 = {"RUB": "RUB", "USD": "$", "EUR": "€", "UAH": "грн"}
ZONES = {"МСК": "+03:00", "UTC": "UTC"}
MINUS = "\u2212"


def card_words(cp1251: bool = False) -> dict[str, str]:
    """The ``ru`` spelling of every canonical card name.

    >>> card_words()["Ah"], card_words()["Tc"], card_words(cp1251=True)["Qs"]
    ('Т♥', '10♣', 'Дs')
    """
    suits = SUITS if cp1251 else SUIT_SYMBOLS
    return {
        name: RANK_WORDS[RANKS.index(name[0])] + suits[SUITS.index(name[1])] for name in CARD_NAMES
    }


def _cards(text: pl.Expr, cp1251: bool) -> pl.Expr:
    """Canonical card lists (``Ah Tc``) in ``ru`` spelling (``Т♥ 10♣``), column-wise."""
    suits = SUITS if cp1251 else SUIT_SYMBOLS
    latin = list("TJQKA" + SUITS)
    return text.str.replace_many(latin, [*RANK_WORDS[-5:], *suits])


def header_words(ruleset: str) -> str:
    """The variant, scoring and royalty words of an ``ru`` header for a preset.

    >>> header_words("pineapple-2-4-pokerbet")
    'Ананас (прогрессивная фантазия) · счёт 2-4 · роялти: российские'
    """
    w = preset_words(ruleset)
    return (
        f"{VARIANT_WORDS[w.variant]}{FL_WORDS[w.fantasyland]} · счёт {w.scoring} · "
        f"роялти: {ROYALTY_WORDS[w.royalties]}"
    )


def zone_label(zone: str) -> tuple[str, str]:
    """The clock label in brackets and its zone (``МСК``, ``UTC``, ``UTC+05:00``)."""
    if zone in ZONES:
        return zone, ZONES[zone]
    offset = zone.removeprefix("UTC")
    if len(offset) == 6 and offset[0] in "+-" and offset[3] == ":":
        return f"UTC{offset}", offset
    raise ValueError(f"unknown ru clock label {zone!r}: use МСК, UTC or an offset like UTC+05:00")


def render_hands(
    hands: pa.Table | pl.DataFrame,
    player_hands: pa.Table | pl.DataFrame,
    placements: pa.Table | pl.DataFrame,
    hero: str,
    *,
    zone: str = "МСК",
    cp1251: bool = False,
) -> Iterator[str]:
    """Yield each hand's ``ru`` text (lines joined by ``\\n``), from ``hero``'s point of view.

    ``zone``: ``МСК`` (default), ``UTC`` or ``UTC+05:00``-style.
    ``cp1251``: only characters Windows-1251 holds (see the module docstring).
    """
    label, tz = zone_label(zone)
    view = rc.prepare(hands, player_hands, placements, hero)
    view = rc.HeroView(
        view.hands,
        view.seats.with_columns(
            _cards(pl.col(row).list.join(" "), cp1251) for row in ("top", "middle", "bottom")
        ),
        view.actions.with_columns(
            _cards(pl.col(c), cp1251)
            for c in ("top", "middle", "bottom", "dealt", "shown_discards")
        ),
    )
    fmt = _Numbers(MINUS if not cp1251 else "-")
    currencies = CURRENCY_WORDS_CP1251 if cp1251 else CURRENCY_WORDS
    lines = [
        _header(view.hands, label, tz, currencies, fmt),
        _seats(view.seats, fmt),
        *rc.fantasyland_lines(view, SECTIONS, _hidden_dealt(pl.col("fantasyland_cards")), _actions),
        *rc.street_lines(view.actions.filter(pl.col("street") >= 1), SECTIONS, _actions),
        *_showdown(view.seats),
        *_summary(view.seats, currencies, fmt),
    ]
    return rc.assemble(view, lines)


class _Numbers:
    """Russian number writing: decimal comma, thousands spaces, the chosen minus."""

    def __init__(self, minus: str) -> None:
        self.minus = minus

    @staticmethod
    def group(text: pl.Expr) -> pl.Expr:
        """Thousands spaces in the integer part of ``1234567,5`` → ``1 234 567,5``."""
        whole = text.str.extract(r"^(\d+)", 1)
        rest = text.str.extract(r"^\d+(.*)$", 1)
        grouped = (
            whole.str.reverse()
            .str.replace_all(r"(\d{3})", "$1 ")
            .str.reverse()
            .str.strip_chars(" ")
        )
        return pl.concat_str(grouped, rest)

    def plain(self, value: pl.Expr) -> pl.Expr:
        """``1 000``, ``0,75``: no needless decimals."""
        return self.group(rc.plain_number(value).str.replace(".", ",", literal=True))

    def money(self, value: pl.Expr) -> pl.Expr:
        """``10``, ``0,50``, ``1 250,50``: whole amounts bare, others to the kopeck."""
        return (
            pl.when(value.round(0) == value)
            .then(self.plain(value))
            .otherwise(self.group(rc.money_number(value, point=",")))
        )

    def signed(self, value: pl.Expr, body: pl.Expr) -> pl.Expr:
        return rc.signed(value, body, minus=self.minus)


def _plural(n: pl.Expr, one: str, few: str, many: str) -> pl.Expr:
    """The Russian plural form for a count (1 карту, 3 карты, 5 карт, 11 карт)."""
    last, tens = n % 10, n % 100
    return (
        pl.when((last == 1) & (tens != 11))
        .then(pl.lit(one))
        .when(last.is_between(2, 4) & ~tens.is_between(12, 14))
        .then(pl.lit(few))
        .otherwise(pl.lit(many))
    )


def _header(
    hands: pl.DataFrame, label: str, tz: str, currencies: dict, fmt: _Numbers
) -> pl.DataFrame:
    words = {name: header_words(name) for name in hands.get_column("ruleset").unique()}
    currency = pl.col("currency").replace(currencies)
    stake = (
        pl.when(pl.col("point_value").is_null())
        .then(pl.lit("игровые фишки"))
        .otherwise(pl.format("очко = {} {}", fmt.money(pl.col("point_value")), currency))
    )
    seats_word = _plural(pl.col("max_players").cast(pl.Int64), "игрок", "игрока", "игроков")
    head = pl.format(
        "Раздача №{} · {} · {} ({})",
        "room_hand_id",
        pl.col("ruleset").replace_strict(words, return_dtype=pl.String),
        rc.local_time(pl.col("played_at"), tz, "%d.%m.%Y %H:%M:%S"),
        pl.lit(label),
    )
    table = pl.format(
        "Стол «{}» · {} {} · {} · баттон: место {}",
        "table_name",
        "max_players",
        seats_word,
        stake,
        "button_seat",
    )
    match = ("Матч №{}, продолжение (фантазия)", "Матч №{}, раздача {} из {}")
    return rc.header_lines(hands, head, table, match)


def _seats(seats: pl.DataFrame, fmt: _Numbers) -> pl.DataFrame:
    fl = rc.optional(
        pl.col("in_fantasyland"), pl.format(" — фантазия, {} карт", "fantasyland_cards")
    )
    stack = pl.col("starting_stack")
    text = pl.format(
        "Место {}: {} ({}){}",
        "seat",
        "player",
        fmt.signed(stack, fmt.plain(stack.abs())).str.strip_prefix("+"),
        fl,
    )
    return seats.select("idx", rc.line_key(rc.SEAT_BLOCK, pl.col("seat")), text=text)


def _hidden_dealt(count: pl.Expr) -> pl.Expr:
    """``<имя> получает <c> карт (закрыты)``: cards dealt face down."""
    count = count.cast(pl.Int64)
    return pl.format(
        "{} получает {} {} (закрыты)", "player", count, _plural(count, "карту", "карты", "карт")
    )


def _actions(actions: pl.DataFrame, block: pl.Expr | int) -> list[pl.DataFrame]:
    """Dealt, timeout and placement lines of one section's player-streets."""
    dealt = pl.when(pl.col("is_hero")).then(pl.format("{} получает: {}", "player", "dealt"))
    dealt = dealt.otherwise(_hidden_dealt(pl.col("dealt_count")))
    parts = (
        pl.concat_list(
            [
                pl.when(pl.col(row) != "").then(pl.format(f"{word} {{}}", row))
                for row, word in (("top", "верх"), ("middle", "середина"), ("bottom", "низ"))
            ]
            + [
                pl.when(pl.col("shown_discards") != "")
                .then(pl.format("сброс {}", "shown_discards"))
                .when(pl.col("hidden_discards") > 0)
                .then(pl.lit("сброс (закрыт)"))
            ]
        )
        .list.drop_nulls()
        .list.join(" | ")
    )
    return rc.action_lines(
        actions,
        block,
        dealt,
        pl.format(f"{{}}: {FORMAT.timeout}", "player"),
        pl.format("{}: {}", "player", parts),
    )


def _showdown(seats: pl.DataFrame) -> list[pl.DataFrame]:
    cards = {row: pl.col(row) for row in ("top", "middle", "bottom")}
    text = pl.format(
        "{}: верх {} · середина {} · низ {}{}",
        "player",
        cards["top"],
        cards["middle"],
        cards["bottom"],
        rc.optional(pl.col("reported_foul"), pl.lit(" — мёртвая рука")),
    )
    return rc.closing_lines(seats, rc.SHOWDOWN_BLOCK, SECTIONS.line(SECTIONS.showdown), text)


def _summary(seats: pl.DataFrame, currencies: dict, fmt: _Numbers) -> list[pl.DataFrame]:
    points = pl.col("reported_points")
    money = pl.col("reported_money")
    enters, stays = rc.fantasyland_next()
    cards = pl.col("reported_fantasyland_cards")
    text = pl.concat_str(
        "player",
        pl.lit(": "),
        fmt.signed(points, fmt.plain(points.abs())),
        rc.optional(
            pl.col("reported_royalties").is_not_null(),
            pl.format(" (роялти {})", fmt.plain(pl.col("reported_royalties"))),
        ),
        rc.optional(pl.col("reported_foul"), pl.lit(", мёртвая рука")),
        rc.optional(enters & cards.is_null(), pl.lit(", фантазия")),
        rc.optional(enters & cards.is_not_null(), pl.format(", фантазия ({} карт)", cards)),
        rc.optional(stays, pl.lit(", остаётся в фантазии")),
        rc.optional(
            money.is_not_null() & pl.col("currency").is_not_null(),
            pl.format(
                " = {} {}",
                fmt.signed(money, fmt.money(money.abs())),
                pl.col("currency").replace(currencies),
            ),
        ),
    )
    return rc.closing_lines(seats, rc.SUMMARY_BLOCK, SECTIONS.line(SECTIONS.summary), text)
