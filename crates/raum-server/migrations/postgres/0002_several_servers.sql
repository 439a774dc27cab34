-- When each move was stored, in milliseconds since 1970: a game's clock
-- counts from its last move on whichever server serves it next.
ALTER TABLE moves ADD COLUMN at_ms BIGINT;
-- The draw offer and take-back request standing in an unfinished game
-- (`draw:<sides>;takeback:<side>@<ply>`), so that any server answers them.
ALTER TABLE games ADD COLUMN offers TEXT;
-- Which server plays a game's engine moves and flags its clocks, and until
-- when (milliseconds since 1970, the database's clock): a server renews its
-- leases while it lives, and another takes over those that lapse.
CREATE TABLE leases (
    game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    holder TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX leases_holder ON leases(holder);
CREATE INDEX leases_expires ON leases(expires);
