-- Each search entry carries its record's owner (issue 35): the id of the
-- reference owner_fields names for its kind, as text, as owner_totals and
-- the list filter key it ('' for none, or a kind without an owner). A
-- search under the rule "owner eq $me" then keeps its candidates by the
-- entries it has read (records.Guard.SeenOwned), where it read each
-- candidate's record by id.
--
-- Kept by the records triggers in the write's transaction: the entry's
-- own (a record's insert, or an update that rewrites the entry), and
-- records_search_owner for an update of the document alone. A kind's
-- owner joining, changing or leaving refreshes its entries
-- (Store.syncOwners).
--
-- An expand step: the previous release's writes fire these triggers too,
-- and an entry it writes itself (a rebuild) carries '' — "not known",
-- which the search checks on the record, as before.
-- oldest binary: 31
--
-- Writes of records wait from the start: the triggers made on records
-- below take a lock they conflict with, and taken after search_entries'
-- (which a write's triggers lock after its record) it deadlocked with a
-- write in the rolling-upgrade test.
LOCK TABLE records IN SHARE ROW EXCLUSIVE MODE;
ALTER TABLE search_entries ADD COLUMN owner TEXT NOT NULL DEFAULT '';
UPDATE search_entries e SET owner = COALESCE(CAST(json_extract(r.fields, o.path) AS TEXT), '')
    FROM records r, owner_fields o
    WHERE o.kind = e.kind AND r.tenant_id = e.tenant_id AND r.kind = e.kind AND r.id = e.record_id;

-- A record's owner for its entry.
CREATE FUNCTION entry_owner(kind text, doc jsonb) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
    RETURN COALESCE((SELECT CAST(json_extract(doc, o.path) AS TEXT) FROM owner_fields o WHERE o.kind = entry_owner.kind), '');

CREATE OR REPLACE FUNCTION records_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM search_entries WHERE tenant_id = OLD.tenant_id AND kind = OLD.kind AND record_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, owner)
        VALUES (NEW.tenant_id, NEW.kind, NEW.id, NEW.title, NEW.code, NEW.status, lower(NEW.title),
                lower(NEW.title || ' ' || NEW.code || ' ' || NEW.id), entry_owner(NEW.kind, NEW.fields));
    END IF;
    RETURN NULL;
END;
$$;

-- A document's owner changing on its own: the entry's owner follows (no
-- other of its columns, so neither its recency nor its text).
CREATE FUNCTION records_search_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_entries SET owner = entry_owner(NEW.kind, NEW.fields)
    WHERE tenant_id = NEW.tenant_id AND kind = NEW.kind AND record_id = NEW.id
        AND owner IS DISTINCT FROM entry_owner(NEW.kind, NEW.fields);
    RETURN NULL;
END;
$$;
CREATE TRIGGER records_search_owner AFTER UPDATE OF fields ON records
    FOR EACH ROW WHEN (OLD.fields IS DISTINCT FROM NEW.fields)
    EXECUTE FUNCTION records_search_owner();
