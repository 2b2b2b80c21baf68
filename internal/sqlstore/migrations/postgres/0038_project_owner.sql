-- Each record that belongs to a project carries its project's owner
-- (issue 35): see SQLite's 0038. The same column and index; a record's own
-- is set before its row is written (BEFORE INSERT OR UPDATE OF
-- project_id), and a project's records follow it in one statement per
-- write of projects (a statement-level trigger over its transition
-- tables, as 0031's owner totals).
--
-- Under READ COMMITTED a record written beside a write of its project
-- could read the project as it was (or not find it, while the project's
-- insert is not committed), and the project's update of its records
-- would not see the record (not committed either): the record would keep
-- the old owner, or none. So the two take a lock of the tenant's project
-- owners, the record's trigger shared, the projects' trigger exclusive
-- before it updates their records: a record read beside a project's write
-- is committed before that update starts (and the update, a statement
-- after the lock, sees it), or is read after the project is committed.
-- The lock is PostgreSQL's advisory lock (a row lock cannot wait for a
-- project that is not there yet), taken only by the writes that read or
-- change owners. A transaction that writes records of a project and then
-- a project of the same tenant can deadlock with one that does the
-- reverse; PostgreSQL ends one of them, and the API answers it as the
-- database being unavailable for a moment (503, Retry-After).
--
-- An expand step: the previous release's writes fire these triggers too.
-- oldest binary: 31
--
-- Reads and writes of records wait from the start, for the lock the
-- column's addition takes: taken later, as an upgrade of 0032's lock, it
-- deadlocked in the rolling-upgrade test with a write that had read
-- records before it wrote one.
LOCK TABLE records IN ACCESS EXCLUSIVE MODE;
ALTER TABLE records ADD COLUMN project_owner TEXT;

-- A project's owner as its records carry it.
CREATE FUNCTION project_owner_of(doc jsonb) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
    RETURN COALESCE((SELECT CAST(json_extract(doc, o.path) AS TEXT) FROM owner_fields o WHERE o.kind = 'project'), '');
-- The records' projects' owners (an owner of no project is '').
CREATE VIEW project_owners AS
    SELECT tenant_id, id, project_owner_of(fields) AS owner FROM records WHERE kind = 'project';
-- The lock of a tenant's project owners (see above).
CREATE FUNCTION project_owners_lock(tenant text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN hashtextextended('portico project owners ' || tenant, 0);

-- The backfill changes no count or total: their statement triggers are
-- left out of it.
ALTER TABLE records DISABLE TRIGGER records_totals_update, DISABLE TRIGGER records_owner_update;
UPDATE records r SET project_owner = COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = r.tenant_id AND p.id = r.project_id), '')
    WHERE project_id IS NOT NULL;
ALTER TABLE records ENABLE TRIGGER records_totals_update, ENABLE TRIGGER records_owner_update;

CREATE INDEX records_project_owner_date ON records (tenant_id, kind, project_owner, occurred_on, id)
    INCLUDE (title, code, status, parent_id, parent_name, project_id, project_name, amount, currency, modified_at)
    WHERE project_owner IS NOT NULL;
CREATE INDEX records_project_owner_title ON records (tenant_id, kind, project_owner, title, id)
    INCLUDE (code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, currency, modified_at)
    WHERE project_owner IS NOT NULL;

CREATE FUNCTION records_project_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.project_id IS NULL THEN
        NEW.project_owner := NULL;
    ELSIF TG_OP = 'INSERT' OR NEW.project_id IS DISTINCT FROM OLD.project_id OR NEW.project_owner IS NULL THEN
        PERFORM pg_advisory_xact_lock_shared(project_owners_lock(NEW.tenant_id));
        NEW.project_owner := COALESCE((SELECT owner FROM project_owners p WHERE p.tenant_id = NEW.tenant_id AND p.id = NEW.project_id), '');
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
        PERFORM pg_advisory_xact_lock(project_owners_lock(t)) FROM (SELECT DISTINCT tenant_id AS t FROM old_rows WHERE kind = 'project' ORDER BY 1) o;
        UPDATE records r SET project_owner = '' FROM old_rows o
            WHERE o.kind = 'project' AND r.tenant_id = o.tenant_id AND r.project_id = o.id AND r.project_owner <> '';
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        -- Only when a project's owner or id changed (a sync's re-read of
        -- unchanged projects changes none): a project row then has no
        -- new row of its id and owner.
        IF NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.kind = 'project' AND NOT EXISTS (SELECT 1 FROM new_rows n
                WHERE n.tenant_id = o.tenant_id AND n.kind = 'project' AND n.id = o.id AND project_owner_of(n.fields) = project_owner_of(o.fields))) THEN
            RETURN NULL;
        END IF;
        PERFORM pg_advisory_xact_lock(project_owners_lock(t)) FROM (SELECT tenant_id AS t FROM old_rows WHERE kind = 'project'
            UNION SELECT tenant_id FROM new_rows WHERE kind = 'project' ORDER BY 1) o;
        UPDATE records r SET project_owner = '' FROM old_rows o
            WHERE o.kind = 'project' AND r.tenant_id = o.tenant_id AND r.project_id = o.id AND r.project_owner <> ''
                AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.tenant_id = o.tenant_id AND n.kind = 'project' AND n.id = o.id);
    END IF;
    IF TG_OP = 'INSERT' THEN
        IF NOT EXISTS (SELECT 1 FROM new_rows WHERE kind = 'project') THEN
            RETURN NULL;
        END IF;
        PERFORM pg_advisory_xact_lock(project_owners_lock(t)) FROM (SELECT DISTINCT tenant_id AS t FROM new_rows WHERE kind = 'project' ORDER BY 1) o;
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
