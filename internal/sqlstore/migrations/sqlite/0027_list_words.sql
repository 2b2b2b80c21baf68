-- A list's text filter sorted by name, through each record's words
-- (sqlstore/listwords.go). A text without a space is in a record's name
-- or number exactly when it is in one of their words split at spaces, so
-- the records whose name or number holds such a text are those of the
-- words that hold it: a handful of words, each a range of list_words
-- already in name order. A page of 10 reads about 10 entries a word,
-- where checking names along the name index read 200 for a common word
-- and the search index every match of a rare one.
--
-- list_words: each search entry's words (its name's and its number's,
-- split at spaces, ASCII lower-cased as LIKE folds them: see
-- portico_list_words), with the entry's name, so each word's records
-- come in the list's order, by name then id.
CREATE TABLE list_words (
    tenant_id TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    word      TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    record_id INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, kind, word, name, record_id)
) WITHOUT ROWID;

-- list_vocab: the words a tenant's kind has had, numbered within the
-- kind's search scope ((search_scopes.no << 40) + n), so that a lookup in
-- list_vocab_grams reads one kind's range. A word is not removed when its
-- last record goes (a stale word finds no entry); a reindex rebuilds the
-- table.
CREATE TABLE list_vocab (
    no        INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    kind      TEXT NOT NULL,
    word      TEXT NOT NULL,
    UNIQUE (tenant_id, kind, word)
);

-- The words' trigrams: the words that contain a text of 3 or more
-- characters are one query (its trigrams), in one kind's range of rowids. The
-- trigram tokenizer folds case more widely than LIKE (Unicode), so it
-- finds a few words too many, never too few; the store keeps those that
-- hold the text as LIKE sees it.
CREATE VIRTUAL TABLE list_vocab_grams USING fts5 (
    word, content = 'list_vocab', content_rowid = 'no', detail = 'none', tokenize = 'trigram'
);

-- Kept with the search entries (inserted and deleted, never updated, by
-- the records' triggers), in the entries' triggers, in order: the scope
-- first, which the vocabulary's numbers need.
DROP TRIGGER search_entries_ai;
CREATE TRIGGER search_entries_ai AFTER INSERT ON search_entries BEGIN
    -- (Not INSERT OR IGNORE: an outer statement's conflict clause, such
    -- as a records upsert's, would override it.)
    INSERT INTO search_scopes (tenant_id, kind) SELECT new.tenant_id, k FROM (SELECT '' AS k UNION ALL SELECT new.kind)
        WHERE NOT EXISTS (SELECT 1 FROM search_scopes WHERE tenant_id = new.tenant_id AND kind = k);
    INSERT INTO search_all (rowid, parts) SELECT (no << 40) | new.seq, portico_search_parts(new.hay)
        FROM search_scopes WHERE tenant_id = new.tenant_id AND kind = '';
    INSERT INTO search_kind (rowid, parts) SELECT (no << 40) | new.seq, portico_search_parts(new.hay)
        FROM search_scopes WHERE tenant_id = new.tenant_id AND kind = new.kind;
    INSERT INTO list_words (tenant_id, kind, word, name, record_id)
        SELECT new.tenant_id, new.kind, w.value, new.name, new.record_id
        FROM json_each(portico_list_words(new.name, new.code)) w;
    -- The new words numbered after the kind's last (the SELECT is read
    -- whole before the insert, so the count goes by row_number).
    INSERT INTO list_vocab (no, tenant_id, kind, word)
        SELECT (SELECT COALESCE(MAX(v.no), s.no << 40) FROM list_vocab v WHERE v.no > s.no << 40 AND v.no < (s.no + 1) << 40)
                + row_number() OVER (), new.tenant_id, new.kind, w.value
        FROM json_each(portico_list_words(new.name, new.code)) w
        JOIN search_scopes s ON s.tenant_id = new.tenant_id AND s.kind = new.kind
        WHERE NOT EXISTS (SELECT 1 FROM list_vocab v WHERE v.tenant_id = new.tenant_id AND v.kind = new.kind AND v.word = w.value);
END;
DROP TRIGGER search_entries_ad;
CREATE TRIGGER search_entries_ad AFTER DELETE ON search_entries BEGIN
    DELETE FROM search_all WHERE rowid = (SELECT (no << 40) | old.seq FROM search_scopes
        WHERE tenant_id = old.tenant_id AND kind = '');
    DELETE FROM search_kind WHERE rowid = (SELECT (no << 40) | old.seq FROM search_scopes
        WHERE tenant_id = old.tenant_id AND kind = old.kind);
    DELETE FROM list_words WHERE tenant_id = old.tenant_id AND kind = old.kind
        AND word IN (SELECT value FROM json_each(portico_list_words(old.name, old.code)))
        AND name = old.name AND record_id = old.record_id;
END;
CREATE TRIGGER list_vocab_ai AFTER INSERT ON list_vocab BEGIN
    INSERT INTO list_vocab_grams (rowid, word) VALUES (new.no, new.word);
END;

-- The entries already indexed, as a reindex fills them (fillDerived).
INSERT INTO list_words (tenant_id, kind, word, name, record_id)
    SELECT e.tenant_id, e.kind, w.value, e.name, e.record_id
    FROM search_entries e, json_each(portico_list_words(e.name, e.code)) w
    ORDER BY 1, 2, 3, 4, 5;
DROP TRIGGER list_vocab_ai;
INSERT INTO list_vocab (no, tenant_id, kind, word)
    SELECT (s.no << 40) + row_number() OVER (PARTITION BY w.tenant_id, w.kind ORDER BY w.word), w.tenant_id, w.kind, w.word
    FROM (SELECT DISTINCT tenant_id, kind, word FROM list_words) w
    JOIN search_scopes s ON s.tenant_id = w.tenant_id AND s.kind = w.kind
    ORDER BY 1;
INSERT INTO list_vocab_grams (list_vocab_grams) VALUES ('rebuild');
CREATE TRIGGER list_vocab_ai AFTER INSERT ON list_vocab BEGIN
    INSERT INTO list_vocab_grams (rowid, word) VALUES (new.no, new.word);
END;
