-- When each move was stored, in milliseconds since 1970: a game's clock
-- counts from its last move on whichever server serves it next. (Leases,
-- PostgreSQL's table of this step, have no use here: a SQLite file belongs
-- to one server, which does all of its games' work.)
ALTER TABLE moves ADD COLUMN at_ms INTEGER;
-- The draw offer and take-back request standing in an unfinished game
-- (`draw:<sides>;takeback:<side>@<ply>`), so that any server answers them.
ALTER TABLE games ADD COLUMN offers TEXT;
