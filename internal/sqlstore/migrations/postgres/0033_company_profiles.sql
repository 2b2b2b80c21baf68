-- The company's own profile (issue 38): the name, legal name, address and
-- contact lines its documents (an invoice, a vendor bill) carry as their
-- letterhead, printed or saved as a PDF. One row per tenant, its values
-- as company.Profile.Clean leaves them; written by the ERP sync from the
-- account (NetSuite: the root subsidiary) and by `portico seed` for the
-- demo company. A tenant without a row reads as its name alone
-- (tenants.name).
--
-- address_lines holds the street lines joined by line feeds (no line
-- holds one). updated_at is when the row last changed (Unix ms).
--
-- An expand step: a new table, which the previous release never reads.
-- oldest binary: 31
CREATE TABLE company_profiles (
    tenant_id     TEXT    PRIMARY KEY REFERENCES tenants (id),
    name          TEXT    NOT NULL,
    legal_name    TEXT    NOT NULL DEFAULT '',
    address_lines TEXT    NOT NULL DEFAULT '',
    city          TEXT    NOT NULL DEFAULT '',
    region        TEXT    NOT NULL DEFAULT '',
    postal_code   TEXT    NOT NULL DEFAULT '',
    country       TEXT    NOT NULL DEFAULT '',
    phone         TEXT    NOT NULL DEFAULT '',
    email         TEXT    NOT NULL DEFAULT '',
    tax_id        TEXT    NOT NULL DEFAULT '',
    updated_at    BIGINT  NOT NULL
);
