-- Tenants and the record replica. Times are unix milliseconds; dates are
-- ISO yyyy-mm-dd text; amounts are integer hundredths.
CREATE TABLE tenants (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE records (
    tenant_id   TEXT    NOT NULL REFERENCES tenants (id),
    kind        TEXT    NOT NULL,
    id          INTEGER NOT NULL,
    external_id TEXT,
    title       TEXT    NOT NULL,
    code        TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL DEFAULT '',
    parent_id   INTEGER,
    project_id  INTEGER,
    parent_name  TEXT   NOT NULL DEFAULT '',  -- refName of parent_id, for lists without the document
    project_name TEXT   NOT NULL DEFAULT '',
    amount      INTEGER,
    occurred_on TEXT    NOT NULL DEFAULT '',  -- '' when unknown
    modified_at INTEGER NOT NULL,
    fields      TEXT    NOT NULL,
    PRIMARY KEY (tenant_id, kind, id)
);
-- A rowid table, not WITHOUT ROWID: documents of 0.5-2 KB overflow a
-- WITHOUT ROWID page and doubled the file size at a million projects.

CREATE INDEX records_title    ON records (tenant_id, kind, title, id);
CREATE INDEX records_status   ON records (tenant_id, kind, status, title, id);
CREATE INDEX records_code     ON records (tenant_id, kind, code, id);
CREATE INDEX records_modified ON records (tenant_id, kind, modified_at, id);
CREATE INDEX records_date     ON records (tenant_id, kind, occurred_on, id);
-- Lists sort unknown amounts as 0; the index holds the same expression.
CREATE INDEX records_amount   ON records (tenant_id, kind, (COALESCE(amount, 0)), id);
CREATE INDEX records_parent   ON records (tenant_id, parent_id, kind) WHERE parent_id IS NOT NULL;
CREATE INDEX records_project  ON records (tenant_id, project_id, kind) WHERE project_id IS NOT NULL;

CREATE TABLE files (
    tenant_id    TEXT    NOT NULL REFERENCES tenants (id),
    id           INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    record_id    INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    content_type TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    modified_at  INTEGER NOT NULL,
    content      BLOB    NOT NULL,
    PRIMARY KEY (tenant_id, id)
);

CREATE INDEX files_record ON files (tenant_id, kind, record_id);

-- Secondary indexes dropped for a bulk load and not yet rebuilt; Open
-- rebuilds them, so a load killed half-way loses no index.
CREATE TABLE pending_indexes (
    name TEXT PRIMARY KEY,
    ddl  TEXT NOT NULL
);
