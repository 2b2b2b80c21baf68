-- The global search index (issue 7). One entry per record, kept current by
-- triggers on records, so every write path (API writes, sync batches, bulk
-- loads) maintains it in the same transaction. seq grows with every write
-- of a record: ordering by it newest-first is "most recently written
-- first", the ranking's tie-break, and lets the full-text scan stop after
-- the first few hundred candidates however common the term.
CREATE TABLE search_entries (
    seq       INTEGER PRIMARY KEY,
    tenant_id TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    record_id INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    code      TEXT    NOT NULL,
    status    TEXT    NOT NULL,
    norm      TEXT    NOT NULL,  -- lower(name): exact and prefix matches use its index
    hay       TEXT    NOT NULL,  -- what word and substring matches search: name, number and id
    scope     TEXT    NOT NULL   -- 'k<hex(kind)>': the token the word index filters kinds on
);
CREATE UNIQUE INDEX search_entries_record ON search_entries (tenant_id, kind, record_id);
CREATE INDEX search_entries_norm ON search_entries (tenant_id, norm);

-- Trigram full-text index over hay (external content: the text lives once,
-- in search_entries): case- and accent-insensitive substring matching.
CREATE VIRTUAL TABLE search_fts USING fts5 (
    hay, content = 'search_entries', content_rowid = 'seq',
    tokenize = 'trigram remove_diacritics 1'
);

-- Word index over hay, with the scope's kind token: word prefixes (the
-- typeahead's main case; prefixes of 3 to 6 characters have doclists of
-- their own, so none is merged at query time) and kind filters are
-- doclist walks, cheap however common the word.
CREATE VIRTUAL TABLE search_words USING fts5 (
    scope, hay, content = 'search_entries', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '3 4 5 6', detail = 'column'
);

CREATE TRIGGER search_entries_ai AFTER INSERT ON search_entries BEGIN
    INSERT INTO search_fts (rowid, hay) VALUES (new.seq, new.hay);
    INSERT INTO search_words (rowid, scope, hay) VALUES (new.seq, new.scope, new.hay);
END;
CREATE TRIGGER search_entries_ad AFTER DELETE ON search_entries BEGIN
    INSERT INTO search_fts (search_fts, rowid, hay) VALUES ('delete', old.seq, old.hay);
    INSERT INTO search_words (search_words, rowid, scope, hay) VALUES ('delete', old.seq, old.scope, old.hay);
END;

CREATE TRIGGER records_search_ai AFTER INSERT ON records BEGIN
    INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, scope)
    VALUES (new.tenant_id, new.kind, new.id, new.title, new.code, new.status, lower(new.title),
            new.title || ' ' || new.code || ' ' || new.id, 'k' || hex(new.kind));
END;
-- A rewrite that changes nothing the index holds (a sync re-reading an
-- unchanged record) leaves the entry, and its recency, alone.
CREATE TRIGGER records_search_au AFTER UPDATE ON records
WHEN old.title IS NOT new.title OR old.code IS NOT new.code OR old.status IS NOT new.status
    OR old.modified_at IS NOT new.modified_at OR old.id IS NOT new.id OR old.kind IS NOT new.kind
BEGIN
    DELETE FROM search_entries WHERE tenant_id = old.tenant_id AND kind = old.kind AND record_id = old.id;
    INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, scope)
    VALUES (new.tenant_id, new.kind, new.id, new.title, new.code, new.status, lower(new.title),
            new.title || ' ' || new.code || ' ' || new.id, 'k' || hex(new.kind));
END;
CREATE TRIGGER records_search_ad AFTER DELETE ON records BEGIN
    DELETE FROM search_entries WHERE tenant_id = old.tenant_id AND kind = old.kind AND record_id = old.id;
END;

-- Records that predate the index are indexed by Store.ReindexSearch,
-- which Open runs when the index is empty and records are not.
