-- Nothing on SQLite: a file belongs to one server, which counts the seats'
-- sockets in its memory (PostgreSQL's step keeps them in a table, for
-- several servers). The step keeps both lists of migrations in step.
SELECT 1;
