-- Each record that belongs to a project carries its project's owner
-- (issue 35): project_owner is the id of the project's owner reference
-- (owner_fields' path for kind 'project', the project manager), as text,
-- as filters compare a reference; '' when the project has none or is not
-- replicated (yet); NULL for a record of no project. project_id always
-- names a project (records.Field's ColProject references kind
-- "project"), so the kind is named here.
--
-- A rule through the project ("job.projectmanager eq $me": a project
-- manager's invoices, vendor bills and billing) is then the condition
-- project_owner = ?, an index walk in the list's order
-- (records_project_owner_date, _title), where it was a look-up of each
-- record's project along the list's sort (about 1,000 invoices for a page
-- of 50 of a manager's at a million projects: 2-3% of the same list
-- without the rule).
--
-- Kept by the triggers below in the write's transaction: a record's own
-- when it is written with a project or moved to another (after the row is
-- in, as SQLite has no BEFORE trigger that sets a column), and every
-- record of a project when the project is written (it may arrive after
-- them: a sync reads kinds in any order), its owner changes, or it goes.
-- None of the records' other triggers fires on a change of project_owner
-- alone (each names its columns). A bulk load, which runs without
-- triggers, and a change of the project's owner field set them all afresh
-- (projectOwnersAfresh, in Go).
--
-- An expand step: the previous release's writes fire these triggers too.
-- oldest binary: 31
ALTER TABLE records ADD COLUMN project_owner TEXT;
-- The records' projects' owners (none when the project's owner field is
-- not known: '' where a record reads it).
CREATE VIEW project_owners AS
    SELECT p.tenant_id, p.id, COALESCE(CAST(json_extract(p.fields, o.path) AS TEXT), '') AS owner
    FROM records p, owner_fields o WHERE p.kind = 'project' AND o.kind = 'project';
UPDATE records SET project_owner = COALESCE((SELECT owner FROM project_owners p
        WHERE p.tenant_id = records.tenant_id AND p.id = records.project_id), '')
    WHERE project_id IS NOT NULL;

-- A manager's records of a kind in a list's default order (by date: each
-- kind with a project sorts by its date, newest first) and by name,
-- carrying what a page shows, as the owner's own index (0031's, made by
-- IndexDocumentFields) does.
CREATE INDEX records_project_owner_date ON records (tenant_id, kind, project_owner, occurred_on, id,
    title, code, status, parent_id, parent_name, project_id, project_name, amount, currency, modified_at)
    WHERE project_owner IS NOT NULL;
CREATE INDEX records_project_owner_title ON records (tenant_id, kind, project_owner, title, id,
    code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, currency, modified_at)
    WHERE project_owner IS NOT NULL;

CREATE TRIGGER records_project_owner_ai AFTER INSERT ON records WHEN new.project_id IS NOT NULL
BEGIN
    UPDATE records SET project_owner = COALESCE((SELECT owner FROM project_owners p
            WHERE p.tenant_id = new.tenant_id AND p.id = new.project_id), '')
        WHERE rowid = new.rowid;
END;
CREATE TRIGGER records_project_owner_au AFTER UPDATE OF project_id ON records
WHEN old.project_id IS NOT new.project_id
BEGIN
    UPDATE records SET project_owner = CASE WHEN new.project_id IS NULL THEN NULL
            ELSE COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = new.tenant_id AND p.id = new.project_id), '') END
        WHERE rowid = new.rowid;
END;

-- A project written: its records follow its owner (records_project finds
-- them); a project gone, or renumbered, leaves its records with none.
CREATE TRIGGER records_projects_owner_ai AFTER INSERT ON records WHEN new.kind = 'project'
BEGIN
    UPDATE records SET project_owner = COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = new.tenant_id AND p.id = new.id), '')
        WHERE tenant_id = new.tenant_id AND project_id = new.id
            AND project_owner IS NOT COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = new.tenant_id AND p.id = new.id), '');
END;
CREATE TRIGGER records_projects_owner_au AFTER UPDATE OF fields, id ON records
WHEN new.kind = 'project' AND (old.fields IS NOT new.fields OR old.id IS NOT new.id)
BEGIN
    UPDATE records SET project_owner = '' WHERE tenant_id = old.tenant_id AND project_id = old.id AND old.id IS NOT new.id;
    UPDATE records SET project_owner = COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = new.tenant_id AND p.id = new.id), '')
        WHERE tenant_id = new.tenant_id AND project_id = new.id
            AND project_owner IS NOT COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = new.tenant_id AND p.id = new.id), '');
END;
CREATE TRIGGER records_projects_owner_ad AFTER DELETE ON records WHEN old.kind = 'project'
BEGIN
    UPDATE records SET project_owner = '' WHERE tenant_id = old.tenant_id AND project_id = old.id AND project_owner IS NOT '';
END;
