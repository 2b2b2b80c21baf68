-- Feedback submissions (issue 6), with an optional attachment, and where
-- their forwarding to the ERP stands ('' forwarded, 'pending', 'failed').
CREATE TABLE feedback (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id   TEXT    NOT NULL REFERENCES tenants (id),
    at          INTEGER  NOT NULL,
    user_id     INTEGER  NOT NULL,
    role_id     INTEGER  NOT NULL,
    category    TEXT    NOT NULL,
    message     TEXT    NOT NULL,
    page        TEXT    NOT NULL,
    file_name   TEXT    NOT NULL DEFAULT '',
    file_type   TEXT    NOT NULL DEFAULT '',
    file_size   INTEGER  NOT NULL DEFAULT 0,
    file        BLOB,
    erp_state   TEXT    NOT NULL DEFAULT '',
    erp_error   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX feedback_tenant ON feedback (tenant_id, id);
