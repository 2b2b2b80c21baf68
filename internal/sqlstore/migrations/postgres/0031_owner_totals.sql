-- A user's own records, counted and totalled (issue 35): see SQLite's
-- 0031. The same tables, kept by one statement-level trigger function, as
-- migration 0020's totals are: a sync batch's rows are added up in one
-- statement per table, its rows locked in key order.
--
-- An expand step: the previous release's writes fire these triggers too.
-- oldest binary: 30
CREATE TABLE owner_fields (
    kind TEXT NOT NULL PRIMARY KEY,
    path TEXT NOT NULL
);
CREATE TABLE owner_totals (
    tenant_id TEXT   NOT NULL,
    kind      TEXT   NOT NULL,
    owner     TEXT   NOT NULL,
    status    TEXT   NOT NULL,
    currency  TEXT   NOT NULL,
    field     TEXT   NOT NULL,
    total     BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, kind, owner, status, currency, field)
);

-- The count (field '') and each summable field's value of a record, by
-- tenant, kind, owner, status and currency: what the trigger adds for new rows and
-- takes out for old ones.
CREATE VIEW owner_fields_summed AS
    SELECT kind, field FROM summable_fields UNION ALL SELECT kind, '' FROM owner_fields;

CREATE FUNCTION owner_value(field text, amount bigint, doc jsonb) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN field = '' THEN 1 ELSE summable_value(field, amount, doc) END;

CREATE FUNCTION records_owner_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM owner_fields) THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO owner_totals AS t (tenant_id, kind, owner, status, currency, field, total)
        SELECT r.tenant_id, r.kind, COALESCE(CAST(json_extract(r.fields, o.path) AS TEXT), ''), COALESCE(r.status, ''), r.currency, f.field,
            SUM(owner_value(f.field, r.amount, r.fields))
        FROM new_rows r JOIN owner_fields o ON o.kind = r.kind JOIN owner_fields_summed f ON f.kind = r.kind
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING SUM(owner_value(f.field, r.amount, r.fields)) <> 0
        ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = t.total + excluded.total;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO owner_totals AS t (tenant_id, kind, owner, status, currency, field, total)
        SELECT r.tenant_id, r.kind, COALESCE(CAST(json_extract(r.fields, o.path) AS TEXT), ''), COALESCE(r.status, ''), r.currency, f.field,
            -SUM(owner_value(f.field, r.amount, r.fields))
        FROM old_rows r JOIN owner_fields o ON o.kind = r.kind JOIN owner_fields_summed f ON f.kind = r.kind
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING SUM(owner_value(f.field, r.amount, r.fields)) <> 0
        ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = t.total + excluded.total;
    ELSE
        INSERT INTO owner_totals AS t (tenant_id, kind, owner, status, currency, field, total)
        SELECT tenant_id, kind, owner, status, currency, field, SUM(v) FROM (
            SELECT r.tenant_id, r.kind, COALESCE(CAST(json_extract(r.fields, o.path) AS TEXT), '') AS owner, COALESCE(r.status, '') AS status, r.currency, f.field,
                owner_value(f.field, r.amount, r.fields) AS v
            FROM new_rows r JOIN owner_fields o ON o.kind = r.kind JOIN owner_fields_summed f ON f.kind = r.kind
            UNION ALL
            SELECT r.tenant_id, r.kind, COALESCE(CAST(json_extract(r.fields, o.path) AS TEXT), ''), COALESCE(r.status, ''), r.currency, f.field,
                -owner_value(f.field, r.amount, r.fields)
            FROM old_rows r JOIN owner_fields o ON o.kind = r.kind JOIN owner_fields_summed f ON f.kind = r.kind) changes
        GROUP BY tenant_id, kind, owner, status, currency, field HAVING SUM(v) <> 0
        ORDER BY tenant_id, kind, owner, status, currency, field
        ON CONFLICT (tenant_id, kind, owner, status, currency, field) DO UPDATE SET total = t.total + excluded.total;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER records_owner_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_owner_totals();
CREATE TRIGGER records_owner_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_owner_totals();
CREATE TRIGGER records_owner_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION records_owner_totals();
