-- Records keep their document as SQLite's binary JSON (JSONB) rather than
-- text: json_extract and the other JSON functions read it as it is, where
-- text is parsed again for every row a statement reads a field of (a list
-- showing or sorting by a document field: 5.8 µs a row as text, 2.6 as
-- JSONB, measured on the benchmark's projects). The statements write
-- jsonb(?) and read json(fields) (sqlstore's docMarker and fieldsMarker);
-- the JSON functions take either form, so this only converts what is here.
-- The column keeps its declared type: a TEXT column stores a BLOB as is.
UPDATE records SET fields = jsonb(fields) WHERE typeof(fields) = 'text';
