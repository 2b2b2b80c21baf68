-- Lists of any field (issue 16).
--
-- A reference sorts by the referenced record's name, which the records
-- table keeps beside its id: these indexes make that sort a walk, as for
-- the other promoted columns. (Document fields get one index per kind and
-- field, made by Store.IndexDocumentFields from the kind registry.)
CREATE INDEX records_parent_name  ON records (tenant_id, kind, parent_name, id);
CREATE INDEX records_project_name ON records (tenant_id, kind, project_name, id);

-- How many records each tenant has of each kind, kept by triggers in the
-- transaction of every write (API saves, sync batches), so a list's total
-- is read, never counted. A bulk load, which drops the triggers, counts
-- afresh when it restores them (Store.recount).
CREATE TABLE record_counts (
    tenant_id TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, kind)
);
INSERT INTO record_counts (tenant_id, kind, n) SELECT tenant_id, kind, COUNT(*) FROM records GROUP BY tenant_id, kind;

CREATE TRIGGER records_count_ai AFTER INSERT ON records BEGIN
    INSERT INTO record_counts (tenant_id, kind, n) VALUES (NEW.tenant_id, NEW.kind, 1)
    ON CONFLICT (tenant_id, kind) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER records_count_ad AFTER DELETE ON records BEGIN
    UPDATE record_counts SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND kind = OLD.kind;
END;

-- The sum of every summable field (money and quantity) per tenant and
-- kind, in hundredths, kept by the same triggers: an unfiltered list's
-- totals are read, never added up. summable_fields lists the fields by
-- their column ('amount', or 'fields.<name>' for a document field); Store
-- .IndexDocumentFields keeps it equal to the registry's and sums a field
-- afresh when it joins.
CREATE TABLE summable_fields (
    kind  TEXT NOT NULL,
    field TEXT NOT NULL,
    PRIMARY KEY (kind, field)
);
CREATE TABLE record_sums (
    tenant_id TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    field     TEXT    NOT NULL,
    total     INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, kind, field)
);

-- A field's value in hundredths: the amount column, or the document
-- member's number (0 when missing or not a number). Only changes are
-- written.
CREATE TRIGGER records_sum_ai AFTER INSERT ON records BEGIN
    INSERT INTO record_sums (tenant_id, kind, field, total)
    SELECT tenant_id, kind, field, total FROM (
        SELECT NEW.tenant_id AS tenant_id, NEW.kind AS kind, f.field AS field,
            CASE WHEN f.field = 'amount' THEN COALESCE(NEW.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(NEW.fields, '$.' || substr(f.field, 8)) AS REAL), 0) * 100) AS INTEGER) END AS total
        FROM summable_fields f WHERE f.kind = NEW.kind)
    WHERE total <> 0
    ON CONFLICT (tenant_id, kind, field) DO UPDATE SET total = total + excluded.total;
END;
CREATE TRIGGER records_sum_au AFTER UPDATE ON records
    WHEN OLD.amount IS NOT NEW.amount OR OLD.fields IS NOT NEW.fields
BEGIN
    INSERT INTO record_sums (tenant_id, kind, field, total)
    SELECT tenant_id, kind, field, total FROM (
        SELECT NEW.tenant_id AS tenant_id, NEW.kind AS kind, f.field AS field,
            CASE WHEN f.field = 'amount' THEN COALESCE(NEW.amount, 0) - COALESCE(OLD.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(NEW.fields, '$.' || substr(f.field, 8)) AS REAL), 0) * 100) AS INTEGER)
               - CAST(ROUND(COALESCE(CAST(json_extract(OLD.fields, '$.' || substr(f.field, 8)) AS REAL), 0) * 100) AS INTEGER) END AS total
        FROM summable_fields f WHERE f.kind = NEW.kind)
    WHERE total <> 0
    ON CONFLICT (tenant_id, kind, field) DO UPDATE SET total = total + excluded.total;
END;
CREATE TRIGGER records_sum_ad AFTER DELETE ON records BEGIN
    INSERT INTO record_sums (tenant_id, kind, field, total)
    SELECT tenant_id, kind, field, -total FROM (
        SELECT OLD.tenant_id AS tenant_id, OLD.kind AS kind, f.field AS field,
            CASE WHEN f.field = 'amount' THEN COALESCE(OLD.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(OLD.fields, '$.' || substr(f.field, 8)) AS REAL), 0) * 100) AS INTEGER) END AS total
        FROM summable_fields f WHERE f.kind = OLD.kind)
    WHERE total <> 0
    ON CONFLICT (tenant_id, kind, field) DO UPDATE SET total = total + excluded.total;
END;
