-- style_metrics: how each player plays, per variant and over all variants
-- ('all'); formulas in docs/metrics.md. bottom_aggression is the share of
-- first-street setups that leave the bottom unmade (no pair): the row that must
-- end strongest is left to cards still to come. Only hands not played in Fantasyland;
-- hands with a timed-out street (R8) are left out of the final-row figures, and
-- street-level features are NULL where their street was placed automatically.
-- The metrics of pipeline/load/metrics/definitions.py come from player_figures
-- (pm, the figures of player_metrics), with their Wilson intervals (name_low, name_high).
-- The table's query (made or refreshed by pipeline/load/metrics/refresh.py): a source in
-- braces is the stored table, or the rows of it that an import's refresh reads.

WITH counts AS (
    SELECT
        player,
        CASE WHEN grouping(variant) = 1 THEN 'all' ELSE variant END AS variant,
        count(*) FILTER (WHERE NOT timed_out) AS style_hands,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul) AS live_hands,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'high card') AS b_high,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'pair') AS b_pair,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'two pair') AS b_2pair,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'trips') AS b_trips,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'straight') AS b_str,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'flush') AS b_flush,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'full house') AS b_fh,
        count(*) FILTER (WHERE NOT timed_out AND NOT foul AND category_bottom = 'quads') AS b_quads,
        count(*) FILTER (
            WHERE NOT timed_out AND NOT foul AND category_bottom = 'straight flush'
        ) AS b_sf,
        count(first_street_bottom) AS first_street_hands,
        count(*) FILTER (WHERE first_street_bottom = 'flush_draw') AS fs_flush,
        count(*) FILTER (WHERE first_street_bottom = 'straight_draw') AS fs_straight,
        count(*) FILTER (WHERE first_street_bottom = 'pair_or_better') AS fs_pair,
        count(*) FILTER (WHERE first_street_bottom = 'high_cards') AS fs_high,
        count(top_qq_plus_by_street2) AS street2_hands,
        count(*) FILTER (
            WHERE NOT timed_out AND first_street_bottom IN ('flush_draw', 'straight_draw')
        ) AS drawing_hands
    FROM {player_hands}
    WHERE NOT in_fantasyland
    GROUP BY GROUPING SETS ((player, variant), (player))
)
SELECT
    player,
    variant,
    style_hands,
    live_hands,
    b_high / nullif(live_hands, 0) AS bottom_high_card_share,
    b_pair / nullif(live_hands, 0) AS bottom_pair_share,
    b_2pair / nullif(live_hands, 0) AS bottom_two_pair_share,
    b_trips / nullif(live_hands, 0) AS bottom_trips_share,
    b_str / nullif(live_hands, 0) AS bottom_straight_share,
    b_flush / nullif(live_hands, 0) AS bottom_flush_share,
    b_fh / nullif(live_hands, 0) AS bottom_full_house_share,
    b_quads / nullif(live_hands, 0) AS bottom_quads_share,
    b_sf / nullif(live_hands, 0) AS bottom_straight_flush_share,
    first_street_hands,
    fs_flush / nullif(first_street_hands, 0) AS first_street_flush_draw_share,
    fs_straight / nullif(first_street_hands, 0) AS first_street_straight_draw_share,
    fs_pair / nullif(first_street_hands, 0) AS first_street_pair_share,
    fs_high / nullif(first_street_hands, 0) AS first_street_high_cards_share,
    pm.bottom_aggression AS bottom_aggression,
    pm.bottom_aggression_low AS bottom_aggression_ci_low,
    pm.bottom_aggression_high AS bottom_aggression_ci_high,
    street2_hands,
    pm.top_qq_plus_by_street2_share AS top_qq_plus_by_street2_share,
    pm.style_foul_rate AS foul_rate,
    pm.style_foul_rate_low AS foul_rate_ci_low,
    pm.style_foul_rate_high AS foul_rate_ci_high,
    drawing_hands,
    pm.foul_rate_drawing AS foul_rate_drawing
FROM counts
JOIN player_figures AS pm USING (player, variant)
ORDER BY player, variant;
