-- Pulls merge a record's pulled fields into its stored document (issue 8)
-- with json_patch, which SQLite has built in; PostgreSQL defines it in its
-- 0009. Nothing to change here.
SELECT 1;
