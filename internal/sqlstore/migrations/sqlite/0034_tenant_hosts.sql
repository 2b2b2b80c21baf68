-- Many companies on one deployment (issue 39): each tenant answers at its
-- own host names (tenant_hosts; a host belongs to one tenant), its users
-- may sign in to an identity-service tenant of another name
-- (identity_tenant, '' when it is the tenant's id), and an operator may
-- suspend it (suspended_at, Unix ms; NULL while it is active): its data
-- stays, its sign-in, sessions and sync stop. Written by `portico tenants`.
--
-- Host names are stored as tenancy.ParseHost leaves them (lower case, no
-- port, no trailing dot), so the primary key is the one-tenant rule.
--
-- An expand step: new columns with a default or nullable, and a new
-- table, none of which the previous release reads.
-- oldest binary: 31
ALTER TABLE tenants ADD COLUMN identity_tenant TEXT NOT NULL DEFAULT '';
ALTER TABLE tenants ADD COLUMN suspended_at INTEGER;

CREATE TABLE tenant_hosts (
    host      TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants (id)
) WITHOUT ROWID;
