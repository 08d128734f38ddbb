"""A large ``ofc import``-shaped database for the dashboard benchmark, built column-wise.

Importing a million simulated hands takes long, and the benchmark measures
the dashboard's queries, not the import; so this module writes the tables of
``docs/schema.md`` directly: random 3-handed hands (four in five Pineapple,
the rest classic), scored by the rules engine (``score_hands``), with every
placement street by street, each player-hand's settlement counts as the import
counts them (``with_settlements``), then the metric tables rebuilt by the import's
own SQL (``pipeline.load.metrics.refresh.rebuild``). One player ("Hero")
sits in every hand, as in a player's own database; opponents come from a
pool where a few play most hands.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import polars as pl

from ofc_core.cards import CARD_NAMES
from ofc_core.rulesets import load_ruleset
from pipeline.load.database import connect
from pipeline.load.metrics.refresh import rebuild
from pipeline.load.recompute import with_settlements
from pipeline.rules.engine import score_hands

HERO = "Hero"
OPPONENTS = 400
PLAYERS = 3
CARDS = 17  # 13 placed + 4 Pineapple discards
CHUNK = 50_000
START = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
SECONDS_PER_HAND = 45
RULESETS = {"pineapple": "pineapple-1-6-american", "classic": "classic-1-6-american"}
STAKES = ((None, None), (0.1, "USD"), (0.25, "USD"), (1.0, "EUR"))

# Slots of a player's 17 cards: top 0-2, middle 3-7, bottom 8-12, discards 13-16.
ROW_OF_SLOT = np.array(["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5 + ["discard"] * 4)
#: Street of each slot when not in Fantasyland (Pineapple: 5 cards, then 2 placed + 1 discarded).
PINEAPPLE_STREETS = np.array([1, 4, 5, 1, 1, 2, 3, 5, 1, 1, 2, 3, 4, 2, 3, 4, 5])
#: Classic: 5 cards, then one card a street; no discards (slots 13-16 unused).
CLASSIC_STREETS = np.array([1, 8, 9, 1, 1, 2, 4, 6, 1, 1, 3, 5, 7, 0, 0, 0, 0])
NAMES = pl.Series("card", CARD_NAMES, dtype=pl.String)


def _opponent_names() -> list[str]:
    return [f"Player {i:03d}" for i in range(OPPONENTS)]


def _cards(rng: np.random.Generator, hands: int) -> np.ndarray:
    """``(hands * 3, 17)`` card codes; most players' 13 kept cards sorted low to high
    (top lowest, bottom highest), so most hands are live, as real ones are."""
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int16), (hands, 1)), axis=1)
    cards = decks[:, : PLAYERS * CARDS].reshape(hands * PLAYERS, CARDS)
    tidy = rng.random(hands * PLAYERS) < 0.8
    cards[tidy, :13] = np.sort(cards[tidy, :13], axis=1)
    return cards


def _rows(cards: np.ndarray) -> dict[str, pl.Series]:
    spans = {"top": (0, 3), "middle": (3, 8), "bottom": (8, 13), "discards": (13, 17)}
    return {
        row: NAMES.gather(cards[:, a:b].ravel())
        .reshape((len(cards), b - a))
        .cast(pl.List(pl.String))
        for row, (a, b) in spans.items()
    }


def _first_street_bottom(cards: np.ndarray) -> np.ndarray:
    """The street-1 bottom setup of slots 8 and 9 (docs/metrics.md, simplified)."""
    first, second = cards[:, 8].astype(np.int64), cards[:, 9].astype(np.int64)
    pair = first // 4 == second // 4
    suited = first % 4 == second % 4
    connected = np.abs(first // 4 - second // 4) <= 4
    return np.select(
        [pair, suited, connected],
        ["pair_or_better", "flush_draw", "straight_draw"],
        "high_cards",
    )


def _chunk(
    rng: np.random.Generator, first: int, hands: int, names: list[str]
) -> dict[str, pl.DataFrame]:
    """Every table's rows for hands ``first .. first + hands - 1``."""
    n = hands * PLAYERS
    number = np.arange(first, first + hands)
    hand_ids = pl.Series(np.char.add("jsonl:", number.astype(str)))
    variant = np.where(rng.random(hands) < 0.8, "pineapple", "classic")
    stake = rng.integers(0, len(STAKES), hands)
    start_us = int(START.timestamp() * 1_000_000)
    played_at = pl.Series(start_us + number * SECONDS_PER_HAND * 1_000_000).cast(
        pl.Datetime("us", "UTC")
    )
    hands_frame = pl.DataFrame(
        {
            "hand_id": hand_ids,
            "room_hand_id": pl.Series(number.astype(str)),
            "source_format": "jsonl",
            "variant": variant,
            "ruleset": pl.Series(variant).replace_strict(RULESETS),
            "played_at": played_at,
            "table_name": np.char.add("Table ", (number % 97).astype(str)),
            "max_players": np.full(hands, PLAYERS, np.int8),
            "button_seat": np.full(hands, PLAYERS, np.int8),
            "point_value": pl.Series(stake).replace_strict(
                {i: value for i, (value, _) in enumerate(STAKES)}, return_dtype=pl.Float64
            ),
            "currency": pl.Series(stake).replace_strict(
                {i: currency for i, (_, currency) in enumerate(STAKES)}, return_dtype=pl.String
            ),
            "fantasyland_continuation": np.zeros(hands, bool),
            "source_file": "bench.jsonl",
            "source_line": number.astype(np.int64) + 1,
            "fingerprint": hand_ids,
            "import_id": np.ones(hands, np.int32),
        }
    )
    hero_seat = rng.integers(0, PLAYERS, hands)
    weights = 1.0 / np.arange(1, len(names) + 1) ** 0.8
    others = rng.choice(len(names), size=(hands, PLAYERS), p=weights / weights.sum())
    seat_player = np.array(names, dtype=object)[others]
    seat_player[np.arange(hands), hero_seat] = HERO
    cards = _cards(rng, hands)
    in_fl = rng.random(n) < 0.07
    timed_out = rng.random(n) < 0.01
    each = np.repeat(np.arange(hands), PLAYERS)
    players = pl.DataFrame(
        {
            "hand_id": hand_ids.gather(each),
            "seat": np.tile(np.arange(1, PLAYERS + 1, dtype=np.int8), hands),
            "player": seat_player.ravel(),
            "position": np.tile(np.arange(1, PLAYERS + 1, dtype=np.int8), hands),
            "starting_stack": np.full(n, 1000.0),
            "in_fantasyland": in_fl,
            "variant": variant[each],
            **_rows(cards),
        }
    ).with_row_index("row")
    scored = []
    pairs = []
    for name, ruleset in RULESETS.items():
        part = players.filter(pl.col("variant") == name)
        result = score_hands(part, load_ruleset(ruleset))
        scored.append(pl.concat([part, result.player_hands], how="horizontal"))
        pairs.append(result.pairwise)
    scored_frame = pl.concat(scored).sort("row").drop("row")
    return _finish(rng, hands_frame, scored_frame, pl.concat(pairs), cards, in_fl, timed_out)


def _finish(
    rng: np.random.Generator,
    hands_frame: pl.DataFrame,
    scored: pl.DataFrame,
    pairwise: pl.DataFrame,
    cards: np.ndarray,
    in_fl: np.ndarray,
    timed_out: np.ndarray,
) -> dict[str, pl.DataFrame]:
    """The ``player_hands``, ``pairwise`` and ``placements`` rows of scored player-hands."""
    context = hands_frame.select(
        "hand_id", "played_at", "ruleset", "point_value", "currency", "table_name"
    )
    n = scored.height
    mismatch = rng.random(n) < 0.005
    no_street = pl.Series(in_fl | timed_out)
    first_street = pl.when(no_street).then(None).otherwise(pl.Series(_first_street_bottom(cards)))
    is_classic = (scored["variant"] == "classic").to_numpy()
    player_hands = (
        scored.join(context, on="hand_id", how="left", maintain_order="left")
        .with_columns(
            fantasyland_cards=pl.when("in_fantasyland")
            .then(pl.when(pl.col("variant") == "classic").then(13).otherwise(14))
            .otherwise(0)
            .cast(pl.Int8),
            discards=pl.when(pl.col("variant") == "classic")
            .then(pl.lit([], pl.List(pl.String)))
            .otherwise("discards"),
            hidden_discards=pl.lit(0, pl.Int8),
            timed_out=pl.Series(timed_out),
            fantasyland_repeats=pl.lit(0, pl.Int16),
            money=pl.col("points") * pl.col("point_value"),
            mismatch=pl.Series(mismatch),
            first_street_bottom=first_street,
            top_qq_plus_by_street2=pl.when(pl.Series(in_fl | timed_out))
            .then(None)
            .otherwise(pl.Series(rng.random(n) < 0.05)),
        )
        .with_columns(
            reported_points=pl.col("points") + pl.when(pl.col("mismatch")).then(1.0).otherwise(0.0),
            reported_royalties=pl.col("royalties").cast(pl.Float64),
            reported_foul="foul",
            reported_money=pl.col("money"),
            reported_fantasyland_next="fantasyland_next",
            reported_fantasyland_cards=pl.col("fantasyland_next_cards").cast(pl.Int8),
            reported_fantasyland_stay="fantasyland_stay",
            category_top=pl.col("category_top").cast(pl.String),
            category_middle=pl.col("category_middle").cast(pl.String),
            category_bottom=pl.col("category_bottom").cast(pl.String),
        )
    )
    names = scored.select("hand_id", "position", "player")
    pairwise = (
        pairwise.join(
            names.rename({"position": "position_a", "player": "player_a"}),
            on=["hand_id", "position_a"],
        )
        .join(
            names.rename({"position": "position_b", "player": "player_b"}),
            on=["hand_id", "position_b"],
        )
        .sort("hand_id", "position_a", "position_b")
    )
    placements = _placements(scored, cards, in_fl, is_classic)
    return {
        "hands": hands_frame,
        "player_hands": with_settlements(player_hands, pairwise),
        "pairwise": pairwise,
        "placements": placements,
    }


def _placements(
    scored: pl.DataFrame, cards: np.ndarray, in_fl: np.ndarray, is_classic: np.ndarray
) -> pl.DataFrame:
    """One row per card placed or discarded, in the scored frame's player order."""
    streets = np.where(is_classic[:, None], CLASSIC_STREETS, PINEAPPLE_STREETS)
    streets = np.where(in_fl[:, None], 0, streets)
    used = np.ones_like(streets, dtype=bool)
    used[:, 13:] = ~is_classic[:, None]
    used[:, 14:] &= ~in_fl[:, None]  # Fantasyland in Pineapple: 14 cards, one discard
    player, slot = np.nonzero(used)
    return pl.DataFrame(
        {
            "hand_id": scored["hand_id"].gather(player),
            "seat": scored["seat"].gather(player),
            "street": streets[player, slot].astype(np.int8),
            "card": NAMES.gather(cards[player, slot]),
            "row": ROW_OF_SLOT[slot],
            "auto": np.zeros(len(player), bool),
        }
    ).sort("hand_id", "seat", "street")


def _numbered(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` with their hand's ``hand_no``: its number (in its id) plus one."""
    number = pl.col("hand_id").str.strip_prefix("jsonl:").cast(pl.Int64)
    return rows.with_columns(hand_no=number + 1)


def build(path: Path, hands: int, seed: int = 0) -> Path:
    """Write a database of ``hands`` random hands at ``path`` (replacing it)."""
    path.unlink(missing_ok=True)
    rng = np.random.default_rng(seed)
    names = _opponent_names()
    con = connect(path)
    con.execute("SET enable_progress_bar = false")
    try:
        for first in range(0, hands, CHUNK):
            tables = _chunk(rng, first, min(CHUNK, hands - first), names)
            for table, frame in tables.items():
                con.register("chunk", _numbered(frame).to_arrow())
                con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM chunk")
                con.unregister("chunk")
        now = dt.datetime.now(dt.UTC)
        con.execute(
            "INSERT INTO imports (import_id, started_at, finished_at, paths, engine, workers,"
            " files_read, files_unchanged, hands_read, hands_added, hands_duplicate,"
            " hands_conflict, rejects_added, mismatches_added, seconds)"
            " VALUES (1, ?, ?, 'bench', 'local', 1, 1, 0, ?, ?, 0, 0, 0, 0, 0)",
            [now, now, hands, hands],
        )
        rebuild(con)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return path
