-- The stored tables of an `ofc import` database (docs/schema.md, "DuckDB database").
-- Names and columns are a public contract. The metric tables (player_summary,
-- style_metrics, audit_mismatches) are rebuilt by metrics/*.sql after every import.
-- hand_no: a hand's number, the same on all its rows in hands, player_hands, placements
-- and pairwise, given in the order hands are inserted (a lookup by it skips row groups).

CREATE TABLE IF NOT EXISTS meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR
);

CREATE TABLE IF NOT EXISTS imports (
    import_id INTEGER PRIMARY KEY,
    started_at TIMESTAMPTZ,
    finished_at TIMESTAMPTZ,
    paths VARCHAR,
    ruleset_override VARCHAR,
    engine VARCHAR,
    workers INTEGER,
    files_read INTEGER,
    files_unchanged INTEGER,
    hands_read BIGINT,
    hands_added BIGINT,
    hands_duplicate BIGINT,
    hands_conflict BIGINT,
    rejects_added BIGINT,
    mismatches_added BIGINT,
    seconds DOUBLE
);

CREATE TABLE IF NOT EXISTS hands (
    hand_id VARCHAR,
    room_hand_id VARCHAR,
    source_format VARCHAR,
    variant VARCHAR,
    ruleset VARCHAR,
    played_at TIMESTAMPTZ,
    table_name VARCHAR,
    max_players TINYINT,
    button_seat TINYINT,
    point_value DOUBLE,
    currency VARCHAR,
    match_id VARCHAR,
    match_hand SMALLINT,
    match_hands SMALLINT,
    fantasyland_continuation BOOLEAN,
    source_file VARCHAR,
    source_line BIGINT,
    fingerprint VARCHAR,
    import_id INTEGER,
    hand_no BIGINT
);

CREATE TABLE IF NOT EXISTS player_hands (
    hand_id VARCHAR,
    seat TINYINT,
    player VARCHAR,
    position TINYINT,
    starting_stack DOUBLE,
    in_fantasyland BOOLEAN,
    fantasyland_cards TINYINT,
    top VARCHAR[],
    middle VARCHAR[],
    bottom VARCHAR[],
    discards VARCHAR[],
    hidden_discards TINYINT,
    timed_out BOOLEAN,
    reported_points DOUBLE,
    reported_royalties DOUBLE,
    reported_foul BOOLEAN,
    reported_money DOUBLE,
    reported_fantasyland_next BOOLEAN,
    reported_fantasyland_cards TINYINT,
    reported_fantasyland_stay BOOLEAN,
    played_at TIMESTAMPTZ,
    variant VARCHAR,
    ruleset VARCHAR,
    point_value DOUBLE,
    currency VARCHAR,
    table_name VARCHAR,
    fantasyland_repeats SMALLINT,
    foul BOOLEAN,
    category_top VARCHAR,
    category_middle VARCHAR,
    category_bottom VARCHAR,
    royalties_top INTEGER,
    royalties_middle INTEGER,
    royalties_bottom INTEGER,
    royalties INTEGER,
    points DOUBLE,
    money DOUBLE,
    fantasyland_next BOOLEAN,
    fantasyland_next_cards TINYINT,
    fantasyland_stay BOOLEAN,
    mismatch BOOLEAN,
    first_street_bottom VARCHAR,
    top_qq_plus_by_street2 BOOLEAN,
    pairings SMALLINT,
    scoops SMALLINT,
    rows_won SMALLINT,
    hand_no BIGINT
);

CREATE TABLE IF NOT EXISTS placements (
    hand_id VARCHAR,
    seat TINYINT,
    street TINYINT,
    card VARCHAR,
    "row" VARCHAR,
    auto BOOLEAN,
    hand_no BIGINT
);

CREATE TABLE IF NOT EXISTS pairwise (
    hand_id VARCHAR,
    position_a TINYINT,
    position_b TINYINT,
    player_a VARCHAR,
    player_b VARCHAR,
    rows_a TINYINT,
    rows_b TINYINT,
    bonus_a SMALLINT,
    royalties_a INTEGER,
    points_a_uncapped DOUBLE,
    points_a DOUBLE,
    hand_no BIGINT
);

CREATE TABLE IF NOT EXISTS rejects (
    source_file VARCHAR,
    source_line BIGINT,
    room_hand_id VARCHAR,
    reason VARCHAR,
    excerpt VARCHAR,
    import_id INTEGER
);

CREATE TABLE IF NOT EXISTS conflicts (
    hand_id VARCHAR,
    import_id INTEGER,
    source_file VARCHAR,
    source_line BIGINT,
    fingerprint VARCHAR,
    stored_fingerprint VARCHAR,
    stored_source_file VARCHAR,
    stored_source_line BIGINT
);

CREATE TABLE IF NOT EXISTS source_files (
    path VARCHAR PRIMARY KEY,
    size_bytes BIGINT,
    mtime_ns BIGINT,
    bytes_imported BIGINT,
    lines_imported BIGINT,
    prefix_sha256 VARCHAR,
    hands_read BIGINT,
    import_id INTEGER
);

-- `ofc review`: one row per reviewed decision (docs/schema.md, "decisions").
CREATE TABLE IF NOT EXISTS decisions (
    hand_id VARCHAR,
    player VARCHAR,
    seat TINYINT,
    street TINYINT,
    kind VARCHAR,
    played_at TIMESTAMPTZ,
    ruleset VARCHAR,
    dealt VARCHAR[],
    chosen STRUCT(top VARCHAR[], middle VARCHAR[], bottom VARCHAR[], discards VARCHAR[]),
    best STRUCT(top VARCHAR[], middle VARCHAR[], bottom VARCHAR[], discards VARCHAR[]),
    ev_chosen DOUBLE,
    ev_best DOUBLE,
    ev_loss DOUBLE,
    se_loss DOUBLE,
    fantasyland_chosen DOUBLE,
    fantasyland_best DOUBLE,
    fantasyland_value DOUBLE,
    candidates INTEGER,
    rollouts INTEGER,
    reviewed_at TIMESTAMPTZ
);
