-- Notes and files added in the portal (issue 16). A file the portal adds
-- to a record in ERP mode waits here, content and all, until its outbox
-- entry has delivered it: write_state 'pending' while on its way, 'failed'
-- with the ERP's message, '' once the ERP has it (erp_id, its id there;
-- the ERP's own listing shows it from then on). Files of a standalone
-- portal, and those of the demo, are '' from the start.
ALTER TABLE files ADD COLUMN write_state TEXT NOT NULL DEFAULT '';
ALTER TABLE files ADD COLUMN write_error TEXT NOT NULL DEFAULT '';
ALTER TABLE files ADD COLUMN erp_id BIGINT;
