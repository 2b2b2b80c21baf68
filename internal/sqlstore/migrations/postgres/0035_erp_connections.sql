-- A NetSuite connection per tenant (issue 39): the account's settings in
-- clear (JSON: account, base URL, auth, client and certificate ids,
-- concurrency, RESTlet, sync interval), its mapping (YAML, '' for the
-- shipped default) and its credentials sealed (package secretbox: AES-GCM
-- under a key the database never holds, bound to the tenant). Written by
-- `portico netsuite connect -tenant`, read by the servers and the sync.
--
-- An expand step: a new table the previous release does not read.
-- oldest binary: 31
CREATE TABLE erp_connections (
    tenant_id  TEXT PRIMARY KEY REFERENCES tenants (id),
    settings   TEXT NOT NULL,
    mapping    TEXT NOT NULL DEFAULT '',
    secrets    TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
