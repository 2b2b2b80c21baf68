-- The search index's word suffixes start at 2 characters, not 3
-- (portico_search_parts, sqlstore/searchindex.go): a typed word of 2
-- characters at the end of a word ("ch" of "birch", "23" of "PRJ-0123")
-- was in no token, so a list's text filter answered through the index
-- left those records out, and the search did not find them.
--
-- The entries are emptied here, without their delete trigger (the
-- full-text tables are emptied as a whole when they are rebuilt), and the
-- store's Open rebuilds the index from the records, as `portico search
-- reindex` does: about as long as a first fill.
DROP TRIGGER search_entries_ad;
DELETE FROM search_entries;
CREATE TRIGGER search_entries_ad AFTER DELETE ON search_entries BEGIN
    DELETE FROM search_all WHERE rowid = (SELECT (no << 40) | old.seq FROM search_scopes
        WHERE tenant_id = old.tenant_id AND kind = '');
    DELETE FROM search_kind WHERE rowid = (SELECT (no << 40) | old.seq FROM search_scopes
        WHERE tenant_id = old.tenant_id AND kind = old.kind);
END;
