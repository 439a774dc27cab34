-- Games, their moves, their reviews and the variant files games are played on.
-- Times are seconds since 1970; a move's clocks are milliseconds.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    mode TEXT NOT NULL,
    start TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_token TEXT,
    black_token TEXT,
    engine TEXT,
    clock TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    plies BIGINT NOT NULL DEFAULT 0,
    result TEXT,
    reason TEXT,
    seats TEXT,
    rematch TEXT,
    rematch_by TEXT
);
CREATE TABLE moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    coord TEXT NOT NULL,
    white_ms BIGINT,
    black_ms BIGINT,
    PRIMARY KEY (game, ply)
);
CREATE INDEX games_updated ON games(updated);
CREATE TABLE reviews (
    game TEXT PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL,
    body TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE variant_files (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    created BIGINT NOT NULL
);
