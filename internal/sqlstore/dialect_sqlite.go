package sqlstore

// sqlite is the embedded engine's dialect (modernc.org/sqlite).
var sqlite = dialect{
	name:             "sqlite",
	embedded:         true,
	analyzeIndex:     "ANALYZE {index}",
	unindexed:        "+(%s)",
	number:           "CAST(json_extract(fields, %s) AS REAL)",
	indexesOfRecords: `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'`,
	statement:        func(s scoped) string { return s.sqlite },
	engineSearch:     sqliteSearch{},
	derivedObjects: func(table, _ string, kept func(column string) string) string {
		return `SELECT name, sql, 'DROP ' || upper(type) || ' ' || name FROM sqlite_master
			WHERE type IN ('index', 'trigger') AND tbl_name = '` + table + `' AND sql IS NOT NULL` + kept("name")
	},
	nameVersions: true,
	fenceLease:   scope(fenceLeaseSQL + ``),
	lockLease:    scope(lockLeaseSQL + ``),
	appendNote: scope(`UPDATE records SET fields = jsonb_insert(CASE json_type(fields, '$.notes') WHEN 'array' THEN fields
			ELSE jsonb_set(fields, '$.notes', json_array()) END, '$.notes[#]', json(?))
		WHERE tenant_id = :tenant AND kind = ? AND id = ?`),
}
