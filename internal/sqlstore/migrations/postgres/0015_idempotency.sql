-- Creates under concurrency (issue 15).
--
-- Record ids of creates made in the portal (standalone mode) come from
-- tenant_sequences, row (tenant, 'record:<kind>'), whose lock the create's
-- transaction holds until it ends: two creates never take the same id,
-- where MAX(id) + 1 let them collide on the primary key.
--
-- idempotency_keys remembers, for 24 hours, the Idempotency-Key of each
-- create and the record it made: a create repeated with the same key by the
-- same user answers that record instead of making a second one, on any
-- instance. The key row is written first in the create's transaction, so a
-- repeat that arrives while the first is still running waits for it and
-- then finds its record. fingerprint is a hash of what was sent, so a key
-- reused for a different request is refused rather than answered with
-- another's record.
CREATE TABLE idempotency_keys (
    tenant_id   TEXT   NOT NULL REFERENCES tenants (id),
    user_id     BIGINT NOT NULL,
    key         TEXT   NOT NULL,
    fingerprint TEXT   NOT NULL,
    kind        TEXT   NOT NULL,
    record_id   BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (tenant_id, created_at);
