-- pair_days: each player's results against each opponent met, per UTC day, variant,
-- ruleset and stake, from the player's side of their pairwise settlements (docs/schema.md):
-- head to head and the results against each opponent in views narrowed by dates, stakes
-- or a ruleset, without reading `pairwise`. Every count and sum adds up over rows.
-- The settlements are summed once, from player_a's side, and then mirrored: reading
-- each settlement from both sides first would sum twice as many rows. The UTC day is
-- grouped as days since 1970 (a time zone's date costs more on every row).
CREATE OR REPLACE TABLE pair_days AS
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
    JOIN hands AS h USING (hand_id)
    GROUP BY ALL
),
sides AS (
    SELECT player_a AS player, player_b AS opponent, day, variant, ruleset, point_value,
        currency, hands, points, squares, scoops_a AS scoops, scoops_b AS scooped,
        rows_a AS rows_won, rows_b AS rows_lost, first_played_at, last_played_at
    FROM settled
    UNION ALL
    SELECT player_b, player_a, day, variant, ruleset, point_value, currency, hands, -points,
        squares, scoops_b, scoops_a, rows_b, rows_a, first_played_at, last_played_at
    FROM settled
)
SELECT
    player,
    opponent,
    DATE '1970-01-01' + day AS day,
    variant,
    ruleset,
    point_value,
    currency,
    sum(hands)::BIGINT AS hands,
    sum(points) AS points,
    sum(squares) AS squares,
    sum(scoops)::BIGINT AS scoops,
    sum(scooped)::BIGINT AS scooped,
    sum(rows_won)::BIGINT AS rows_won,
    sum(rows_lost)::BIGINT AS rows_lost,
    min(first_played_at) AS first_played_at,
    max(last_played_at) AS last_played_at
FROM sides
GROUP BY ALL
ORDER BY player, day;
