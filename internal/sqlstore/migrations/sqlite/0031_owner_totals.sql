-- A user's own records, counted and totalled (issue 35). A list under the
-- rule "owner eq $me" (records.Guard) opens with its count and totals, over
-- tens of thousands of records for a project manager at a million projects.
-- They are kept per owner, as migration 0020 keeps them per kind: by
-- triggers in the transaction of every write, so they are read, never
-- counted.
--
-- owner_fields names each kind's owner (records.Kind.Owner, a reference in
-- the document) by the JSON path of its id; Store.IndexDocumentFields keeps
-- it equal to the registry and totals a kind afresh when its owner joins.
-- owner_totals holds, per tenant, kind, owner (the id as text, '' for none:
-- the list filter's own expression), status (a dashboard's "mine" cards are
-- an owner's records by status), currency ('' the base) and field, the
-- count of records (field '') or the sum of a summable field
-- (summable_fields) in hundredths.
--
-- An expand step: the previous release's writes fire these triggers too.
-- oldest binary: 30
CREATE TABLE owner_fields (
    kind TEXT NOT NULL PRIMARY KEY,
    path TEXT NOT NULL
);
CREATE TABLE owner_totals (
    tenant_id TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    owner     TEXT    NOT NULL,
    status    TEXT    NOT NULL,
    currency  TEXT    NOT NULL,
    field     TEXT    NOT NULL,
    total     INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, kind, owner, status, currency, field)
) WITHOUT ROWID;

-- A record's count (1) and each summable field's value in hundredths, as
-- migration 0020's triggers compute them; only what is not 0 is written.
CREATE TRIGGER records_owner_ai AFTER INSERT ON records
    WHEN EXISTS (SELECT 1 FROM owner_fields WHERE kind = NEW.kind)
BEGIN
    INSERT INTO owner_totals (tenant_id, kind, owner, status, currency, field, total)
    SELECT NEW.tenant_id, NEW.kind, COALESCE(CAST(json_extract(NEW.fields, o.path) AS TEXT), ''), COALESCE(NEW.status, ''), NEW.currency, f.field, f.v
    FROM owner_fields o, (
        SELECT '' AS field, 1 AS v
        UNION ALL
        SELECT field, CASE WHEN field = 'amount' THEN COALESCE(NEW.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(NEW.fields, '$.' || substr(field, 8)) AS REAL), 0) * 100) AS INTEGER) END
        FROM summable_fields WHERE kind = NEW.kind) f
    WHERE o.kind = NEW.kind AND f.v <> 0
    ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = total + excluded.total;
END;
CREATE TRIGGER records_owner_ad AFTER DELETE ON records
    WHEN EXISTS (SELECT 1 FROM owner_fields WHERE kind = OLD.kind)
BEGIN
    INSERT INTO owner_totals (tenant_id, kind, owner, status, currency, field, total)
    SELECT OLD.tenant_id, OLD.kind, COALESCE(CAST(json_extract(OLD.fields, o.path) AS TEXT), ''), COALESCE(OLD.status, ''), OLD.currency, f.field, -f.v
    FROM owner_fields o, (
        SELECT '' AS field, 1 AS v
        UNION ALL
        SELECT field, CASE WHEN field = 'amount' THEN COALESCE(OLD.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(OLD.fields, '$.' || substr(field, 8)) AS REAL), 0) * 100) AS INTEGER) END
        FROM summable_fields WHERE kind = OLD.kind) f
    WHERE o.kind = OLD.kind AND f.v <> 0
    ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = total + excluded.total;
END;
-- An update takes the old record's values out and puts the new one's in.
CREATE TRIGGER records_owner_au AFTER UPDATE ON records
    WHEN (OLD.fields IS NOT NEW.fields OR OLD.amount IS NOT NEW.amount OR OLD.currency IS NOT NEW.currency
            OR OLD.status IS NOT NEW.status)
        AND EXISTS (SELECT 1 FROM owner_fields WHERE kind = NEW.kind)
BEGIN
    INSERT INTO owner_totals (tenant_id, kind, owner, status, currency, field, total)
    SELECT OLD.tenant_id, OLD.kind, COALESCE(CAST(json_extract(OLD.fields, o.path) AS TEXT), ''), COALESCE(OLD.status, ''), OLD.currency, f.field, -f.v
    FROM owner_fields o, (
        SELECT '' AS field, 1 AS v
        UNION ALL
        SELECT field, CASE WHEN field = 'amount' THEN COALESCE(OLD.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(OLD.fields, '$.' || substr(field, 8)) AS REAL), 0) * 100) AS INTEGER) END
        FROM summable_fields WHERE kind = OLD.kind) f
    WHERE o.kind = OLD.kind AND f.v <> 0
    ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = total + excluded.total;
    INSERT INTO owner_totals (tenant_id, kind, owner, status, currency, field, total)
    SELECT NEW.tenant_id, NEW.kind, COALESCE(CAST(json_extract(NEW.fields, o.path) AS TEXT), ''), COALESCE(NEW.status, ''), NEW.currency, f.field, f.v
    FROM owner_fields o, (
        SELECT '' AS field, 1 AS v
        UNION ALL
        SELECT field, CASE WHEN field = 'amount' THEN COALESCE(NEW.amount, 0)
            ELSE CAST(ROUND(COALESCE(CAST(json_extract(NEW.fields, '$.' || substr(field, 8)) AS REAL), 0) * 100) AS INTEGER) END
        FROM summable_fields WHERE kind = NEW.kind) f
    WHERE o.kind = NEW.kind AND f.v <> 0
    ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = total + excluded.total;
END;
