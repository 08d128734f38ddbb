-- player_summary: results per player, per variant and over all variants
-- ('all'); formulas in docs/metrics.md. Needs audit_mismatches and player_figures
-- (pm) first: every rate and mean is the one definition of
-- pipeline/load/metrics/definitions.py, computed from player_metrics.
-- The table's query (made or refreshed by pipeline/load/metrics/refresh.py): a source in
-- braces is the stored table, or the rows of it that an import's refresh reads.
WITH hand_stats AS (
    SELECT
        player,
        CASE WHEN grouping(variant) = 1 THEN 'all' ELSE variant END AS variant,
        count(*) AS hands,
        min(played_at) AS first_played_at,
        max(played_at) AS last_played_at,
        sum(points) AS points,
        stddev_samp(points) AS points_per_hand_sd,
        CASE WHEN count(DISTINCT currency) = 1 THEN sum(money) END AS money,
        string_agg(DISTINCT currency, ',' ORDER BY currency) AS currencies,
        count(*) FILTER (WHERE foul) AS fouls,
        avg(royalties_top) AS royalties_top_per_hand,
        avg(royalties_middle) AS royalties_middle_per_hand,
        avg(royalties_bottom) AS royalties_bottom_per_hand,
        count(*) FILTER (WHERE NOT foul AND NOT in_fantasyland) AS live_non_fantasyland_hands,
        count(*) FILTER (
            WHERE NOT foul AND NOT in_fantasyland AND fantasyland_next
        ) AS fantasyland_entries,
        count(*) FILTER (WHERE in_fantasyland) AS fantasyland_hands,
        count(*) FILTER (WHERE in_fantasyland AND fantasyland_stay) AS fantasyland_stays,
        -- the player-hands' pairwise settlements, counted at import (docs/schema.md)
        sum(pairings)::BIGINT AS pairings,
        sum(scoops)::BIGINT AS scoops,
        sum(rows_won)::BIGINT AS rows_won
    FROM {player_hands}
    GROUP BY GROUPING SETS ((player, variant), (player))
),
mismatch_stats AS (
    SELECT
        a.player,
        CASE WHEN grouping(h.variant) = 1 THEN 'all' ELSE h.variant END AS variant,
        count(*) AS mismatches
    FROM {audit_mismatches} AS a
    JOIN hands AS h USING (hand_id)
    GROUP BY GROUPING SETS ((a.player, h.variant), (a.player))
)
SELECT
    hs.player,
    hs.variant,
    hs.hands,
    hs.first_played_at,
    hs.last_played_at,
    hs.points,
    pm.points_per_hand AS points_per_hand,
    hs.points_per_hand_sd,
    pm.points_per_hand_low AS points_per_hand_ci_low,
    pm.points_per_hand_high AS points_per_hand_ci_high,
    hs.money,
    hs.currencies,
    hs.fouls,
    pm.foul_rate AS foul_rate,
    hs.pairings,
    hs.scoops,
    pm.scoop_rate AS scoop_rate,
    pm.rows_won_per_row AS rows_won_per_row,
    pm.royalties_per_hand AS royalties_per_hand,
    hs.royalties_top_per_hand,
    hs.royalties_middle_per_hand,
    hs.royalties_bottom_per_hand,
    hs.live_non_fantasyland_hands,
    hs.fantasyland_entries,
    pm.fantasyland_entry_rate AS fantasyland_entry_rate,
    hs.fantasyland_hands,
    hs.fantasyland_stays,
    pm.fantasyland_stay_rate AS fantasyland_stay_rate,
    pm.fantasyland_share AS fantasyland_share,
    pm.points_per_fantasyland_hand AS points_per_fantasyland_hand,
    coalesce(ms.mismatches, 0) AS mismatches
FROM hand_stats AS hs
JOIN player_figures AS pm USING (player, variant)
LEFT JOIN mismatch_stats AS ms USING (player, variant)
ORDER BY hs.player, hs.variant;
