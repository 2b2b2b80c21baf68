-- Each record that belongs to a project carries its project's owner
-- (issue 35): see SQLite's 0038. The same column and index; a record's own
-- is set before its row is written (BEFORE INSERT OR UPDATE OF
-- project_id), and a project's records follow it in one statement per
-- write of projects (a statement-level trigger over its transition
-- tables, as 0031's owner totals).
--
-- Under READ COMMITTED a record written beside a change of its project's
-- owner could read the owner the change replaces, and the change's update
-- of the project's records would not see the record (not committed yet):
-- the record would keep the old owner. So a record's trigger reads its
-- project FOR SHARE, which waits for a change of the project to commit
-- (and then reads its new owner) or makes the change wait for the record
-- (whose row the change's update then sees). A transaction that changes
-- records of a project and, after them, the project itself can deadlock
-- with one that does the reverse; PostgreSQL ends one of them, whose
-- write fails and is retried as any failed write is.
--
-- An expand step: the previous release's writes fire these triggers too.
-- oldest binary: 31
--
-- Writes of records wait from the start (see 0032).
LOCK TABLE records IN SHARE ROW EXCLUSIVE MODE;
ALTER TABLE records ADD COLUMN project_owner TEXT;
UPDATE records r SET project_owner = COALESCE((SELECT CAST(json_extract(p.fields, o.path) AS TEXT)
        FROM owner_fields o, records p
        WHERE o.kind = 'project' AND p.tenant_id = r.tenant_id AND p.kind = 'project' AND p.id = r.project_id), '')
    WHERE project_id IS NOT NULL;

CREATE INDEX records_project_owner_date ON records (tenant_id, kind, project_owner, occurred_on, id)
    INCLUDE (title, code, status, parent_id, parent_name, project_id, project_name, amount, currency, modified_at)
    WHERE project_owner IS NOT NULL;
CREATE INDEX records_project_owner_title ON records (tenant_id, kind, project_owner, title, id)
    INCLUDE (code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, currency, modified_at)
    WHERE project_owner IS NOT NULL;

-- A project's owner as its records carry it.
CREATE FUNCTION project_owner_of(doc jsonb) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
    RETURN COALESCE((SELECT CAST(json_extract(doc, o.path) AS TEXT) FROM owner_fields o WHERE o.kind = 'project'), '');

CREATE FUNCTION records_project_owner() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    doc jsonb;
BEGIN
    IF NEW.project_id IS NULL THEN
        NEW.project_owner := NULL;
    ELSIF TG_OP = 'INSERT' OR NEW.project_id IS DISTINCT FROM OLD.project_id OR NEW.project_owner IS NULL THEN
        SELECT p.fields INTO doc FROM records p
            WHERE p.tenant_id = NEW.tenant_id AND p.kind = 'project' AND p.id = NEW.project_id FOR SHARE;
        NEW.project_owner := CASE WHEN doc IS NULL THEN '' ELSE project_owner_of(doc) END;
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER records_project_owner_set BEFORE INSERT OR UPDATE OF project_id ON records
    FOR EACH ROW EXECUTE FUNCTION records_project_owner();

-- Projects written: their records follow their owners (records_project
-- finds them); projects gone, or renumbered, leave theirs with none.
-- (A statement-level trigger fires for a statement of no rows too, its
-- own update of the records among them: it returns at once when no
-- project was written.)
CREATE FUNCTION records_projects_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT 1 FROM old_rows WHERE kind = 'project') THEN
            RETURN NULL;
        END IF;
        UPDATE records r SET project_owner = '' FROM old_rows o
            WHERE o.kind = 'project' AND r.tenant_id = o.tenant_id AND r.project_id = o.id AND r.project_owner <> '';
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        IF NOT EXISTS (SELECT 1 FROM old_rows WHERE kind = 'project') AND NOT EXISTS (SELECT 1 FROM new_rows WHERE kind = 'project') THEN
            RETURN NULL;
        END IF;
        UPDATE records r SET project_owner = '' FROM old_rows o
            WHERE o.kind = 'project' AND r.tenant_id = o.tenant_id AND r.project_id = o.id AND r.project_owner <> ''
                AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.tenant_id = o.tenant_id AND n.kind = 'project' AND n.id = o.id);
    END IF;
    IF TG_OP = 'INSERT' AND NOT EXISTS (SELECT 1 FROM new_rows WHERE kind = 'project') THEN
        RETURN NULL;
    END IF;
    UPDATE records r SET project_owner = project_owner_of(n.fields) FROM new_rows n
        WHERE n.kind = 'project' AND r.tenant_id = n.tenant_id AND r.project_id = n.id
            AND r.project_owner IS DISTINCT FROM project_owner_of(n.fields);
    RETURN NULL;
END;
$$;
CREATE TRIGGER records_projects_owner_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_projects_owner();
CREATE TRIGGER records_projects_owner_update AFTER UPDATE ON records
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION records_projects_owner();
CREATE TRIGGER records_projects_owner_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION records_projects_owner();
