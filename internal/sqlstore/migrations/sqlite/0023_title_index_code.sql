-- A list's text filter on a common word checks the records along the list's
-- sort by their own name, number and id (sqliteSearch.listText). With the
-- number in the name index, that check along the default sort reads the
-- index alone, not a table row and a search entry per record checked
-- (10x fewer page reads at a million projects).
DROP INDEX records_title;
CREATE INDEX records_title ON records (tenant_id, kind, title, id, code);
-- Its statistics went with the old index: without them the planner walks
-- this index for a list filtered to a few records instead of looking them up.
ANALYZE records_title;
