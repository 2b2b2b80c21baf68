-- Creates under concurrency (issue 15).
--
-- Record ids of creates made in the portal (standalone mode) come from
-- tenant_sequences, row (tenant, 'record:<kind>'), as on PostgreSQL (where
-- the table numbers feedback and audit entries too). One writer at a time
-- makes it race-free here; it also means an id is never given twice, even
-- after the newest record was deleted.
--
-- idempotency_keys remembers, for 24 hours, the Idempotency-Key of each
-- create and the record it made: a create repeated with the same key by the
-- same user answers that record instead of making a second one. fingerprint
-- is a hash of what was sent, so a key reused for a different request is
-- refused rather than answered with another's record.
CREATE TABLE tenant_sequences (
    tenant_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,  -- what is numbered
    last      INTEGER NOT NULL,  -- the last number given
    PRIMARY KEY (tenant_id, name)
);

CREATE TABLE idempotency_keys (
    tenant_id   TEXT    NOT NULL REFERENCES tenants (id),
    user_id     INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    record_id   INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (tenant_id, created_at);
