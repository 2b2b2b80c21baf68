-- Lists of any field (issue 16).
--
-- A reference sorts by the referenced record's name, which the records
-- table keeps beside its id: these indexes make that sort a walk, as for
-- the other promoted columns. The names compare byte-wise (COLLATE "C",
-- as title, code and status do), so cursors and pages mean the same as on
-- SQLite. (Document fields get one index per kind and field, made by
-- Store.IndexDocumentFields from the kind registry.)
ALTER TABLE records ALTER COLUMN parent_name TYPE TEXT COLLATE "C";
ALTER TABLE records ALTER COLUMN project_name TYPE TEXT COLLATE "C";
CREATE INDEX records_parent_name  ON records (tenant_id, kind, parent_name, id);
CREATE INDEX records_project_name ON records (tenant_id, kind, project_name, id);

-- A document member as a number, NULL when missing or not a number (a
-- cast would fail the statement: a sync batch, an index build), as
-- SQLite's CAST reads it. Lists sort, filter and total numeric document
-- fields by it.
CREATE FUNCTION json_number(doc jsonb, path text) RETURNS double precision
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN json_extract(doc, path) ~ '^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$'
        THEN CAST(json_extract(doc, path) AS double precision) END;

-- How many records each tenant has of each kind, and the sum of every
-- summable field (money and quantity) per tenant and kind in hundredths,
-- kept by triggers in the transaction of every write (API saves, sync
-- batches): a list's total and an unfiltered list's totals are read,
-- never counted or added up. summable_fields lists the fields by their
-- column ('amount', or 'fields.<name>' for a document field); Store
-- .IndexDocumentFields keeps it equal to the registry's and sums a field
-- afresh when it joins. A bulk load, which drops the triggers, counts and
-- sums afresh when it restores them (Store.recount).
--
-- The triggers run once per statement (a sync batch's multi-row upsert is
-- one), over its transition tables, and write only what changed: a
-- re-read of unchanged records locks no counter. Rows are written in
-- key order, counts before sums, so two writers never wait for each
-- other in a cycle.
CREATE TABLE record_counts (
    tenant_id TEXT   NOT NULL,
    kind      TEXT   NOT NULL,
    n         BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, kind)
);
INSERT INTO record_counts (tenant_id, kind, n) SELECT tenant_id, kind, COUNT(*) FROM records GROUP BY tenant_id, kind;

CREATE TABLE summable_fields (
    kind  TEXT NOT NULL,
    field TEXT NOT NULL,
    PRIMARY KEY (kind, field)
);
CREATE TABLE record_sums (
    tenant_id TEXT   NOT NULL,
    kind      TEXT   NOT NULL,
    field     TEXT   NOT NULL,
    total     BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, kind, field)
);

-- A summable field's value of a record in hundredths: the amount column,
-- or the document member's number (0 when missing or not a number).
CREATE FUNCTION summable_value(field text, amount bigint, doc jsonb) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN field = 'amount' THEN COALESCE(amount, 0)
        ELSE CAST(round(COALESCE(json_number(doc, '$.' || substr(field, 8)), 0) * 100) AS bigint) END;

CREATE FUNCTION records_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_counts AS c (tenant_id, kind, n)
        SELECT tenant_id, kind, COUNT(*) FROM new_rows GROUP BY tenant_id, kind ORDER BY tenant_id, kind
        ON CONFLICT (tenant_id, kind) DO UPDATE SET n = c.n + excluded.n;
        INSERT INTO record_sums AS s (tenant_id, kind, field, total)
        SELECT r.tenant_id, r.kind, f.field, SUM(summable_value(f.field, r.amount, r.fields))
        FROM new_rows r JOIN summable_fields f ON f.kind = r.kind
        GROUP BY r.tenant_id, r.kind, f.field HAVING SUM(summable_value(f.field, r.amount, r.fields)) <> 0
        ORDER BY r.tenant_id, r.kind, f.field
        ON CONFLICT (tenant_id, kind, field) DO UPDATE SET total = s.total + excluded.total;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE record_counts c SET n = c.n - d.n
        FROM (SELECT tenant_id, kind, COUNT(*) AS n FROM old_rows GROUP BY tenant_id, kind) d
        WHERE c.tenant_id = d.tenant_id AND c.kind = d.kind;
        INSERT INTO record_sums AS s (tenant_id, kind, field, total)
        SELECT r.tenant_id, r.kind, f.field, -SUM(summable_value(f.field, r.amount, r.fields))
        FROM old_rows r JOIN summable_fields f ON f.kind = r.kind
        GROUP BY r.tenant_id, r.kind, f.field HAVING SUM(summable_value(f.field, r.amount, r.fields)) <> 0
        ORDER BY r.tenant_id, r.kind, f.field
        ON CONFLICT (tenant_id, kind, field) DO UPDATE SET total = s.total + excluded.total;
    ELSE
        INSERT INTO record_sums AS s (tenant_id, kind, field, total)
        SELECT tenant_id, kind, field, SUM(v) FROM (
            SELECT r.tenant_id, r.kind, f.field, summable_value(f.field, r.amount, r.fields) AS v
            FROM new_rows r JOIN summable_fields f ON f.kind = r.kind
            UNION ALL
            SELECT r.tenant_id, r.kind, f.field, -summable_value(f.field, r.amount, r.fields)
            FROM old_rows r JOIN summable_fields f ON f.kind = r.kind) changes
        GROUP BY tenant_id, kind, field HAVING SUM(v) <> 0
        ORDER BY tenant_id, kind, field
        ON CONFLICT (tenant_id, kind, field) DO UPDATE SET total = s.total + excluded.total;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER records_totals_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_totals();
CREATE TRIGGER records_totals_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_totals();
CREATE TRIGGER records_totals_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION records_totals();
