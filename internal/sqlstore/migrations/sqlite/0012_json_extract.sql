-- Account fields (issue 14) are read with json_extract, which SQLite has
-- built in; PostgreSQL defines it in its 0012. Nothing to change here.
SELECT 1;
