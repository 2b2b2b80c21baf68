-- Money in its own currency (issue 34).
--
-- A record's money values (its amount and the money fields of its
-- document) are in the currency of the record: a transaction's own, an
-- entity's subsidiary's. `currency` holds its ISO 4217 code when that is
-- not the tenant's base currency, '' when it is, so a one-currency account
-- stores nothing new and a change of the base currency needs no rewrite.
-- Totals never add different currencies: they group by this column.
ALTER TABLE records ADD COLUMN currency TEXT NOT NULL DEFAULT '';

-- "Has this kind any record in another currency?": one seek, so an
-- unfiltered list in a one-currency account still reads its kept totals.
-- Partial: a one-currency account's rows are not in it at all.
CREATE INDEX records_foreign_currency ON records (tenant_id, kind, currency) WHERE currency <> '';

-- The covering indexes of 0026 hold the currency too: a page showing
-- amounts reads the index alone, as before.
DROP INDEX records_title;
CREATE INDEX records_title ON records (tenant_id, kind, title, id,
    code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, currency);
DROP INDEX records_status;
CREATE INDEX records_status ON records (tenant_id, kind, status, title, id,
    code, parent_id, parent_name, project_id, project_name, amount, occurred_on, currency);
DROP INDEX records_date;
CREATE INDEX records_date ON records (tenant_id, kind, occurred_on, id,
    title, code, status, parent_id, parent_name, project_id, project_name, amount, currency);
ANALYZE records_title;
ANALYZE records_status;
ANALYZE records_date;

-- The tenant's base currency (ISO 4217), as its ERP account has it (the
-- sync reads it) or as configured; '' until known.
ALTER TABLE tenants ADD COLUMN base_currency TEXT NOT NULL DEFAULT '';

-- Records synced before this migration say nothing of their currency
-- (''), which reads as the base currency: every kind's next pull starts
-- from the beginning, so each record comes again with its own. (Its
-- deletions are read from the start too.)
UPDATE sync_state SET cp_modified = 0, cp_id = 0, deleted_since = 0;
