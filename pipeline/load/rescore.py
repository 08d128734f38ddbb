"""Re-scoring the hands whose Fantasyland repeats change once their whole match is stored.

Workers count repeats (docs/rules.md R6), and what each player lost earlier
in a match under a loss cap (R7), within what they read; a match split
between files, parts or imports is only whole in the database, so the load
(``pipeline.load.store``) counts them again there and re-scores the hands
whose count changed, and every hand of such a match under a loss cap.
"""

from __future__ import annotations

import duckdb

from ofc_core.errors import UserError
from parsers.schema import PLAYER_HANDS
from pipeline.load.database import frame
from pipeline.load.recompute import HAND_CONTEXT, RulesetLoader, recompute
from pipeline.load.tables import PLAYER_HANDS_STAGED, conform

_MATCH_REPEATS_SQL = """
    CREATE OR REPLACE TEMP TABLE match_repeats AS
    WITH added AS (
        SELECT h.match_id, v.part FROM hands AS h JOIN verdicts AS v USING (hand_id)
        WHERE h.import_id = $import_id AND v.verdict IN ('new', 'replace')
            AND h.match_id IS NOT NULL
    ),
    affected AS (
        -- a match read whole in one part was counted right by its worker
        SELECT match_id FROM added GROUP BY match_id HAVING count(DISTINCT part) > 1
        UNION
        SELECT DISTINCT match_id FROM hands
        WHERE import_id <> $import_id AND match_id IN (SELECT match_id FROM added)
    ),
    seq AS (
        SELECT ph.hand_id, ph.seat, ph.player, ph.in_fantasyland, ph.fantasyland_repeats,
            h.match_id, h.played_at,
            sum(CASE WHEN ph.in_fantasyland THEN 0 ELSE 1 END) OVER (
                PARTITION BY ph.player, h.match_id ORDER BY h.played_at, ph.hand_id
                ROWS UNBOUNDED PRECEDING
            ) AS run
        FROM player_hands AS ph
        JOIN hands AS h USING (hand_id)
        WHERE h.match_id IN (SELECT match_id FROM affected)
    )
    SELECT hand_id, seat, fantasyland_repeats AS used,
        CASE WHEN in_fantasyland THEN coalesce(sum(in_fantasyland::INTEGER) OVER (
            PARTITION BY player, match_id, run ORDER BY played_at, hand_id
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ), 0) ELSE 0 END::SMALLINT AS repeats
    FROM seq
"""


def _loss_capped_rulesets(con: duckdb.DuckDBPyConnection, load: RulesetLoader) -> list[str]:
    """Rulesets of the matches in ``match_repeats`` that cap losses per match (R7)."""
    names = con.execute(
        "SELECT DISTINCT ruleset FROM hands SEMI JOIN match_repeats USING (hand_id)"
    ).fetchall()
    capped = []
    for (name,) in names:
        try:
            if load(name).match_loss_cap is not None:
                capped.append(name)
        except UserError:
            continue
    return capped


def rescore_matches(con: duckdb.DuckDBPyConnection, import_id: int, load: RulesetLoader) -> int:
    """Re-score hands whose Fantasyland repeats change once their whole match is known.

    Under a loss cap per match (R7) every hand of such a match is re-scored, in
    match order, as what each player lost earlier in the match counts.
    """
    con.execute(_MATCH_REPEATS_SQL, {"import_id": import_id})
    con.execute(
        "CREATE OR REPLACE TEMP TABLE stale_hands AS "
        "SELECT DISTINCT hand_id FROM match_repeats WHERE repeats <> used"
    )
    capped = _loss_capped_rulesets(con, load)
    if capped:  # what each player lost earlier in the match changes too (R7)
        con.execute(
            "INSERT INTO stale_hands SELECT DISTINCT hand_id FROM match_repeats "
            "JOIN hands USING (hand_id) WHERE list_contains($capped, hands.ruleset) "
            "AND hand_id NOT IN (SELECT hand_id FROM stale_hands)",
            {"capped": capped},
        )
    stale = con.execute("SELECT count(*) FROM stale_hands").fetchall()[0][0]
    if stale == 0:
        return 0
    model = ", ".join(f"ph.{name}" for name in PLAYER_HANDS.names)
    players = frame(
        con,
        f"SELECT {model}, mr.repeats AS fantasyland_repeats FROM player_hands AS ph "
        "JOIN match_repeats AS mr USING (hand_id, seat) SEMI JOIN stale_hands USING (hand_id)",
    )
    hands = frame(
        con,
        f"SELECT {', '.join(HAND_CONTEXT)} FROM hands SEMI JOIN stale_hands USING (hand_id)",
    )
    result = recompute(hands, players, load)
    kept = frame(  # what the engine does not recompute: the street features, the number
        con,
        "SELECT hand_id, seat, first_street_bottom, top_qq_plus_by_street2, hand_no "
        "FROM player_hands SEMI JOIN stale_hands USING (hand_id)",
    )
    rows = conform(
        result.player_hands.join(kept, on=["hand_id", "seat"], how="left"),
        {k: v for k, v in PLAYER_HANDS_STAGED.items() if k != "part"},
    )
    con.register("rescored_rows", rows)
    numbers = kept.select("hand_id", "hand_no").unique("hand_id")
    con.register("rescored_pairs", result.pairwise.join(numbers, on="hand_id"))
    rescored = "(SELECT DISTINCT hand_id FROM rescored_rows)"
    con.execute(f"DELETE FROM player_hands WHERE hand_id IN {rescored}")
    con.execute(f"DELETE FROM pairwise WHERE hand_id IN {rescored}")
    con.execute("INSERT INTO player_hands BY NAME SELECT * FROM rescored_rows")
    con.execute("INSERT INTO pairwise BY NAME SELECT * FROM rescored_pairs")
    con.unregister("rescored_rows")
    con.unregister("rescored_pairs")
    return stale
