-- Feedback and audit ids are counted per tenant (issue 17): with one
-- sequence across tenants, the gaps between a tenant's own ids told it how
-- busy the others were.
--
-- The old global id stays as row_id, a row key that is never shown; id
-- becomes the tenant's own number, 1, 2, 3, ... Existing rows are numbered
-- in the order they were written, so paging and "newest first" are
-- unchanged. A row inserted without an id gets the tenant's next one from
-- tenant_sequences, whose row for (tenant, table) is locked by the insert
-- until its transaction ends: two transactions never take the same number.
-- (Callers write the audit event last in a transaction, so that lock is
-- held only for the commit.)

CREATE TABLE tenant_sequences (
    tenant_id TEXT   NOT NULL,
    name      TEXT   NOT NULL,  -- the table numbered
    last      BIGINT NOT NULL,  -- the last number given
    PRIMARY KEY (tenant_id, name)
);

CREATE FUNCTION tenant_sequence_next() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS NULL THEN
        INSERT INTO tenant_sequences AS s (tenant_id, name, last) VALUES (NEW.tenant_id, TG_TABLE_NAME, 1)
        ON CONFLICT (tenant_id, name) DO UPDATE SET last = s.last + 1
        RETURNING s.last INTO NEW.id;
    END IF;
    RETURN NEW;
END
$$;

ALTER TABLE feedback RENAME COLUMN id TO row_id;
ALTER TABLE feedback ADD COLUMN id BIGINT;
UPDATE feedback SET id = n.seq
FROM (SELECT row_id, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY row_id) AS seq FROM feedback) AS n
WHERE n.row_id = feedback.row_id;
ALTER TABLE feedback ALTER COLUMN id SET NOT NULL;
DROP INDEX feedback_tenant;
CREATE UNIQUE INDEX feedback_tenant ON feedback (tenant_id, id);
INSERT INTO tenant_sequences (tenant_id, name, last) SELECT tenant_id, 'feedback', MAX(id) FROM feedback GROUP BY tenant_id;
CREATE TRIGGER feedback_id BEFORE INSERT ON feedback FOR EACH ROW EXECUTE FUNCTION tenant_sequence_next();

ALTER TABLE audit_log RENAME COLUMN id TO row_id;
ALTER TABLE audit_log ADD COLUMN id BIGINT;
UPDATE audit_log SET id = n.seq
FROM (SELECT row_id, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY row_id) AS seq FROM audit_log) AS n
WHERE n.row_id = audit_log.row_id;
ALTER TABLE audit_log ALTER COLUMN id SET NOT NULL;
CREATE UNIQUE INDEX audit_log_tenant_id ON audit_log (tenant_id, id);
DROP INDEX audit_log_record;
CREATE INDEX audit_log_record ON audit_log (tenant_id, kind, record_id, id) WHERE record_id IS NOT NULL;
INSERT INTO tenant_sequences (tenant_id, name, last) SELECT tenant_id, 'audit_log', MAX(id) FROM audit_log GROUP BY tenant_id;
CREATE TRIGGER audit_log_id BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION tenant_sequence_next();
