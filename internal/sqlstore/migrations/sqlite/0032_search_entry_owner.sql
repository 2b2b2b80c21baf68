-- Each search entry carries its record's owner (issue 35): the id of the
-- reference owner_fields names for its kind, as text, as owner_totals and
-- the list filter key it ('' for none, or a kind without an owner). A
-- search under the rule "owner eq $me" then keeps its candidates by the
-- entries it has read (records.Guard.SeenOwned), where it read each
-- candidate's record by id (at a million projects, 45% of such a search's
-- time).
--
-- Kept by the records triggers in the write's transaction: the entry's
-- own (a record's insert, or an update that rewrites the entry), and
-- records_search_owner_au for an update of the document alone. A kind's
-- owner joining, changing or leaving refreshes its entries
-- (Store.syncOwners).
--
-- An expand step: the previous release's writes fire these triggers too,
-- and an entry it writes itself (a rebuild) carries '' — "not known",
-- which the search checks on the record, as before.
-- oldest binary: 31
ALTER TABLE search_entries ADD COLUMN owner TEXT NOT NULL DEFAULT '';
UPDATE search_entries SET owner = COALESCE((SELECT CAST(json_extract(r.fields, o.path) AS TEXT) FROM records r, owner_fields o
        WHERE o.kind = search_entries.kind AND r.tenant_id = search_entries.tenant_id AND r.kind = search_entries.kind
            AND r.id = search_entries.record_id), '')
    WHERE kind IN (SELECT kind FROM owner_fields);

DROP TRIGGER records_search_ai;
DROP TRIGGER records_search_au;
CREATE TRIGGER records_search_ai AFTER INSERT ON records BEGIN
    INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, owner)
    VALUES (new.tenant_id, new.kind, new.id, new.title, new.code, new.status, lower(new.title),
            new.title || ' ' || new.code || ' ' || new.id,
            COALESCE((SELECT CAST(json_extract(new.fields, path) AS TEXT) FROM owner_fields WHERE kind = new.kind), ''));
END;
-- A rewrite that changes nothing the index holds (a sync re-reading an
-- unchanged record) leaves the entry, and its recency, alone.
CREATE TRIGGER records_search_au AFTER UPDATE ON records
WHEN old.title IS NOT new.title OR old.code IS NOT new.code OR old.status IS NOT new.status
    OR old.modified_at IS NOT new.modified_at OR old.id IS NOT new.id OR old.kind IS NOT new.kind
BEGIN
    DELETE FROM search_entries WHERE tenant_id = old.tenant_id AND kind = old.kind AND record_id = old.id;
    INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, owner)
    VALUES (new.tenant_id, new.kind, new.id, new.title, new.code, new.status, lower(new.title),
            new.title || ' ' || new.code || ' ' || new.id,
            COALESCE((SELECT CAST(json_extract(new.fields, path) AS TEXT) FROM owner_fields WHERE kind = new.kind), ''));
END;
-- A document's owner changing on its own: the entry's owner follows (no
-- other of its columns, so neither the full-text tables nor the recency).
CREATE TRIGGER records_search_owner_au AFTER UPDATE OF fields ON records
WHEN old.fields IS NOT new.fields AND EXISTS (SELECT 1 FROM owner_fields WHERE kind = new.kind)
BEGIN
    UPDATE search_entries SET owner = COALESCE((SELECT CAST(json_extract(new.fields, path) AS TEXT) FROM owner_fields WHERE kind = new.kind), '')
    WHERE tenant_id = new.tenant_id AND kind = new.kind AND record_id = new.id
        AND owner IS NOT COALESCE((SELECT CAST(json_extract(new.fields, path) AS TEXT) FROM owner_fields WHERE kind = new.kind), '');
END;
