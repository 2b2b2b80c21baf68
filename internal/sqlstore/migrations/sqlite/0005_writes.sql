-- Create and edit (issue 6). A record's write state: '' when the ERP has
-- it as shown, 'pending' while the portal's write is on its way, 'failed'
-- with the ERP's message.
ALTER TABLE records ADD COLUMN write_state TEXT NOT NULL DEFAULT '';
ALTER TABLE records ADD COLUMN write_error TEXT NOT NULL DEFAULT '';

-- Audit entries about a record (create, edit) name it, for its history.
ALTER TABLE audit_log ADD COLUMN role_id INTEGER;
ALTER TABLE audit_log ADD COLUMN kind TEXT;
ALTER TABLE audit_log ADD COLUMN record_id INTEGER;
CREATE INDEX audit_log_record ON audit_log (tenant_id, kind, record_id, id) WHERE record_id IS NOT NULL;
