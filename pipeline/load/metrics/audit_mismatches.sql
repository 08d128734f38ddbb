-- audit_mismatches: every player-hand whose room-reported figures disagree with
-- the recomputed ones (docs/schema.md, docs/metrics.md "Audit"). Figures the
-- room did not report (NULL) are not compared; money differences up to half a
-- cent are rounding.
-- The table's query (made or refreshed by pipeline/load/metrics/refresh.py): a source in
-- braces is the stored table, or the rows of it that an import's refresh reads.
WITH compared AS (
    SELECT
        ph.*,
        h.room_hand_id,
        h.source_file,
        h.source_line,
        coalesce(abs(ph.reported_points - ph.points) > 1e-6, false) AS d_points,
        coalesce(abs(ph.reported_royalties - ph.royalties) > 1e-6, false) AS d_royalties,
        coalesce(ph.reported_foul <> ph.foul, false) AS d_foul,
        coalesce(abs(ph.reported_money - ph.money) > 0.005 + 1e-9, false) AS d_money,
        coalesce(ph.reported_fantasyland_next <> ph.fantasyland_next, false) AS d_fl_next,
        coalesce(ph.reported_fantasyland_cards <> ph.fantasyland_next_cards, false) AS d_fl_cards,
        coalesce(ph.reported_fantasyland_stay <> ph.fantasyland_stay, false) AS d_fl_stay
    FROM {player_hands} AS ph
    JOIN hands AS h USING (hand_id)
)
SELECT
    hand_id,
    room_hand_id,
    played_at,
    ruleset,
    source_file,
    source_line,
    seat,
    player,
    concat_ws(
        ',',
        CASE WHEN d_points THEN 'points' END,
        CASE WHEN d_royalties THEN 'royalties' END,
        CASE WHEN d_foul THEN 'foul' END,
        CASE WHEN d_money THEN 'money' END,
        CASE WHEN d_fl_next THEN 'fantasyland_next' END,
        CASE WHEN d_fl_cards THEN 'fantasyland_cards' END,
        CASE WHEN d_fl_stay THEN 'fantasyland_stay' END
    ) AS disagreements,
    reported_points,
    points,
    reported_points - points AS points_difference,
    reported_royalties,
    royalties,
    reported_foul,
    foul,
    reported_money,
    money,
    reported_fantasyland_next,
    fantasyland_next,
    reported_fantasyland_cards,
    fantasyland_next_cards,
    reported_fantasyland_stay,
    fantasyland_stay
FROM compared
WHERE d_points OR d_royalties OR d_foul OR d_money OR d_fl_next OR d_fl_cards OR d_fl_stay
ORDER BY played_at, hand_id, seat;
