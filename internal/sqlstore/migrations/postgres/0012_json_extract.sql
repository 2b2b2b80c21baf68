-- Account fields (issue 14) live in the record's document; lists read,
-- filter and sort them with json_extract(fields, '$.name[.member]'),
-- which SQLite has built in. This is the same name here (the value as
-- text), so one statement serves both engines.
CREATE FUNCTION json_extract(doc jsonb, path text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN doc #>> string_to_array(substr(path, 3), '.');
