-- The global search index (issue 7). One entry per record, kept current by
-- triggers on records, so every write path (API writes, sync batches, bulk
-- loads) maintains it in the same transaction. seq grows with every write
-- of a record: newest-first by seq is "most recently written first", the
-- ranking's tie-break.
--
-- pg_trgm lives in public (a trusted extension since PostgreSQL 13: the
-- database owner may create it), so dropping one schema never drops it
-- from under another.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE TABLE search_entries (
    seq       BIGSERIAL PRIMARY KEY,
    tenant_id TEXT   NOT NULL,
    kind      TEXT   NOT NULL,
    record_id BIGINT NOT NULL,
    name      TEXT   NOT NULL,
    code      TEXT   NOT NULL,
    status    TEXT   NOT NULL,
    norm      TEXT   COLLATE "C" NOT NULL,  -- lower(name): exact and prefix matches use its index
    hay       TEXT   NOT NULL               -- lower(name, number, id): what substring matches search
);
CREATE UNIQUE INDEX search_entries_record ON search_entries (tenant_id, kind, record_id);
CREATE INDEX search_entries_norm ON search_entries (tenant_id, norm);
CREATE INDEX search_entries_hay ON search_entries USING gin (hay public.gin_trgm_ops);

CREATE FUNCTION records_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM search_entries WHERE tenant_id = OLD.tenant_id AND kind = OLD.kind AND record_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay)
        VALUES (NEW.tenant_id, NEW.kind, NEW.id, NEW.title, NEW.code, NEW.status, lower(NEW.title),
                lower(NEW.title || ' ' || NEW.code || ' ' || NEW.id));
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER records_search AFTER INSERT OR DELETE ON records
    FOR EACH ROW EXECUTE FUNCTION records_search();
-- A rewrite that changes nothing the index holds (a sync re-reading an
-- unchanged record) leaves the entry, and its recency, alone.
CREATE TRIGGER records_search_update AFTER UPDATE ON records
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.code IS DISTINCT FROM NEW.code
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.modified_at IS DISTINCT FROM NEW.modified_at
        OR OLD.id IS DISTINCT FROM NEW.id OR OLD.kind IS DISTINCT FROM NEW.kind)
    EXECUTE FUNCTION records_search();

-- Records that predate the index are indexed by Store.ReindexSearch,
-- which Open runs when the index is empty and records are not.
