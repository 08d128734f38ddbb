-- pair_days: each player's results against each opponent met, per UTC day, variant,
-- ruleset and stake, from the player's side of their pairwise settlements (docs/schema.md):
-- head to head and the results against each opponent in views narrowed by dates, stakes
-- or a ruleset, without reading `pairwise`. Every column adds up over rows.
CREATE OR REPLACE TABLE pair_days AS
WITH sides AS (
    SELECT hand_id, player_a AS player, player_b AS opponent, points_a AS points,
        rows_a AS rows_won, rows_b AS rows_lost
    FROM pairwise
    UNION ALL
    SELECT hand_id, player_b, player_a, -points_a, rows_b, rows_a
    FROM pairwise
)
SELECT
    s.player,
    s.opponent,
    timezone('UTC', h.played_at)::DATE AS day,
    h.variant,
    h.ruleset,
    h.point_value,
    h.currency,
    count(*) AS hands,
    sum(s.points) AS points,
    sum(s.points * s.points) AS squares,
    count(*) FILTER (WHERE s.rows_won = 3) AS scoops,
    count(*) FILTER (WHERE s.rows_lost = 3) AS scooped,
    sum(s.rows_won)::BIGINT AS rows_won,
    sum(s.rows_lost)::BIGINT AS rows_lost,
    min(h.played_at) AS first_played_at,
    max(h.played_at) AS last_played_at
FROM sides AS s
JOIN hands AS h USING (hand_id)
GROUP BY ALL
ORDER BY s.player, day;
