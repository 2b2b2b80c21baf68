-- Saved lists (list configurations) and each tenant's choice of default
-- list per kind.
CREATE TABLE list_configs (
    tenant_id  TEXT   NOT NULL REFERENCES tenants (id),
    id         TEXT   NOT NULL,
    kind       TEXT   NOT NULL,
    name       TEXT   NOT NULL,
    columns    TEXT   NOT NULL,   -- JSON array of field names
    filter     TEXT   NOT NULL,
    sort_field TEXT   NOT NULL,
    sort_dir   TEXT   NOT NULL,
    visibility TEXT   NOT NULL,   -- private | role
    role_id    BIGINT,            -- for visibility role
    owner_id   BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, id)
);
CREATE INDEX list_configs_kind ON list_configs (tenant_id, kind);

CREATE TABLE list_defaults (
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    kind      TEXT NOT NULL,
    list_id   TEXT NOT NULL,
    PRIMARY KEY (tenant_id, kind)
);
