-- Feedback and audit ids are counted per tenant (issue 17): with one
-- sequence across tenants, the gaps between a tenant's own ids told it how
-- busy the others were.
--
-- The old global id stays as row_id, a row key that is never shown; id
-- becomes the tenant's own number, 1, 2, 3, ... Existing rows are numbered
-- in the order they were written, so paging and "newest first" are
-- unchanged. A row inserted without an id gets the tenant's next one from
-- the trigger (SQLite has one writer at a time, so MAX + 1 cannot race).

ALTER TABLE feedback RENAME COLUMN id TO row_id;
ALTER TABLE feedback ADD COLUMN id INTEGER;
UPDATE feedback SET id = n.seq
FROM (SELECT row_id, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY row_id) AS seq FROM feedback) AS n
WHERE n.row_id = feedback.row_id;
DROP INDEX feedback_tenant;
CREATE UNIQUE INDEX feedback_tenant ON feedback (tenant_id, id);
CREATE TRIGGER feedback_id AFTER INSERT ON feedback WHEN NEW.id IS NULL
BEGIN
    UPDATE feedback SET id = (SELECT COALESCE(MAX(id), 0) + 1 FROM feedback WHERE tenant_id = NEW.tenant_id)
    WHERE row_id = NEW.row_id;
END;

ALTER TABLE audit_log RENAME COLUMN id TO row_id;
ALTER TABLE audit_log ADD COLUMN id INTEGER;
UPDATE audit_log SET id = n.seq
FROM (SELECT row_id, ROW_NUMBER() OVER (PARTITION BY tenant_id ORDER BY row_id) AS seq FROM audit_log) AS n
WHERE n.row_id = audit_log.row_id;
CREATE UNIQUE INDEX audit_log_tenant_id ON audit_log (tenant_id, id);
DROP INDEX audit_log_record;
CREATE INDEX audit_log_record ON audit_log (tenant_id, kind, record_id, id) WHERE record_id IS NOT NULL;
CREATE TRIGGER audit_log_id AFTER INSERT ON audit_log WHEN NEW.id IS NULL
BEGIN
    UPDATE audit_log SET id = (SELECT COALESCE(MAX(id), 0) + 1 FROM audit_log WHERE tenant_id = NEW.tenant_id)
    WHERE row_id = NEW.row_id;
END;
