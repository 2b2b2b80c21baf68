-- Pulls merge a record's pulled fields into its stored document instead of
-- replacing it (issue 8): what only the record API gives (sublists, read
-- back after a write) stays. SQLite has json_patch built in; this is the
-- same name here, so one statement serves both engines.
CREATE FUNCTION json_patch(a jsonb, b jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN a || b;
