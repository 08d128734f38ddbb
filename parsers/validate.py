"""Checking every hand before it is stored, column-wise with joins and group-bys.

A hand is stored only if all of these hold; otherwise it goes to ``rejects``
with the first problem found (by line), in words a person understands:

* the header zone: one table line, at most one match line, two or more
  seats with distinct numbers within the table size and distinct names, a
  clock time that exists in its zone, a ``--ruleset`` of the header's variant;
* sections: the Fantasyland section exactly when someone is in Fantasyland,
  streets ``1..N`` of the variant (R2) when someone is not, then showdown and
  summary, each once and in that order;
* streets (R2): each player not in Fantasyland has one dealt line and one
  placement line per street, placing and discarding the variant's counts, and
  is dealt exactly what they place and discard (the hero's cards by name);
* Fantasyland (R6, R10): each Fantasyland player is dealt a count the ruleset
  deals, and a hand set in the file places 13 cards and discards the rest;
* showdown: one line per player with 3, 5 and 5 cards that agree, row by
  row, with the player's placements (13 cards per finished player);
* no card appears twice in a hand (shown rows and shown discards);
* summary: one line per player, each complete (at a table played for money,
  with its money part: ``cut_summaries``); every line names a seated player.
"""

from __future__ import annotations

import polars as pl

from ofc_core.rulesets import player_count_reason
from ofc_core.variants import STREETS
from parsers import extract as ex
from parsers.extract import Extracted
from parsers.groups import grouped
from parsers.resolve import (
    SEAT_KEY,
    SEC_KEY,
    Resolved,
    fantasyland_counts,
    ruleset_players,
    ruleset_variant,
)
from parsers.segment import HEAD, SHOWDOWN, SUMMARY

ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}
#: The most seats a table line may give (docs/parsers.md): OFC is played 2 to 4 handed;
#: more is a damaged or hostile header, not a table (it would not fit the model's int8).
MAX_TABLE_SEATS = 10


def street_plan() -> pl.DataFrame:
    """One row per variant and street: ``variant``, ``sec``, ``want_placed``, ``want_discards``."""
    rows = [
        (variant, street.number, street.placed, street.discards)
        for variant, streets in STREETS.items()
        for street in streets
    ]
    return pl.DataFrame(
        rows, schema=["variant", "sec", "want_placed", "want_discards"], orient="row"
    ).with_columns(pl.col("sec", "want_placed", "want_discards").cast(pl.Int64))


def _v(frame: pl.DataFrame, reason: pl.Expr | str, n: str = "n", rank: int = 2) -> pl.DataFrame:
    """Violation rows (``h``, ``n``, ``reason``, ``rank``) for the rows of ``frame``.

    A hand's reported problem is its lowest ``rank``, then its first line: a
    missing section (a cut-short hand, rank 1) explains more than what follows from it.
    """
    reason = pl.lit(reason) if isinstance(reason, str) else reason
    return frame.select(
        pl.col("h").cast(pl.Int64),
        pl.col(n).cast(pl.Int64).alias("n"),
        reason.cast(pl.String).alias("reason"),
        pl.lit(rank, dtype=pl.Int64).alias("rank"),
    )


def validate(x: Extracted, r: Resolved) -> pl.DataFrame:
    """Every violation found (``h``, ``n``, ``reason``, ``rank``); a hand may have several.

    Group-bys run through ``parsers.groups.grouped`` (the faster engine);
    most checks compare integer sums, and only failing hands are searched
    for the card or line to name.
    """
    rulesets = [name for name in r.hands.get_column("ruleset").unique().to_list() if name]
    checks = [
        _header_zone(x, r, rulesets),
        _sections(x, r),
        _streets(r),
        _showdown(x, r),
        _agreement(r),
        _duplicates(r),
        _summaries(x, r),
        _v(r.unknown_players, pl.format("no seat holds a player named '{}'", "player")),
    ]
    return pl.concat(checks)


def _count(frame: pl.DataFrame, key: str | list[str], name: str) -> pl.DataFrame:
    return grouped(frame, key, pl.len().alias(name), pl.col("n").min().alias(f"{name}_n"))


def _header_zone(x: Extracted, r: Resolved, rulesets: list[str]) -> pl.DataFrame:
    hands = x.hands.join(
        r.hands.select("h", "max_players", "variant", "ruleset", "played_at", "zone", "local"),
        on="h",
        how="inner",
    )
    hands = hands.join(_count(x.tables, "h", "tables"), on="h", how="left")
    hands = hands.join(_count(x.matches, "h", "matches"), on="h", how="left")
    hands = hands.join(_count(x.seats, "h", "seats"), on="h", how="left").with_columns(
        pl.col("tables", "matches", "seats").fill_null(0)
    )
    seats = r.seats.join(hands.select("h", "max_players", "ruleset"), on="h", how="left")
    allowed = {name: list(fantasyland_counts(name)) for name in rulesets}
    seats = seats.with_columns(
        allowed=pl.col("ruleset").replace_strict(
            allowed, default=None, return_dtype=pl.List(pl.Int64)
        )
    )
    variants = {name: ruleset_variant(name) for name in allowed}
    players = {name: ruleset_players(name) for name in allowed}
    hands = hands.with_columns(
        ruleset_variant=pl.col("ruleset").replace_strict(variants, default=None),
        most_players=pl.col("ruleset").replace_strict(
            {n: p[0] for n, p in players.items()}, default=None, return_dtype=pl.Int64
        ),
        allowed_players=pl.col("ruleset").replace_strict(
            {n: p[1] for n, p in players.items()}, default=None, return_dtype=pl.String
        ),
    )
    return pl.concat(
        [
            _v(
                hands.filter(pl.col("tables") == 0),
                "no table line ('Table ...' / 'Стол ...') after the header",
            ),
            _v(hands.filter(pl.col("tables") > 1), "the table line appears twice", n="tables_n"),
            _v(hands.filter(pl.col("matches") > 1), "the match line appears twice", n="matches_n"),
            _v(
                hands.filter(pl.col("seats") < 2),
                "fewer than two seats: a hand needs two players or more",
            ),
            _v(
                hands.filter(
                    (pl.col("tables") == 1)
                    & ~pl.col("max_players").is_between(2, MAX_TABLE_SEATS).fill_null(False)
                ),
                pl.format(
                    "the table line gives {} seats: a table has 2 to {} seats",
                    pl.col("max_players").cast(pl.String).fill_null("an unreadable number of"),
                    pl.lit(MAX_TABLE_SEATS),
                ),
            ),
            _v(
                hands.filter(pl.col("seats") > pl.col("max_players")),
                pl.format("{} seats at a {}-player table", "seats", "max_players"),
            ),
            _v(
                hands.filter(pl.col("seats") > pl.col("most_players")),
                pl.format(  # the wording of ofc score, with the values filled in here
                    player_count_reason("{}", "{}", "{}"),
                    "ruleset_variant",
                    "allowed_players",
                    "seats",
                ),
            ),
            _v(
                hands.filter(
                    pl.col("played_at").is_null()
                    & pl.col("zone").is_not_null()
                    & pl.col("local").is_not_null()
                ),
                "the clock time does not exist in its time zone (a daylight-saving gap)",
            ),
            _v(
                hands.filter(pl.col("ruleset_variant") != pl.col("variant")),
                pl.format(
                    "the header says {} but ruleset {} plays {}",
                    "variant",
                    "ruleset",
                    "ruleset_variant",
                ),
            ),
            _v(
                x.heads.filter(pl.col("zone").is_null() | pl.col("local").is_null()),
                "unknown time zone or impossible date in the header",
            ),
            _v(
                seats.filter(pl.len().over("skey") > 1).filter(
                    pl.col("n") > pl.col("n").min().over("skey")
                ),
                pl.format("seat {} is listed twice", "seat"),
            ),
            _v(
                seats.filter(pl.len().over("h", "player") > 1).filter(
                    pl.col("n") > pl.col("n").min().over("h", "player")
                ),
                pl.format("two seats hold the same name '{}'", "player"),
            ),
            _v(
                seats.filter((pl.col("seat") < 1) | (pl.col("seat") > pl.col("max_players"))),
                pl.format("seat {} at a {}-player table", "seat", "max_players"),
            ),
            _v(
                seats.filter(
                    (pl.col("fl_cards") > 0)
                    & ~pl.col("allowed").list.contains(pl.col("fl_cards")).fill_null(False)
                ),
                pl.format(
                    "{} is in Fantasyland with {} cards, which ruleset {} never deals (docs/rules.md R6)",
                    "player",
                    "fl_cards",
                    "ruleset",
                ),
            ),
        ]
    )


def _sections(x: Extracted, r: Resolved) -> pl.DataFrame:
    """The sections each hand must have, once each, in order.

    Section lines come in file order, so a section that is not after the one
    before it in the same hand is a repeat (same code) or out of order.
    """
    people = grouped(
        r.seats, "h", fl=(pl.col("fl_cards") > 0).any(), live=(pl.col("fl_cards") == 0).any()
    )
    hands = (
        r.hands.select("h", "variant")
        .join(people, on="h", how="inner")
        .join(x.hands.select("h", "n", "last"), on="h", how="inner")
    )
    plan = street_plan().select("variant", "sec")
    key = (pl.col("h") * SEC_KEY + pl.col("sec")).alias("sk")
    expected = pl.concat(
        [
            hands.filter("live").join(plan, on="variant", how="inner").select("h", "sec"),
            hands.filter("fl").select("h", sec=pl.lit(0, dtype=pl.Int64)),
            hands.select("h", sec=pl.lit(SHOWDOWN, dtype=pl.Int64)),
            hands.select("h", sec=pl.lit(SUMMARY, dtype=pl.Int64)),
        ]
    ).with_columns(key)
    present = (
        x.sections.filter(pl.col("sec") >= 0)
        .with_columns(pl.col("sec").cast(pl.Int64))
        .join(hands.select("h"), on="h", how="semi")
        .sort("n")
        .with_columns(key)
    )
    missing = expected.join(present, on="sk", how="anti").join(hands, on="h", how="left")
    extra = present.join(expected, on="sk", how="anti").join(hands, on="h", how="left")
    # Where a missing section should have been: before the first section that comes after it.
    after = (
        missing.select("h", "sec")
        .join(present.select("h", later="sec", later_n="n"), on="h", how="inner")
        .filter(pl.col("later") > pl.col("sec"))
        .group_by("h", "sec")
        .agg(pl.col("later_n").min())
    )
    missing = missing.join(after, on=["h", "sec"], how="left")
    same_hand = pl.col("h") == pl.col("h").shift(1)
    step = pl.col("sec") - pl.col("sec").shift(1)
    name = _section_name(pl.col("sec"))
    return pl.concat(
        [
            _v(
                missing.filter(pl.col("later_n").is_null()),
                pl.format("the hand ends without its {} section (cut short?)", name),
                n="last",
                rank=1,
            ),
            _v(
                missing.filter(pl.col("later_n").is_not_null()),
                pl.format("the {} section is missing", name),
                n="later_n",
                rank=1,
            ),
            _v(
                extra,
                pl.when(pl.col("sec") == 0)
                .then(pl.lit("a Fantasyland section, but no seat is in Fantasyland"))
                .when(pl.col("live").not_())
                .then(pl.format("{} section, but every player is in Fantasyland", name))
                .otherwise(
                    pl.format(
                        "{} section, but {} has {} streets (docs/rules.md R2)",
                        name,
                        "variant",
                        _street_count(pl.col("variant")),
                    )
                ),
            ),
            _v(
                present.filter(same_hand & (step == 0)),
                pl.format("the {} section appears twice", name),
            ),
            _v(
                present.filter(same_hand & (step < 0)),
                pl.format("the {} section is out of order", name),
            ),
        ]
    )


def _street_count(variant: pl.Expr) -> pl.Expr:
    return variant.replace_strict({v: len(s) for v, s in STREETS.items()}, return_dtype=pl.Int64)


def _section_name(sec: pl.Expr) -> pl.Expr:
    return (
        pl.when(sec == 0)
        .then(pl.lit("Fantasyland"))
        .when(sec == SHOWDOWN)
        .then(pl.lit("showdown"))
        .when(sec == SUMMARY)
        .then(pl.lit("summary"))
        .when(sec == HEAD)
        .then(pl.lit("header"))
        .otherwise(pl.format("street {}", sec))
    )


def _sum_if(condition: pl.Expr, value: pl.Expr | int = 1) -> pl.Expr:
    """A column to sum in a group-by: ``value`` where ``condition`` holds, else 0."""
    value = pl.lit(value) if isinstance(value, int) else value
    return pl.when(condition).then(value).otherwise(0)


def _streets(r: Resolved) -> pl.DataFrame:
    """Dealt and placement lines per player per street against the variant's plan (R2, R6)."""
    seats = r.seats.join(r.hands.select("h", "variant"), on="h", how="inner")
    live = seats.filter(pl.col("fl_cards") == 0).join(street_plan(), on="variant", how="inner")
    fl = seats.filter(pl.col("fl_cards") > 0).with_columns(
        sec=pl.lit(0, dtype=pl.Int64),
        want_placed=pl.lit(13, dtype=pl.Int64),
        want_discards=pl.col("fl_cards") - 13,
    )
    columns = ["skey", "player", "sec", "want_placed", "want_discards", "fl_cards"]
    expected = pl.concat([live.select(columns), fl.select(columns)]).with_columns(
        akey=pl.col("skey") * SEC_KEY + pl.col("sec")
    )
    kind = pl.col("kind")
    dealt_line, sets_line = kind == ex.DEALT_LINE, kind == ex.SETS_LINE
    acts = grouped(
        r.acts,
        "akey",
        dealts=dealt_line.sum(),
        sets=sets_line.sum(),
        dealt_count=_sum_if(dealt_line, pl.col("count").fill_null(0)).sum(),
        hidden=_sum_if(sets_line, pl.col("hidden").fill_null(0)).sum(),
        shown=(dealt_line & pl.col("shown").fill_null(False)).sum(),
        sets_n=pl.when(sets_line).then(pl.col("n")).min(),
        dealt_n=pl.when(dealt_line).then(pl.col("n")).min(),
        first_n=pl.col("n").min(),
    )
    row = pl.col("row")
    cards = grouped(
        r.cards,
        "akey",
        placed=(row < ex.DISCARD).sum(),
        discarded=(row == ex.DISCARD).sum(),
        dealt_mask=_sum_if(row == ex.DEALT, pl.col("mask")).cast(pl.UInt64).sum(),
        played_mask=_sum_if(row < ex.DEALT, pl.col("mask")).cast(pl.UInt64).sum(),
    )
    exp = (
        expected.join(acts, on="akey", how="left")
        .join(cards, on="akey", how="left")
        .with_columns(
            pl.col("dealts", "sets", "placed", "discarded", "hidden", "shown").fill_null(0)
        )
        .with_columns(
            h=pl.col("skey") // SEAT_KEY,
            n=pl.coalesce("sets_n", "dealt_n", "first_n"),
            discards=pl.col("discarded") + pl.col("hidden"),
        )
    )
    unexpected = (
        acts.join(expected.select("akey"), on="akey", how="anti")
        .with_columns(skey=pl.col("akey") // SEC_KEY, sec=pl.col("akey") % SEC_KEY, n="first_n")
        .join(
            r.seats.select("skey", "h", who="player", in_fl=pl.col("fl_cards") > 0),
            on="skey",
            how="inner",
        )
        .join(r.hands.select("h", "variant"), on="h", how="left")
    )
    hand_n = r.hands.select("h", hand_n="n")
    where = _section_name(pl.col("sec"))
    # An opponent's Fantasyland hand is face down until showdown: no placement line.
    opponent_fl = (pl.col("sec") == 0) & (pl.col("shown") == 0)
    played = pl.col("sets") == 1
    dealt_total = pl.col("want_placed") + pl.col("want_discards")
    mismatch = (pl.col("shown") > 0) & played & (pl.col("dealt_mask") != pl.col("played_mask"))
    return pl.concat(
        [
            _v(
                unexpected,
                pl.when(pl.col("sec") == 0)
                .then(
                    pl.format(
                        "{} is not in Fantasyland but plays in the Fantasyland section", "who"
                    )
                )
                .when(pl.col("in_fl"))
                .then(pl.format("{} is in Fantasyland but plays {}", "who", where))
                .otherwise(
                    pl.format(
                        "{} plays {}, which {} does not have (docs/rules.md R2)",
                        "who",
                        where,
                        "variant",
                    )
                ),
            ),
            _v(
                exp.filter(pl.col("dealts") == 0).join(hand_n, on="h"),
                pl.format("{} is dealt nothing on {}", "player", where),
                n="hand_n",
            ),
            _v(
                exp.filter(pl.col("dealts") > 1),
                pl.format("{} is dealt twice on {}", "player", where),
            ),
            _v(
                exp.filter((pl.col("sets") == 0) & ~opponent_fl).join(hand_n, on="h"),
                pl.format("{} places nothing on {}", "player", where),
                n="hand_n",
            ),
            _v(
                exp.filter(pl.col("sets") > 1),
                pl.format("{} has two placement lines on {}", "player", where),
            ),
            _v(
                exp.filter(played & (pl.col("placed") != pl.col("want_placed"))),
                pl.format(
                    "{} places {} cards on {}; it takes {} (docs/rules.md R2)",
                    "player",
                    "placed",
                    where,
                    "want_placed",
                ),
            ),
            _v(
                exp.filter(played & (pl.col("discards") != pl.col("want_discards"))),
                pl.format(
                    "{} discards {} cards on {}; it takes {} (R2, R6)",
                    "player",
                    "discards",
                    where,
                    "want_discards",
                ),
            ),
            _v(
                exp.filter((pl.col("dealts") == 1) & (pl.col("dealt_count") != dealt_total)),
                pl.format(
                    "{} is dealt {} cards on {}; it deals {} (R2, R6)",
                    "player",
                    "dealt_count",
                    where,
                    dealt_total,
                ),
            ),
            _v(
                exp.filter(
                    (pl.col("sec") == 0)
                    & (pl.col("dealts") == 1)
                    & (pl.col("dealt_count") != pl.col("fl_cards"))
                ),
                pl.format(
                    "{} is dealt {} Fantasyland cards but the seat line says {}",
                    "player",
                    "dealt_count",
                    "fl_cards",
                ),
            ),
            _dealt_cards(r, exp.filter(mismatch).select("akey")),
        ]
    )


def _dealt_cards(r: Resolved, failing: pl.DataFrame) -> pl.DataFrame:
    """Name the cards the hero was dealt but did not play, or played but was not dealt."""
    cards = r.cards.join(failing, on="akey", how="semi").join(
        r.seats.select("skey", "player"), on="skey"
    )
    dealt = cards.filter(pl.col("row") == ex.DEALT)
    played = cards.filter(pl.col("row") < ex.DEALT)
    where = _section_name(pl.col("sec"))
    return pl.concat(
        [
            _v(
                dealt.join(played, on=["akey", "mask"], how="anti"),
                pl.format(
                    "{} is dealt {} on {} but neither places nor discards it",
                    "player",
                    "card",
                    where,
                ),
            ),
            _v(
                played.join(dealt, on=["akey", "mask"], how="anti"),
                pl.format(
                    "{} places or discards {} on {} without being dealt it", "player", "card", where
                ),
            ),
        ]
    )


def _showdown(x: Extracted, r: Resolved) -> pl.DataFrame:
    """One showdown line per player, rows of 3, 5 and 5 cards."""
    shows = r.shows
    seats = r.seats.join(shows.select("skey").unique(), on="skey", how="anti").join(
        x.hands.select("h", "last"), on="h", how="left"
    )
    sizes = [
        _v(
            shows.filter(pl.col(row).list.len() != size),
            pl.format(
                "{}'s {} row shows {} cards; it holds {} (docs/rules.md R1)",
                "player",
                pl.lit(row),
                pl.col(row).list.len(),
                pl.lit(size),
            ),
            rank=1,
        )
        for row, size in ROW_SIZES.items()
    ]
    return pl.concat(
        [
            _v(seats, pl.format("{} has no showdown line", "player"), n="last"),
            _v(
                shows.filter(pl.col("n") > pl.col("n").min().over("skey")),
                pl.format("{} shows down twice", "player"),
            ),
            *sizes,
        ]
    )


def _agreement(r: Resolved) -> pl.DataFrame:
    """Each player's placed cards are the cards their showdown rows hold, row by row.

    Rows are compared by the sums of their card bits and their sizes; only
    rows that differ are searched for the card to name.
    """
    key = (pl.col("skey") * 4 + pl.col("row")).alias("rkey")
    placed = r.cards.filter(pl.col("row") < ex.DISCARD).with_columns(key)
    # Fantasyland hands seen only at showdown were placed nowhere in the file.
    unseen = r.seats.filter(pl.col("fl_cards") > 0).join(
        r.acts.filter((pl.col("kind") == ex.SETS_LINE) & (pl.col("sec") == 0)),
        on="skey",
        how="anti",
    )
    shown = r.show_cards.join(unseen.select("skey"), on="skey", how="anti").with_columns(key)

    def sums(frame: pl.DataFrame, name: str) -> pl.DataFrame:
        return grouped(frame, "rkey", pl.col("mask").sum().alias(name), pl.len().alias(f"{name}_n"))

    differ = (pl.col("p") != pl.col("s")) | (pl.col("p_n") != pl.col("s_n"))
    failing = (
        sums(placed, "p")
        .join(sums(shown, "s"), on="rkey", how="full", coalesce=True)
        .filter(differ.fill_null(True))
        .select("rkey")
    )
    if failing.height == 0:
        return _v(failing.with_columns(h=pl.lit(0), n=pl.lit(0)), "")
    names = r.seats.select("skey", "player")
    placed = placed.join(failing, on="rkey", how="semi").join(names, on="skey")
    shown = shown.join(failing, on="rkey", how="semi").join(names, on="skey")
    row = pl.col("row").replace_strict(ex.ROW_NAMES, return_dtype=pl.String)
    return pl.concat(
        [
            _v(
                shown.join(placed, on=["rkey", "mask"], how="anti"),
                pl.format(
                    "{} shows {} in the {} row but never placed it there", "player", "card", row
                ),
            ),
            _v(
                placed.join(shown, on=["rkey", "mask"], how="anti"),
                pl.format(
                    "{} placed {} in the {} row but the showdown does not show it there",
                    "player",
                    "card",
                    row,
                ),
            ),
            _v(
                placed.filter(pl.len().over("rkey", "mask") > 1).filter(
                    pl.col("n") > pl.col("n").min().over("rkey", "mask")
                ),
                pl.format("{} places {} twice", "player", "card"),
            ),
        ]
    )


def _duplicates(r: Resolved) -> pl.DataFrame:
    """No card twice in a hand: the shown rows of every player and the shown discards.

    A hand's card bits sum to a number with as many set bits as cards
    exactly when no card repeats (a repeat carries); only such hands are
    searched for the card.
    """
    cards = pl.concat(
        [
            r.show_cards.select("h", "n", "mask", "card"),
            r.cards.filter(pl.col("row") == ex.DISCARD).select("h", "n", "mask", "card"),
        ]
    )
    totals = grouped(cards, "h", total=pl.col("mask").sum(), count=pl.len())
    failing = totals.filter(pl.col("total").bitwise_count_ones() != pl.col("count")).select("h")
    twice = cards.join(failing, on="h", how="semi")
    twice = twice.with_columns(first=pl.col("n").min().over("h", "mask")).filter(
        pl.col("n") > pl.col("first")
    )
    return _v(
        twice, pl.format("card {} appears twice in the hand (first on line {})", "card", "first")
    )


def _summaries(x: Extracted, r: Resolved) -> pl.DataFrame:
    seats = r.seats.join(r.summaries.select("skey").unique(), on="skey", how="anti").join(
        x.hands.select("h", "last"), on="h", how="left"
    )
    twice = r.summaries.filter(pl.col("n") > pl.col("n").min().over("skey"))
    return pl.concat(
        [
            _v(seats, pl.format("{} has no summary line", "player"), n="last"),
            _v(twice, pl.format("{} has two summary lines", "player")),
            _v(cut_summaries(r.summaries, r.hands), CUT_SUMMARY, rank=1),
            _v(other_currencies(r.summaries, r.hands), OTHER_CURRENCY, rank=1),
        ]
    )


CUT_SUMMARY = pl.format(
    "summary line cut short: {}'s line ends before ' = <money> <currency>', which every"
    " summary line of a hand played for money has",
    "player",
)


OTHER_CURRENCY = pl.format(
    "summary line cut short or damaged: {}'s money is not in the table's currency ({})",
    "player",
    "currency",
)


def other_currencies(summaries: pl.DataFrame, hands: pl.DataFrame) -> pl.DataFrame:
    """Summary lines whose money is not in the table's currency: the room pays at the
    table's stake, so such a line was cut inside its currency (``EU`` for ``EUR``) or is
    damaged. (Money at a play-money table is left to the audit.)"""
    stake = hands.filter(pl.col("currency").is_not_null()).select("h", "currency")
    paid = summaries.filter(pl.col("money").is_not_null()).join(stake, on="h")
    return paid.filter(pl.col("money_currency").ne_missing(pl.col("currency")))


def cut_summaries(summaries: pl.DataFrame, hands: pl.DataFrame) -> pl.DataFrame:
    """Summary lines cut short: without the money part at a table that plays for money.

    The spec's summary line ends with what the room paid (``= <+M|-M> <currency>``);
    at a table with a stake every line has it, so a line without it is the start of a
    line whose end is missing (a file cut, or still being written).
    """
    stake = hands.filter(pl.col("currency").is_not_null()).select("h")
    return summaries.filter(pl.col("money").is_null()).join(stake, on="h", how="semi")
