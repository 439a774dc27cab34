-- Which seats of a game have a socket open on which server, until when
-- (milliseconds since 1970, the database's clock): a server keeps its own
-- rows while it lives (renewed with its leases), so that a player whose
-- socket is on one server shows as present on every other; a dead server's
-- rows lapse.
CREATE TABLE presence (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side INTEGER NOT NULL,
    holder TEXT NOT NULL,
    expires BIGINT NOT NULL,
    PRIMARY KEY (game, side, holder)
);
CREATE INDEX presence_holder ON presence(holder);
CREATE INDEX presence_expires ON presence(expires);
