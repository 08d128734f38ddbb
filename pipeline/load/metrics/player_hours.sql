-- player_hours: each player's hands, points and money per UTC hour, variant, ruleset and
-- stake (docs/schema.md): the dashboard draws a large view's cumulative lines from the
-- running totals at the end of each hour. The hour is grouped as hours since 1970 (a
-- time zone's truncation costs more on every row).
-- The table's query (made or refreshed by pipeline/load/metrics/refresh.py): a source in
-- braces is the stored table, or the rows of it that an import's refresh reads.
WITH grouped AS (
    SELECT
        player,
        fdiv(epoch_us(played_at), 3600000000)::BIGINT AS hour,
        variant,
        ruleset,
        point_value,
        currency,
        count(*) AS hands,
        sum(points) AS points,
        count(money) AS money_hands,
        sum(money) AS money,
        max(played_at) AS last_played_at
    FROM {player_hands}
    GROUP BY ALL
)
SELECT * REPLACE (to_timestamp(hour * 3600) AS hour) FROM grouped
ORDER BY player, hour;
