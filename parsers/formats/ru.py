"""Read the room text format ``ru`` (``/work/shared/formats/ofc-text-ru.md``), column-wise.

The same hand structure as ``en`` (``parsers.formats.en``) in other words:
Cyrillic ranks (``В Д К Т`` = J Q K A; Latin ``T J Q K A`` too, so Latin
``T`` is a ten and Cyrillic ``Т`` an ace), suit symbols or Latin letters
(Windows-1251 files), cards without brackets, ``·`` between header fields,
``|`` between the parts of a placement line, decimal commas, spaces between
thousands and the Unicode minus.

Names never hold ``": "`` but may end in ``":"`` (``Вася получает:``), so a
line's first ``": "`` need not end its name. A street's dealt lines are told
apart by their words, which no other line holds: an opponent's by its fixed
tail `` получает <c> карт (закрыты)`` (the name is all before it), the
hero's by `` получает: `` before the cards, which never hold it (the name
is all before its last occurrence). Every other line's name ends at its
first ``": "``. A name ending in `` получает`` makes its placement and
timeout lines read as the dealt lines of a shorter name (and fail).
"""

from __future__ import annotations

import polars as pl

from parsers import bounds
from parsers import extract as ex
from parsers.extract import CARD_LIST
from parsers.formats import en
from parsers.formats.text_format import TextFormat
from parsers.segment import SHOWDOWN, SUMMARY, UNKNOWN, SectionWords, Segmented
from parsers.zones import ru_zone

HEADER_PREFIX = "Раздача №"
TABLE_PREFIX, MATCH_PREFIX, SEAT_PREFIX = "Стол «", "Матч №", "Место "
SECTION_PREFIX = "== "
SECTIONS = SectionWords(SECTION_PREFIX, " ==", "Улица", "Фантазия", "Вскрытие", "Итог")
ID_PATTERN = r"^Раздача №(\S+)"
CLOCK = "%d.%m.%Y %H:%M:%S"
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
#: The rule words of a header: variant, Fantasyland kind, scoring, royalties.
HEADER_WORDS = (
    r"(?P<variant>Классика|Ананас 2-7|Ананас|Турбо)"
    r"(?: \((?P<fl>фантазия 13|фантазия 14|прогрессивная фантазия|без фантазии)\))?"
    r" · сч[её]т (?P<scoring>1-6|2-4) · роялти: (?P<royalty_table>американские|российские|stars-2013)"
)
HEADER = (
    rf"^Раздача №(?P<room_id>\S+) · {HEADER_WORDS}"
    r" · (?P<clock>\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d) \((?P<label>[^()]+)\)$"
)
#: A table line from its name's closing ``»`` on.
TABLE_FIELDS = (
    r"^» · (?P<max_players>\d+) игрок(?:а|ов)? · (?:(?P<play_money>игровые фишки)|"
    rf"очко = (?P<point_value>{_NUM}) (?P<currency_word>\S+)) · баттон: место (?P<button>\d+)$"
)
TABLE = rf"^Стол «(?P<table>.*){TABLE_FIELDS[1:]}"
#: A match line after ``Матч №<id>, ``.
MATCH_TAIL = (
    r"(?:раздача (?P<match_hand>\d+) из (?P<match_hands>\d+)"
    r"|(?P<continuation>продолжение \(фантазия\)))$"
)
MATCH = rf"^Матч №(?P<match>[^,]+), {MATCH_TAIL}"
#: A seat line from the space before its stack's bracket on.
SEAT_FIELDS = rf"^ \((?P<stack>{_NUM})\)(?: — фантазия, (?P<fl_cards>\d+) карт[аы]?)?$"
SEAT = rf"^Место (?P<seat_number>\d+): (?P<name>.+){SEAT_FIELDS[1:]}"
#: An opponent's dealt line after ``<имя>``: `` получает <c> <noun> (закрыты)``.
HIDDEN_NOUNS = ("карту", "карты", "карт")
HIDDEN_END = " (закрыты)"
HIDDEN_DEALT_TAIL = rf"{DEALT_SUFFIX} \d+ карт[уы]? \(закрыты\)$"
#: The hero's dealt line: the name up to the last `` получает: ``, then the cards.
SHOWN_DEALT = rf"^(?P<dealt_to>.+){DEALT_SUFFIX}: (?P<cards>.*)$"
_CARDS = rf"{ex.CARD}(?: {ex.CARD})*"
_PART = rf"(?:(?:верх|середина|низ|сброс) {_CARDS}|сброс \(закрыт\))"
#: A placement line after ``<имя>: `` (cards already canonical).
SETS_SHAPE = rf"^{_PART}(?: \| {_PART})*$"
SHOWS_SHAPE = rf"^верх {CARD_LIST} · середина {CARD_LIST} · низ {CARD_LIST}(?: — мёртвая рука)?$"
SUMMARY_LINE = (
    rf"^(?P<points>{_NUM})(?: \(роялти (?P<royalty>{_NUM})\))?(?P<fouled>, мёртвая рука)?"
    r"(?P<enters>, фантазия(?: \((?P<enter_cards>\d+) карт[аы]?\))?)?"
    r"(?P<stays>, остаётся в фантазии)?"
    rf"(?: = (?P<money>{_NUM}) (?P<money_currency>\S+))?$"
)


def extract(seg: Segmented) -> ex.Extracted:
    """Read every line of the chunk's hands into ``Extracted`` frames."""
    return ex.read_hands(
        seg,
        SECTION_PREFIX,
        {HEADER_PREFIX: _heads, TABLE_PREFIX: _tables, MATCH_PREFIX: _matches, SEAT_PREFIX: _seats},
        "line not understood before the first == section ==",
        _body,
    )


def _body(lines: pl.DataFrame) -> ex.Body:
    """The player lines of the known sections (``<имя>: ...``, dealt lines)."""
    players = ex.split_name(lines.filter(pl.col("sec") != UNKNOWN))
    playing = players.filter(pl.col("sec") < SHOWDOWN)
    dealt, dealt_cards, said, e = _dealt(playing)
    errors = [e]
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
    heads = ok.select(
        "h",
        "n",
        room_hand_id=pl.col("room_id"),
        **rule_words(),
        local=pl.col("clock").str.strptime(pl.Datetime("us"), CLOCK, strict=False),
        zone=zone(ok.get_column("label")),
    )
    unread = ex.errors(
        bad,
        "cannot read the hand header (expected 'Раздача №<id> · <вариант> · счёт <1-6|2-4> ·"
        " роялти: <таблица> · <ДД.ММ.ГГГГ ЧЧ:ММ:СС> (<пояс>)')",
    )
    clock = bounds.clock_text_problem(pl.col("clock"), CLOCK_PARTS)
    return heads, pl.concat([unread, ex.bound_errors(ok, clock)])


def rule_words() -> dict[str, pl.Expr]:
    """The header's rule words (groups of ``HEADER_WORDS``) in format-neutral words."""
    return ex.rule_words(VARIANTS, FANTASYLAND, ROYALTIES)


def zone(labels: pl.Series) -> pl.Series:
    """The zone each clock label stands for (``parsers.zones.ru_zone``; null when unknown)."""
    zones = {label: ru_zone(label) for label in labels.unique().to_list()}
    return labels.replace_strict(zones, return_dtype=pl.String)


#: Where the parts of ``ДД.ММ.ГГГГ ЧЧ:ММ:СС`` start.
CLOCK_PARTS = {"day": 0, "month": 3, "year": 6, "hour": 11, "minute": 14, "second": 17}


def _tables(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, TABLE)
    ok = ok.with_columns(currency=currency())
    unknown = ok.filter(pl.col("currency_word").is_not_null() & pl.col("currency").is_null())
    tables = ok.select("h", "n", table_name=pl.col("table"), **table_fields())
    errs = pl.concat(
        [
            ex.errors(
                bad,
                "cannot read the table line (expected 'Стол «<стол>» · <n> игрока · <ставка> ·"
                " баттон: место <k>')",
            ),
            ex.errors(
                unknown,
                pl.format(
                    "unknown currency '{}' (₽, RUB, $, USD, €, грн or an ISO code)", "currency_word"
                ),
            ),
            ex.bound_errors(ok, table_problem()),
        ]
    )
    return tables.join(unknown.select("n"), on="n", how="anti"), errs


def currency() -> pl.Expr:
    """The ISO code of a table line's ``currency_word`` (null: play money, or unknown)."""
    return currency_code(pl.col("currency_word"))


def currency_code(word: pl.Expr) -> pl.Expr:
    """The ISO code of a currency word (``₽``, ``RUB``, ``$``...; null: unknown)."""
    return word.replace_strict(CURRENCIES, default=None).fill_null(ex.iso_currency(word))


def table_problem() -> pl.Expr:
    """A table line's number out of its bound, from ``TABLE_FIELDS``' groups."""
    return bounds.of_groups(
        (bounds.MAX_PLAYERS, "max_players", bounds.integer),
        (bounds.POINT_VALUE, "point_value", ex.ru_number),
        (bounds.BUTTON_SEAT, "button", bounds.integer),
    )


def table_fields() -> dict[str, pl.Expr]:
    """The fields of a table line's tail, from the groups of ``TABLE_FIELDS`` and ``currency``."""
    return {
        "max_players": pl.col("max_players").cast(pl.Int64, strict=False),
        "point_value": ex.ru_number(pl.col("point_value")),
        "currency": currency(),
        "button_seat": pl.col("button").cast(pl.Int64, strict=False),
    }


def _matches(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, MATCH)
    matches = ok.select("h", "n", match_id=pl.col("match"), **match_fields())
    errors = ex.errors(
        bad, "cannot read the match line (expected 'Матч №<id>, раздача <i> из <m>')"
    )
    return matches, pl.concat([errors, ex.bound_errors(ok, match_problem())])


def match_problem() -> pl.Expr:
    """A match line's number out of its bound, from ``MATCH_TAIL``'s groups."""
    return en.match_problem()


def match_fields() -> dict[str, pl.Expr]:
    """The fields of ``MATCH_TAIL``'s groups."""
    return ex.match_fields()


def _seats(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, SEAT)
    seats = ok.select(
        "h",
        "n",
        seat=pl.col("seat_number").cast(pl.Int64, strict=False),
        player=pl.col("name"),
        **seat_fields(),
    )
    errors = ex.errors(bad, "cannot read the seat line (expected 'Место <k>: <имя> (<стек>)')")
    return seats, pl.concat([errors, ex.bound_errors(ok, seat_problem())])


def seat_problem() -> pl.Expr:
    """A seat line's number out of its bound, from the groups of ``SEAT_FIELDS``."""
    return en.seat_problem(ex.ru_number)


def seat_fields() -> dict[str, pl.Expr]:
    """The fields of a seat line's tail, from the groups of ``SEAT_FIELDS``."""
    return {
        "stack": ex.ru_number(pl.col("stack")),
        "fl_cards": pl.col("fl_cards").cast(pl.Int64, strict=False).fill_null(0),
    }


def _dealt(
    playing: pl.DataFrame,
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``<имя> получает: <карты>`` (the hero) and ``<имя> получает <c> карт (закрыты)``.

    Told apart by their words, not by the first ``": "`` (the module docstring):
    returns the dealt ``acts``, the hero's dealt ``cards``, the other lines
    (``<имя>: ...``, ``player`` and ``rest`` cut at the first ``": "``) and errors.
    """
    frame = playing.with_columns(tail=pl.col("line").str.extract(HIDDEN_DEALT_TAIL, 0))
    hidden = frame.filter(pl.col("tail").is_not_null())
    others = frame.filter(pl.col("tail").is_null()).drop("tail")
    shown = pl.col("line").str.contains(f"{DEALT_SUFFIX}: ", literal=True)
    hero = (
        others.filter(shown)
        .with_columns(pl.col("line").str.extract_groups(SHOWN_DEALT).alias("_dealt"))
        .with_columns(
            player=pl.col("_dealt").struct.field("dealt_to"),
            cards=pl.col("_dealt").struct.field("cards"),
        )
        .drop("_dealt")
    )
    unnamed = hero.filter(pl.col("player").is_null()).select(playing.columns)
    said = pl.concat([others.filter(~shown), unnamed])
    hero = hero.filter(pl.col("player").is_not_null()).with_columns(
        cards=pl.col("cards").str.strip_chars().str.replace_many(SPELLINGS)
    )
    hero, bad = ex.conform(hero, "cards", f"^{CARD_LIST}$", SPELLINGS)
    dealt = ex.dealt_acts(hero, hidden, ex.drop_tail(pl.col("line"), pl.col("tail")))
    errors = pl.concat(
        [
            ex.card_errors(
                bad, pl.col("cards"), "the dealt cards", "cannot read the dealt cards", SPELLINGS
            ),
            ex.errors(
                said.filter(pl.col("player").is_null()),
                "line not understood (expected '<имя> получает <c> карт (закрыты)' or '<имя>: ...')",
            ),
        ]
    )
    said = said.filter(pl.col("player").is_not_null())
    return dealt, ex.explode_cards(hero, "cards", pl.lit(ex.DEALT)), said, errors


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
        SPELLINGS,
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
        SPELLINGS,
    )
    return shows, errors


def _summaries(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    ok, bad = ex.match_groups(lines, SUMMARY_LINE, column="rest")
    summaries = ok.select("h", "n", "player", **summary_fields())
    errors = ex.errors(
        bad,
        "cannot read the summary line (expected '<имя>: <+N|−N>[ (роялти <r>)][, мёртвая рука]"
        "[, фантазия (<c> карт)][, остаётся в фантазии][ = <+M|−M> <валюта>]')",
    )
    return summaries, pl.concat([errors, ex.bound_errors(ok, summary_problem())])


def summary_problem() -> pl.Expr:
    """A summary line's number out of its bound, from the groups of ``SUMMARY_LINE``."""
    return en.summary_problem(ex.ru_number)


def summary_fields() -> dict[str, pl.Expr]:
    """The figures of a summary line, from the groups of ``SUMMARY_LINE``."""
    return ex.summary_fields(ex.ru_number, currency_code)


FORMAT = TextFormat(
    name="ru",
    encodings=("utf-8", "cp1251"),
    header_prefix=HEADER_PREFIX,
    sections=SECTIONS,
    id_pattern=ID_PATTERN,
    timeout=TIMEOUT,
    clock=CLOCK,
    variants=VARIANTS,
    fantasyland=FANTASYLAND,
    royalties=ROYALTIES,
    spellings=SPELLINGS,
    extract=extract,
)
