"""Read the room text format ``ru`` (``/work/shared/formats/ofc-text-ru.md``), column-wise.

The same hand structure as ``en`` (``parsers.formats.en``) in other words:
Cyrillic ranks (``В Д К Т`` = J Q K A; Latin ``T J Q K A`` too, so Latin
``T`` is a ten and Cyrillic ``Т`` an ace), suit symbols or Latin letters
(Windows-1251 files), cards without brackets, ``·`` between header fields,
``|`` between the parts of a placement line, decimal commas, spaces between
thousands and the Unicode minus. Names never hold ``": "``: the hero's dealt
line ``<имя> получает: <карты>`` is told apart by its ``" получает"`` ending.
"""

from __future__ import annotations

import polars as pl

from parsers import extract as ex
from parsers.extract import CARD_LIST
from parsers.segment import SHOWDOWN, SUMMARY, UNKNOWN, SectionWords, Segmented, segment
from parsers.zones import ru_zone

HEADER_PREFIX = "Раздача №"
SECTION_PREFIX = "== "
SECTIONS = SectionWords(SECTION_PREFIX, " ==", "Улица", "Фантазия", "Вскрытие", "Итог")
ID_PATTERN = r"^Раздача №(\S+)"
TIMEOUT = "время вышло, карты разложены автоматически"
DEALT_SUFFIX = " получает"
#: Russian card spellings → canonical letters (R1); row words are lower case, so untouched.
SPELLINGS = {
    **{f"10{s}": f"T{s}" for s in "shdc"},
    **{f"10{s}": f"T{t}" for s, t in zip("♠♥♦♣", "shdc", strict=True)},
    "В": "J",
    "Д": "Q",
    "К": "K",
    "Т": "A",
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
}
VARIANTS = {
    "Классика": "classic",
    "Ананас": "pineapple",
    "Турбо": "turbo",
    "Ананас 2-7": "pineapple-27",
}
FANTASYLAND = {
    "фантазия 13": "13",
    "фантазия 14": "14",
    "прогрессивная фантазия": "progressive",
    "без фантазии": "none",
}
ROYALTIES = {"американские": "american", "российские": "russian", "stars-2013": "stars-2013"}
CURRENCIES = {
    "₽": "RUB",
    "RUB": "RUB",
    "руб": "RUB",
    "руб.": "RUB",
    "$": "USD",
    "USD": "USD",
    "€": "EUR",
    "EUR": "EUR",
    "грн": "UAH",
    "UAH": "UAH",
}
ROWS = {"верх": ex.TOP, "середина": ex.MIDDLE, "низ": ex.BOTTOM, "сброс": ex.DISCARD}

_NUM = r"[+\-\u2212]?\d[\d \u00a0\u202f]*(?:,\d+)?"
HEADER = (
    r"^Раздача №(\S+) · (Классика|Ананас 2-7|Ананас|Турбо)"
    r"(?: \((фантазия 13|фантазия 14|прогрессивная фантазия|без фантазии)\))?"
    r" · сч[её]т (1-6|2-4) · роялти: (американские|российские|stars-2013)"
    r" · (\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d) \(([^()]+)\)$"
)
TABLE = (
    r"^Стол «(.*)» · (\d+) игрок(?:а|ов)? · (?:(игровые фишки)|очко = "
    rf"({_NUM}) (\S+)) · баттон: место (\d+)$"
)
MATCH = r"^Матч №([^,]+), (?:раздача (\d+) из (\d+)|(продолжение \(фантазия\)))$"
SEAT = rf"^Место (\d+): (.+) \(({_NUM})\)(?: — фантазия, (\d+) карт[аы]?)?$"
HIDDEN_DEALT_TAIL = r" получает \d+ карт[уы]? \(закрыты\)$"
_CARDS = rf"{ex.CARD}(?: {ex.CARD})*"
_PART = rf"(?:(?:верх|середина|низ|сброс) {_CARDS}|сброс \(закрыт\))"
#: A placement line after ``<имя>: `` (cards already canonical).
SETS_SHAPE = rf"^{_PART}(?: \| {_PART})*$"
SHOWS_SHAPE = rf"^верх {CARD_LIST} · середина {CARD_LIST} · низ {CARD_LIST}(?: — мёртвая рука)?$"
SUMMARY_LINE = (
    rf"^({_NUM})(?: \(роялти ({_NUM})\))?(, мёртвая рука)?"
    r"(, фантазия(?: \((\d+) карт[аы]?\))?)?(, остаётся в фантазии)?"
    rf"(?: = ({_NUM}) (\S+))?$"
)


def segment_lines(lines: pl.DataFrame) -> Segmented:
    """Cut a chunk's ``line``/``n`` frame into hands and sections."""
    return segment(lines, HEADER_PREFIX, SECTIONS)


def extract(seg: Segmented) -> ex.Extracted:
    """Read every line of the chunk's hands into ``Extracted`` frames."""
    return ex.read_hands(
        seg,
        SECTION_PREFIX,
        {HEADER_PREFIX: _heads, "Стол «": _tables, "Матч №": _matches, "Место ": _seats},
        "line not understood before the first == section ==",
        _body,
    )


def _body(lines: pl.DataFrame) -> ex.Body:
    """The player lines of the known sections (``<имя>: ...``, dealt lines)."""
    players = ex.split_name(lines.filter(pl.col("sec") != UNKNOWN))
    playing = players.filter(pl.col("sec") < SHOWDOWN)
    dealt, dealt_cards, e = _dealt(playing)
    errors = [e]
    said = playing.filter(
        pl.col("player").is_not_null() & ~pl.col("player").str.ends_with(DEALT_SUFFIX)
    )
    is_timeout = pl.col("rest") == TIMEOUT
    sets, placed, e = _sets(said.filter(~is_timeout))
    errors.append(e)
    timeouts = ex.acts(said.filter(is_timeout), ex.TIMEOUT_LINE, player=pl.col("player"))
    named = pl.col("player").is_not_null()
    shows, e = _shows(players.filter((pl.col("sec") == SHOWDOWN) & named))
    errors.append(e)
    summaries, e = _summaries(players.filter((pl.col("sec") == SUMMARY) & named))
    errors.append(e)
    errors.append(
        ex.errors(players.filter(~named & (pl.col("sec") >= SHOWDOWN)), "line not understood")
    )
    return ex.Body([dealt, timeouts, sets], [dealt_cards, placed], shows, summaries, errors)


def _heads(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, HEADER)
    zones = {label: ru_zone(label) for label in ok.get_column("g7").unique().to_list()}
    heads = ok.select(
        "h",
        "n",
        room_hand_id=pl.col("g1"),
        variant=pl.col("g2").replace_strict(VARIANTS),
        fantasyland=pl.col("g3").replace_strict(FANTASYLAND, default="default"),
        scoring=pl.col("g4"),
        royalties=pl.col("g5").replace_strict(ROYALTIES),
        local=pl.col("g6").str.strptime(pl.Datetime("us"), "%d.%m.%Y %H:%M:%S", strict=False),
        zone=pl.col("g7").replace_strict(zones, return_dtype=pl.String),
    )
    return heads, ex.errors(
        bad,
        "cannot read the hand header (expected 'Раздача №<id> · <вариант> · счёт <1-6|2-4> ·"
        " роялти: <таблица> · <ДД.ММ.ГГГГ ЧЧ:ММ:СС> (<пояс>)')",
    )


def _tables(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, TABLE)
    currency = pl.col("g5").replace_strict(CURRENCIES, default=None)
    iso = pl.when(pl.col("g5").str.contains(r"^[A-Z]{3}$")).then(pl.col("g5"))
    ok = ok.with_columns(currency=currency.fill_null(iso))
    unknown = ok.filter(pl.col("g5").is_not_null() & pl.col("currency").is_null())
    tables = ok.select(
        "h",
        "n",
        table_name=pl.col("g1"),
        max_players=pl.col("g2").cast(pl.Int64, strict=False),
        point_value=ex.ru_number(pl.col("g4")),
        currency="currency",
        button_seat=pl.col("g6").cast(pl.Int64, strict=False),
    )
    errs = pl.concat(
        [
            ex.errors(
                bad,
                "cannot read the table line (expected 'Стол «<стол>» · <n> игрока · <ставка> ·"
                " баттон: место <k>')",
            ),
            ex.errors(
                unknown,
                pl.format("unknown currency '{}' (₽, RUB, $, USD, €, грн or an ISO code)", "g5"),
            ),
        ]
    )
    return tables.join(unknown.select("n"), on="n", how="anti"), errs


def _matches(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, MATCH)
    matches = ok.select(
        "h",
        "n",
        match_id=pl.col("g1"),
        match_hand=pl.col("g2").cast(pl.Int64, strict=False),
        match_hands=pl.col("g3").cast(pl.Int64, strict=False),
        continuation=pl.col("g4").is_not_null(),
    )
    return matches, ex.errors(
        bad, "cannot read the match line (expected 'Матч №<id>, раздача <i> из <m>')"
    )


def _seats(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, SEAT)
    seats = ok.select(
        "h",
        "n",
        seat=pl.col("g1").cast(pl.Int64, strict=False),
        player=pl.col("g2"),
        stack=ex.ru_number(pl.col("g3")),
        fl_cards=pl.col("g4").cast(pl.Int64, strict=False).fill_null(0),
    )
    return seats, ex.errors(bad, "cannot read the seat line (expected 'Место <k>: <имя> (<стек>)')")


def _dealt(playing: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``<имя> получает: <карты>`` (the hero) and ``<имя> получает <c> карт (закрыты)``."""
    hero = playing.filter(pl.col("player").str.ends_with(DEALT_SUFFIX)).with_columns(
        pl.col("player").str.strip_suffix(DEALT_SUFFIX),
        cards=pl.col("rest").str.strip_chars().str.replace_many(SPELLINGS),
    )
    hero, bad = ex.conform(hero, "cards", f"^{CARD_LIST}$", SPELLINGS)
    unnamed = playing.filter(pl.col("player").is_null()).with_columns(
        tail=pl.col("line").str.extract(HIDDEN_DEALT_TAIL, 0)
    )
    hidden = unnamed.filter(pl.col("tail").is_not_null())
    dealt = ex.dealt_acts(hero, hidden, ex.drop_tail(pl.col("line"), pl.col("tail")))
    errors = pl.concat(
        [
            ex.card_errors(bad, pl.col("cards"), "the dealt cards", "cannot read the dealt cards"),
            ex.errors(
                unnamed.filter(pl.col("tail").is_null()),
                "line not understood (expected '<имя> получает <c> карт (закрыты)' or '<имя>: ...')",
            ),
        ]
    )
    return dealt, ex.explode_cards(hero, "cards", pl.lit(ex.DEALT)), errors


def _sets(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``<имя>: верх <карты> | середина <карты> | низ <карты> | сброс <карты>|(закрыт)``."""
    lines = lines.with_columns(pl.col("rest").str.replace_many(SPELLINGS))
    ok, bad = ex.conform(lines, "rest", SETS_SHAPE, SPELLINGS)
    parts = ex.split_at(
        ok.select("n", part=pl.col("rest").str.split(" | ")).explode("part"),
        "part",
        " ",
        "word",
        "cards",
    ).with_columns(row=pl.col("word").replace_strict(ROWS, return_dtype=pl.Int8))
    closed = (
        parts.filter(pl.col("cards") == "(закрыт)")
        .select("n")
        .unique()
        .with_columns(unsaid=pl.lit(True))
    )
    sets = ex.acts(
        ok.join(closed, on="n", how="left"),
        ex.SETS_LINE,
        player=pl.col("player"),
        hidden=pl.when(pl.col("unsaid").is_null()).then(0),
    )
    placed = ex.explode_cards(parts.filter(pl.col("cards") != "(закрыт)"), "cards", pl.col("row"))
    errors = ex.card_errors(
        bad,
        pl.col("rest")
        .str.replace_all(r"(верх|середина|низ|сброс|\(закрыт\)|\|)", " ")
        .str.replace_all(r" +", " ")
        .str.strip_chars(),
        pl.format("{}'s placement", "player"),
        pl.format(
            "cannot read {}'s placement (expected parts 'верх|середина|низ|сброс <карты>' separated by ' | ')",
            "player",
        ),
    )
    return sets, placed, errors


def _shows(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``<имя>: верх <3> · середина <5> · низ <5>[ — мёртвая рука]``."""
    lines = lines.with_columns(pl.col("rest").str.replace_many(SPELLINGS))
    ok, bad = ex.conform(lines, "rest", SHOWS_SHAPE, SPELLINGS)
    fouled = pl.col("rest").str.ends_with(" — мёртвая рука")
    parts = pl.col("rest").str.strip_suffix(" — мёртвая рука").str.split(" · ")
    rows = {
        row: ex.card_lists(parts.list.get(i).str.strip_prefix(f"{word} "))
        for i, (row, word) in enumerate(
            (("top", "верх"), ("middle", "середина"), ("bottom", "низ"))
        )
    }
    shows = ok.select("h", "n", "player", **rows, fouled=fouled)
    errors = ex.card_errors(
        bad,
        pl.col("rest")
        .str.strip_suffix(" — мёртвая рука")
        .str.replace_all(r"(верх|середина|низ|·)", " ")
        .str.replace_all(r" +", " ")
        .str.strip_chars(),
        pl.format("{}'s showdown", "player"),
        "cannot read the showdown line (expected '<имя>: верх <3> · середина <5> · низ <5>')",
    )
    return shows, errors


def _summaries(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, SUMMARY_LINE, column="rest")
    summaries = ok.select("h", "n", "player", **ex.summary_fields(ex.ru_number))
    return summaries, ex.errors(
        bad,
        "cannot read the summary line (expected '<имя>: <+N|−N>[ (роялти <r>)][, мёртвая рука]"
        "[, фантазия (<c> карт)][, остаётся в фантазии][ = <+M|−M> <валюта>]')",
    )
