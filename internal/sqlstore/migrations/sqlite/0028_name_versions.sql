-- How many times each kind's hays (a record's name, number and id, what a
-- list's text filter looks in) have changed: a record added, or one whose
-- name, number or id was rewritten. A list's text filter on a common text
-- remembers where in name order its first match stood, and starts its walk
-- there while the version it was found at stands (sqliteSearch.listText);
-- a removed record cannot put a match before it, so deletes leave the
-- version alone. Versions only grow; a bulk load, which runs without these
-- triggers, is seen by the hint's lookup (pending_indexes) instead.
CREATE TABLE name_versions (
    tenant_id TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    version   INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, kind)
) WITHOUT ROWID;
INSERT INTO name_versions (tenant_id, kind, version) SELECT tenant_id, kind, 1 FROM record_counts;
CREATE TRIGGER records_names_ai AFTER INSERT ON records BEGIN
    INSERT INTO name_versions (tenant_id, kind, version) VALUES (NEW.tenant_id, NEW.kind, 1)
    ON CONFLICT (tenant_id, kind) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER records_names_au AFTER UPDATE ON records
WHEN OLD.title IS NOT NEW.title OR OLD.code IS NOT NEW.code OR OLD.id IS NOT NEW.id
    OR OLD.kind IS NOT NEW.kind OR OLD.tenant_id IS NOT NEW.tenant_id
BEGIN
    INSERT INTO name_versions (tenant_id, kind, version) VALUES (NEW.tenant_id, NEW.kind, 1)
    ON CONFLICT (tenant_id, kind) DO UPDATE SET version = version + 1;
END;
