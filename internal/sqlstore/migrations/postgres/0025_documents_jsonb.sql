-- SQLite now keeps records' documents as JSONB too (its migration 0025)
-- and merges a pulled or edited document in with jsonb_patch, which keeps
-- it JSONB; this is the same name here (json_patch, migration 0009), so
-- one statement still serves both engines.
CREATE FUNCTION jsonb_patch(a jsonb, b jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN json_patch(a, b);
