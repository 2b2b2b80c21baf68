-- A tenant-wide default list per kind was stored here, but nothing in the
-- product ever set one: each user's default list lives in their app
-- (SPEC §4, "Default lists"), which names it in every list call. Reading
-- this table cost every list request a query for a row that never exists.
DROP TABLE list_defaults;
