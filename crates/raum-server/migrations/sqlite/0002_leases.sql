-- When each move was stored, in milliseconds since 1970: a game's clock
-- counts from its last move on whichever server serves it next. (Leases,
-- PostgreSQL's second table of this step, have no use here: a SQLite file
-- belongs to one server, which does all of its games' work.)
ALTER TABLE moves ADD COLUMN at_ms INTEGER;
