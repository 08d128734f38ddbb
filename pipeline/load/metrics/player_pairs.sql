-- player_pairs: each player's results against each opponent met, per variant and over
-- all variants (variant = 'all'), summed from pair_days (docs/schema.md): head to head
-- and the results against each opponent over all dates and stakes.
-- The table's query (made by pipeline/load/metrics/refresh.py).
SELECT
    player,
    opponent,
    CASE WHEN grouping(variant) = 1 THEN 'all' ELSE variant END AS variant,
    sum(hands)::BIGINT AS hands,
    sum(points) AS points,
    sum(squares) AS squares,
    sum(scoops)::BIGINT AS scoops,
    sum(scooped)::BIGINT AS scooped,
    sum(rows_won)::BIGINT AS rows_won,
    sum(rows_lost)::BIGINT AS rows_lost,
    min(first_played_at) AS first_played_at,
    max(last_played_at) AS last_played_at
FROM pair_days
GROUP BY GROUPING SETS ((player, opponent, variant), (player, opponent))
