-- Search in stages on PostgreSQL, as on SQLite (issue 15): see
-- sqlstore/search_postgres.go.
--
-- Each stage first walks the newest entries of the searched kinds: one
-- range of search_entries_recent a kind, merged newest first, so a kind
-- prefix ("cus: cedar") reads that kind's entries and no other's (without
-- it the walk went back along the primary key past every other kind's).
CREATE INDEX search_entries_recent ON search_entries (tenant_id, kind, seq);
-- More kinds than a few (no prefix) are walked among all the tenant's.
CREATE INDEX search_entries_latest ON search_entries (tenant_id, seq);

-- A stage the walk cannot fill is rare among the newest entries and goes
-- to the names' index (this one: the kinds' names, with each entry's seq,
-- so the newest of a name prefix are chosen from the index alone) or to
-- the trigrams.
DROP INDEX search_entries_norm;
CREATE INDEX search_entries_norm ON search_entries (tenant_id, kind, norm) INCLUDE (seq);

-- The trigrams of the hay, each under its entry's kind ('employee wet'),
-- as SQLite keeps an index partition a kind: a kind prefix, and a term
-- the kind lacks but other kinds have ("emp: wetland"), read that kind's
-- short lists, not every kind's matches in search_entries_hay (that took
-- 40-70 ms at 480,000 entries). Searches of many kinds keep to the latter.
CREATE FUNCTION search_keys(kind TEXT, hay TEXT) RETURNS TEXT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT array_agg(kind || ' ' || t) FROM unnest(public.show_trgm(hay)) t $$;
CREATE INDEX search_entries_keys ON search_entries USING gin (search_keys(kind, hay));

-- A database seeded before the rebuild analysed its entries has no
-- statistics for them: the planner's choices need them.
ANALYZE search_entries;
