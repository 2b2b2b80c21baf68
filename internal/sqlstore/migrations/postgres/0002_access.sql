-- Portal users, roles, menu layouts, sessions and the audit log.
CREATE TABLE users (
    tenant_id  TEXT    NOT NULL REFERENCES tenants (id),
    id         BIGINT  NOT NULL,
    uid        TEXT,               -- identity-service uid, learned at first sign-in
    email      TEXT    NOT NULL,   -- lower-case
    full_name  TEXT    NOT NULL,
    disabled   BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX users_uid   ON users (tenant_id, uid) WHERE uid IS NOT NULL;
CREATE UNIQUE INDEX users_email ON users (tenant_id, email);

CREATE TABLE layouts (
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    id        TEXT NOT NULL,
    name      TEXT NOT NULL,
    items     JSONB NOT NULL,      -- menu tree
    PRIMARY KEY (tenant_id, id)
);

CREATE TABLE roles (
    tenant_id   TEXT    NOT NULL REFERENCES tenants (id),
    id          BIGINT  NOT NULL,
    key         TEXT    NOT NULL,  -- the role's stable _id
    name        TEXT    NOT NULL,
    type        TEXT    NOT NULL,
    layout_id   TEXT,              -- NULL: "Missing layout configuration."
    permissions TEXT    NOT NULL,  -- JSON array of names
    PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX roles_key ON roles (tenant_id, key);

CREATE TABLE user_roles (
    tenant_id TEXT    NOT NULL,
    user_id   BIGINT  NOT NULL,
    role_id   BIGINT  NOT NULL,
    position  BIGINT  NOT NULL,    -- order in the user's role list; the first is the default
    PRIMARY KEY (tenant_id, user_id, role_id),
    FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
    FOREIGN KEY (tenant_id, role_id) REFERENCES roles (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE sessions (
    tenant_id  TEXT    NOT NULL REFERENCES tenants (id),
    id         TEXT    NOT NULL,   -- the refresh-token family
    user_id    BIGINT  NOT NULL,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,   -- the family's absolute end
    revoked_at BIGINT,
    PRIMARY KEY (tenant_id, id)
);

CREATE TABLE refresh_tokens (
    tenant_id  TEXT    NOT NULL,
    hash       TEXT    NOT NULL,   -- SHA-256 of the opaque token; the token itself is never stored
    session_id TEXT    NOT NULL,
    expires_at BIGINT  NOT NULL,
    used_at    BIGINT,            -- set on rotation; a second use revokes the family
    PRIMARY KEY (tenant_id, hash)
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (tenant_id, session_id);

CREATE TABLE audit_log (
    tenant_id TEXT    NOT NULL,
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at        BIGINT  NOT NULL,
    event     TEXT    NOT NULL,    -- login, login_failed, role_switch, logout, refresh_reuse
    user_id   BIGINT,
    ip        TEXT    NOT NULL,
    detail    TEXT    NOT NULL     -- JSON object
);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, at);

-- Deployment-wide secrets (the session signing key), shared by every
-- instance through the database. Not tenant data.
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BYTEA NOT NULL
);
