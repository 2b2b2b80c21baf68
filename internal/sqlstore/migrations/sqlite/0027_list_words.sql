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

-- list_vocab: the words a tenant's kind has had, numbered in the order
-- they came (AUTOINCREMENT: never reused), so a reader that has seen the
-- words up to a number reads only those after it. A word is not removed
-- when its last record goes (a stale word finds no entry); a reindex
-- rebuilds the table.
CREATE TABLE list_vocab (
    no        INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id TEXT NOT NULL,
    kind      TEXT NOT NULL,
    word      TEXT NOT NULL,
    UNIQUE (tenant_id, kind, word)
);

-- Kept from the search entries, which the records' triggers keep (an
-- entry is inserted and deleted, never updated), and rebuilt with them by
-- a reindex (sqliteSearch.fillDerived).
CREATE TRIGGER search_entries_words_ai AFTER INSERT ON search_entries BEGIN
    INSERT INTO list_words (tenant_id, kind, word, name, record_id)
        SELECT new.tenant_id, new.kind, w.value, new.name, new.record_id
        FROM json_each(portico_list_words(new.name, new.code)) w;
    INSERT INTO list_vocab (tenant_id, kind, word)
        SELECT new.tenant_id, new.kind, w.value FROM json_each(portico_list_words(new.name, new.code)) w
        WHERE NOT EXISTS (SELECT 1 FROM list_vocab v WHERE v.tenant_id = new.tenant_id AND v.kind = new.kind AND v.word = w.value);
END;
CREATE TRIGGER search_entries_words_ad AFTER DELETE ON search_entries BEGIN
    DELETE FROM list_words WHERE tenant_id = old.tenant_id AND kind = old.kind
        AND word IN (SELECT value FROM json_each(portico_list_words(old.name, old.code)))
        AND name = old.name AND record_id = old.record_id;
END;

-- The entries already indexed, as a reindex fills them.
INSERT INTO list_words (tenant_id, kind, word, name, record_id)
    SELECT e.tenant_id, e.kind, w.value, e.name, e.record_id
    FROM search_entries e, json_each(portico_list_words(e.name, e.code)) w
    ORDER BY 1, 2, 3, 4, 5;
INSERT INTO list_vocab (tenant_id, kind, word)
    SELECT DISTINCT tenant_id, kind, word FROM list_words ORDER BY 1, 2, 3;
