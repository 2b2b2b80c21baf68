-- The ERP sync (issue 8). Per tenant and kind: where the pull stands (the
-- last (modified, id) stored, the deletions seen up to) and how its runs
-- went. Times are unix milliseconds.
CREATE TABLE sync_state (
    tenant_id      TEXT    NOT NULL REFERENCES tenants (id),
    kind           TEXT    NOT NULL,
    cp_modified    INTEGER NOT NULL DEFAULT 0,
    cp_id          INTEGER NOT NULL DEFAULT 0,
    deleted_since  INTEGER NOT NULL DEFAULT 0,
    last_run       INTEGER NOT NULL DEFAULT 0,
    last_success   INTEGER NOT NULL DEFAULT 0,
    pulled_total   INTEGER NOT NULL DEFAULT 0,
    last_pulled    INTEGER NOT NULL DEFAULT 0,
    last_deleted   INTEGER NOT NULL DEFAULT 0,
    last_error     TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (tenant_id, kind)
);

-- Who may pull: one instance at a time holds a tenant's lease until it
-- expires (renewed while it works).
CREATE TABLE sync_leases (
    tenant_id TEXT    NOT NULL REFERENCES tenants (id),
    name      TEXT    NOT NULL,
    owner     TEXT    NOT NULL,
    until     INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, name)
);

-- The durable outbox: every create and edit, written in the same
-- transaction as the local change, until the ERP has it (synced) or
-- refused it (failed, with its message) or the user discarded it.
-- record_id is the portal's id (provisional for a create until erp_id).
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id   TEXT    NOT NULL REFERENCES tenants (id),
    kind        TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    op          TEXT    NOT NULL,
    fields      TEXT    NOT NULL,
    idem_key    TEXT    NOT NULL UNIQUE,
    state       TEXT    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     INTEGER NOT NULL,
    error       TEXT    NOT NULL DEFAULT '',
    erp_id      INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX outbox_open ON outbox (tenant_id, state, next_at) WHERE state IN ('pending', 'failed');
CREATE INDEX outbox_record ON outbox (tenant_id, kind, record_id, id);
