-- How the ERP account fits each kind's mapping (issue 14): a kind the
-- account does not have ("not in this account: …", not retried by the
-- schedule while its mapping stays the same), the optional columns it
-- lacks, and the mapping version both were found with.
ALTER TABLE sync_state ADD COLUMN unavailable TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_state ADD COLUMN missing TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_state ADD COLUMN mapping TEXT NOT NULL DEFAULT '';
