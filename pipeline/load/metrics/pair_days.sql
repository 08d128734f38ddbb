-- pair_days: each player's results against each opponent met, per UTC day, variant,
-- ruleset and stake, from the player's side of their pairwise settlements (docs/schema.md):
-- head to head and the results against each opponent in views narrowed by dates, stakes
-- or a ruleset, without reading `pairwise`. Every count and sum adds up over rows.
-- The settlements are summed once, from player_a's side, and each sum is then read from
-- both sides (side.a: player_a's): reading each settlement from both sides first would
-- sum twice as many rows. The UTC day is grouped as days since 1970 (a time zone's
-- date costs more on every row).
-- The table's query (made or refreshed by pipeline/load/metrics/refresh.py): a source in
-- braces is the stored table, or the rows of it that an import's refresh reads.
WITH settled AS (
    SELECT
        w.player_a,
        w.player_b,
        fdiv(epoch_us(h.played_at), 86400000000)::INTEGER AS day,
        h.variant,
        h.ruleset,
        h.point_value,
        h.currency,
        count(*) AS hands,
        sum(w.points_a) AS points,
        sum(w.points_a * w.points_a) AS squares,
        count(*) FILTER (WHERE w.rows_a = 3) AS scoops_a,
        count(*) FILTER (WHERE w.rows_b = 3) AS scoops_b,
        sum(w.rows_a) AS rows_a,
        sum(w.rows_b) AS rows_b,
        min(h.played_at) AS first_played_at,
        max(h.played_at) AS last_played_at
    FROM pairwise AS w
    JOIN {hands} AS h USING (hand_id)
    GROUP BY ALL
)
SELECT
    CASE WHEN side.a THEN s.player_a ELSE s.player_b END AS player,
    CASE WHEN side.a THEN s.player_b ELSE s.player_a END AS opponent,
    DATE '1970-01-01' + s.day AS day,
    s.variant,
    s.ruleset,
    s.point_value,
    s.currency,
    sum(s.hands)::BIGINT AS hands,
    sum(CASE WHEN side.a THEN s.points ELSE -s.points END) AS points,
    sum(s.squares) AS squares,
    sum(CASE WHEN side.a THEN s.scoops_a ELSE s.scoops_b END)::BIGINT AS scoops,
    sum(CASE WHEN side.a THEN s.scoops_b ELSE s.scoops_a END)::BIGINT AS scooped,
    sum(CASE WHEN side.a THEN s.rows_a ELSE s.rows_b END)::BIGINT AS rows_won,
    sum(CASE WHEN side.a THEN s.rows_b ELSE s.rows_a END)::BIGINT AS rows_lost,
    min(s.first_played_at) AS first_played_at,
    max(s.last_played_at) AS last_played_at
FROM settled AS s
CROSS JOIN (VALUES (true), (false)) AS side (a)
GROUP BY ALL
ORDER BY player, day;
