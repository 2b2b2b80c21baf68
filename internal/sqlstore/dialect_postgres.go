package sqlstore

// postgres is the server engine's dialect (PostgreSQL through pgx).
var postgres = dialect{
	name:             "postgres",
	numbered:         true,
	notifies:         true,
	lockMigrations:   "SELECT pg_advisory_lock(7265646963)",
	unlockMigrations: "SELECT pg_advisory_unlock(7265646963)",
	lockRecords:      "LOCK TABLE records IN SHARE MODE",
	includes:         true,
	analyzeIndex:     "ANALYZE records",
	number:           "json_number(fields, %s)",
	indexesOfRecords: `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'records'`,
	statement:        func(s scoped) string { return numbered(s.sql) },
	engineSearch:     postgresSearch{},
	derivedObjects: func(table, pkey string, kept func(column string) string) string {
		return `SELECT indexname, indexdef, 'DROP INDEX ' || indexname FROM pg_indexes
			WHERE schemaname = current_schema() AND tablename = '` + table + `' AND indexname <> '` + pkey + `'` + kept("indexname") + `
			UNION ALL
			SELECT t.tgname, pg_get_triggerdef(t.oid), 'DROP TRIGGER ' || t.tgname || ' ON ` + table + `'
			FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
			WHERE c.relname = '` + table + `' AND c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal`
	},
	fenceLease: scope(fenceLeaseSQL + ` FOR KEY SHARE`),
	lockLease:  scope(lockLeaseSQL + ` FOR UPDATE SKIP LOCKED`),
	appendNote: scope(`UPDATE records SET fields = jsonb_set(fields, '{notes}',
			(CASE jsonb_typeof(fields -> 'notes') WHEN 'array' THEN fields -> 'notes' ELSE '[]'::jsonb END)
			|| jsonb_build_array(CAST(? AS jsonb)))
		WHERE tenant_id = :tenant AND kind = ? AND id = ?`),
}
