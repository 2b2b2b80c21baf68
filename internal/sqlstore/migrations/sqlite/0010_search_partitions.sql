-- The search index, remade so that every walk through it is bounded
-- (issue 7: a rare term, a number or a kind prefix walked whole doclists
-- in 0004's indexes and took milliseconds).
--
-- Two full-text indexes hold every entry: search_all in its tenant's
-- partition, search_kind in its tenant's partition of its kind. A
-- partition is a range of rowids, (search_scopes.no << 40) | seq, so a
-- walk reads one range newest first and FTS5 seeks straight to it: a kind
-- prefix, a term the kind lacks and another tenant's size cost nothing.
-- (Two tables, not one with two rows an entry: FTS5 flushes its pending
-- writes whenever a rowid is not above the last one, and a batch of
-- writes climbs in each table.) seq stays below 2^40.
--
-- Their tokens come from portico_search_parts(hay), a deterministic
-- function the store registers with the SQLite driver
-- (sqlstore/searchindex.go): every word cut to its first 6 characters, and
-- every suffix of 3 or more characters starting inside a word, cut to 6
-- and marked with a leading '_', and the first word (the name's) once more
-- marked with '^', lower-cased and without accents. A name prefix, a word
-- prefix and a substring are then each one prefix doclist ("^wetl"*,
-- "wetl"*, "_etl"*), however common or rare.
--
-- The entries are emptied here: the store's Open rebuilds the index (as
-- `portico search reindex` does) when records exist and entries don't.
DROP TRIGGER search_entries_ai;
DROP TRIGGER search_entries_ad;
DROP TABLE search_fts;
DROP TABLE search_words;
DELETE FROM search_entries;
DROP TRIGGER records_search_ai;
DROP TRIGGER records_search_au;
ALTER TABLE search_entries DROP COLUMN scope;

-- A tenant's search scopes, numbered on first use: kind '' is every kind.
CREATE TABLE search_scopes (
    no        INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    kind      TEXT NOT NULL,
    UNIQUE (tenant_id, kind)
);

CREATE VIRTUAL TABLE search_all USING fts5 (
    parts, content = '', contentless_delete = 1, detail = 'none', prefix = '2 3 4 5 6',
    tokenize = 'ascii tokenchars ''_^'''
);
CREATE VIRTUAL TABLE search_kind USING fts5 (
    parts, content = '', contentless_delete = 1, detail = 'none', prefix = '2 3 4 5 6',
    tokenize = 'ascii tokenchars ''_^'''
);

CREATE TRIGGER search_entries_ai AFTER INSERT ON search_entries BEGIN
    -- (Not INSERT OR IGNORE: an outer statement's conflict clause, such
    -- as a records upsert's, would override it.)
    INSERT INTO search_scopes (tenant_id, kind) SELECT new.tenant_id, k FROM (SELECT '' AS k UNION ALL SELECT new.kind)
        WHERE NOT EXISTS (SELECT 1 FROM search_scopes WHERE tenant_id = new.tenant_id AND kind = k);
    INSERT INTO search_all (rowid, parts) SELECT (no << 40) | new.seq, portico_search_parts(new.hay)
        FROM search_scopes WHERE tenant_id = new.tenant_id AND kind = '';
    INSERT INTO search_kind (rowid, parts) SELECT (no << 40) | new.seq, portico_search_parts(new.hay)
        FROM search_scopes WHERE tenant_id = new.tenant_id AND kind = new.kind;
END;
CREATE TRIGGER search_entries_ad AFTER DELETE ON search_entries BEGIN
    DELETE FROM search_all WHERE rowid = (SELECT (no << 40) | old.seq FROM search_scopes
        WHERE tenant_id = old.tenant_id AND kind = '');
    DELETE FROM search_kind WHERE rowid = (SELECT (no << 40) | old.seq FROM search_scopes
        WHERE tenant_id = old.tenant_id AND kind = old.kind);
END;

CREATE TRIGGER records_search_ai AFTER INSERT ON records BEGIN
    INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay)
    VALUES (new.tenant_id, new.kind, new.id, new.title, new.code, new.status, lower(new.title),
            new.title || ' ' || new.code || ' ' || new.id);
END;
-- A rewrite that changes nothing the index holds (a sync re-reading an
-- unchanged record) leaves the entry, and its recency, alone.
CREATE TRIGGER records_search_au AFTER UPDATE ON records
WHEN old.title IS NOT new.title OR old.code IS NOT new.code OR old.status IS NOT new.status
    OR old.modified_at IS NOT new.modified_at OR old.id IS NOT new.id OR old.kind IS NOT new.kind
BEGIN
    DELETE FROM search_entries WHERE tenant_id = old.tenant_id AND kind = old.kind AND record_id = old.id;
    INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay)
    VALUES (new.tenant_id, new.kind, new.id, new.title, new.code, new.status, lower(new.title),
            new.title || ' ' || new.code || ' ' || new.id);
END;
