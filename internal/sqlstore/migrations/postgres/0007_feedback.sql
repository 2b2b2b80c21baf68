-- Feedback submissions (issue 6), with an optional attachment, and where
-- their forwarding to the ERP stands ('' forwarded, 'pending', 'failed').
CREATE TABLE feedback (
    id          BIGSERIAL PRIMARY KEY,
    tenant_id   TEXT    NOT NULL REFERENCES tenants (id),
    at          BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    role_id     BIGINT  NOT NULL,
    category    TEXT    NOT NULL,
    message     TEXT    NOT NULL,
    page        TEXT    NOT NULL,
    file_name   TEXT    NOT NULL DEFAULT '',
    file_type   TEXT    NOT NULL DEFAULT '',
    file_size   BIGINT  NOT NULL DEFAULT 0,
    file        BYTEA,
    erp_state   TEXT    NOT NULL DEFAULT '',
    erp_error   TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX feedback_tenant ON feedback (tenant_id, id);
