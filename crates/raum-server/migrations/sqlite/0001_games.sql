-- Games, their moves, their reviews and the variant files games are played on.
-- (IF NOT EXISTS: a database from before versioned migrations has some of
-- these already, and is brought to this version by the store when it opens.)
CREATE TABLE IF NOT EXISTS games (
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
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    plies INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    reason TEXT,
    seats TEXT,
    rematch TEXT,
    rematch_by TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    coord TEXT NOT NULL,
    white_ms INTEGER,
    black_ms INTEGER,
    PRIMARY KEY (game, ply)
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
CREATE TABLE IF NOT EXISTS reviews (
    game TEXT PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL,
    body TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS variant_files (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    created INTEGER NOT NULL
);
