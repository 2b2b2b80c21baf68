package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// sqliteSearch reads SQLite's search index: two full-text tables of word
// parts (migration 0010, searchindex.go), partitioned by tenant and by
// kind.
//
// After the exact names, each stage walks the index newest first and
// reads the walked entries of the tenant and kinds in the same statement:
// searchWalk entries (twice a page, so that a text the checks thin out, a
// long word or several words, still fills a page in one walk), more while
// checks or other kinds leave too few, up to searchMaxWalk. A walk reads
// one partition: the tenant's, or, for a few kinds (a kind prefix) or when
// the kinds drown among others, each kind's.
type sqliteSearch struct{}

var searchWalk = 2 * search.Limit

const searchMaxWalk = 20 * search.Limit

// searchWalkSQL walks one partition, newest first, at most a depth of
// entries (seq): of search_all for kind "" (the tenant's every kind), else
// of search_kind. A scope not numbered yet (nothing indexed) is the empty
// range. Arguments: the match, the kind twice, the depth.
func searchWalkSQL(kindPartition bool) string {
	table := "search_all"
	if kindPartition {
		table = "search_kind"
	}
	return `SELECT rowid & 1099511627775 AS seq FROM ` + table + ` WHERE ` + table + ` MATCH ?
		AND rowid >= COALESCE((SELECT no << 40 FROM search_scopes WHERE tenant_id = :tenant AND kind = ?), 0)
		AND rowid < COALESCE((SELECT (no + 1) << 40 FROM search_scopes WHERE tenant_id = :tenant AND kind = ?), 0)
		ORDER BY rowid DESC LIMIT ?`
}

// candidates: the exact names, then the stages' full-text queries (the
// name's first word marked, then words starting with the typed words,
// then containing them), each walk's entries checked for the whole text.
// Text of several words is looked up by its words' first parts, so a walk
// the checks thin out may stop at searchMaxWalk with fewer than a page.
func (sqliteSearch) candidates(ctx context.Context, t *Tenant, text string, kinds []string, limit int) ([]search.Entry, error) {
	out, err := t.exactNames(ctx, text, kinds, limit)
	if err != nil {
		return nil, err
	}
	q := newPartQuery(text)
	for _, st := range []struct {
		match string
		keep  func(search.Entry) bool
	}{{q.nameMatch(), q.startsName}, {q.match(atStart), q.holds}, {q.match(inside), q.holds}} {
		if st.match == "" {
			continue // no word to look up
		}
		found, err := t.searchStage(ctx, st.match, st.keep, kinds)
		if err != nil {
			return nil, err
		}
		if out = append(out, found...); len(found) >= search.Limit {
			break
		}
	}
	return out, nil
}

// exactNames is the first stage on SQLite: at most limit entries of kinds whose
// name is text, through the name index.
func (t *Tenant) exactNames(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	return t.searchQuery(ctx, scope(exactSQL(len(kinds), limit, "")), append(kindArgs(kinds), text)...)
}

// searchStage walks the index for match and returns the tenant's newest
// entries of the kinds that keep accepts: at least search.Limit of them
// unless there are fewer (or they lie beyond searchMaxWalk), and every one
// newer than the search.Limit-th. Each walk
// reads its entries in the same statement (a statement costs more than
// reading a few entries again at the next depth).
func (t *Tenant) searchStage(ctx context.Context, match string, keep func(search.Entry) bool, kinds []string) ([]search.Entry, error) {
	parts := kinds
	if len(kinds) > searchFewKinds {
		parts = []string{""}
	}
	for depth := searchWalk; ; {
		var found []search.Entry
		// Entries older than the oldest walked of a partition walked short
		// of its end are unseen there: only those newer than every such
		// cut are all found (the found older are a partition's, of no use
		// for the count).
		var cut int64
		exhausted := true
		for _, p := range parts {
			args := []any{match, p, p, depth}
			for _, k := range kinds {
				args = append(args, k)
			}
			walked, err := t.searchQuery(ctx, searchWalkRead(p != "", len(kinds)), args...)
			if err != nil {
				return nil, err
			}
			if len(walked) >= depth {
				exhausted, cut = false, max(cut, walked[len(walked)-1].Seq)
			}
			found = append(found, slices.DeleteFunc(walked, func(e search.Entry) bool { return e.Kind == "" || !keep(e) })...)
		}
		slices.SortFunc(found, func(a, b search.Entry) int { return cmp.Compare(b.Seq, a.Seq) })
		seen := slices.IndexFunc(found, func(e search.Entry) bool { return e.Seq < cut })
		if seen < 0 {
			seen = len(found)
		}
		switch {
		case seen >= search.Limit || exhausted:
			return found, nil
		case parts[0] == "" && len(kinds) < len(records.All()):
			// The kinds drown among the tenant's others: walk theirs.
			parts, depth = kinds, searchWalk
		case depth >= searchMaxWalk:
			return found, nil
		default:
			depth *= 5
		}
	}
}

// searchWalkRead is a walk (searchWalkSQL) and each walked entry, if it is
// the tenant's and of one of n kinds (the arguments after the walk's), else
// a row with no kind: the walk's length tells whether it saw every match.
func searchWalkRead(kindPartition bool, n int) scoped {
	return scope(fmt.Sprintf(`SELECT COALESCE(e.kind, ''), COALESCE(e.record_id, 0), COALESCE(e.name, ''),
		COALESCE(e.code, ''), COALESCE(e.status, ''), w.seq, COALESCE(e.owner, '')
		FROM (%s) w LEFT JOIN search_entries e ON e.seq = w.seq AND e.tenant_id = :tenant AND e.kind IN (%s)
		ORDER BY w.seq DESC`, searchWalkSQL(kindPartition), placeholders(n)))
}

// walk returns the entries (seq) of the tenant's partition for kind ("":
// every kind) that match, newest first, at most depth.
func (t *Tenant) walk(ctx context.Context, match, kind string, depth int) ([]int64, error) {
	seqs, err := t.queryIDs(ctx, scope(searchWalkSQL(kind != "")), match, kind, kind, depth)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return seqs, nil
}

// listText answers through the search index when that is selective, else
// by checking each record along the list's sort. Both plans check the
// text with the same LIKE on the same text, so they agree. Learning that a
// text is common walks listTextCap entries of the index (most of the cost
// of a list's page); the verdict is kept a while (commonTexts), so the
// next pages and lists of the text go straight to the probe.
func (sqliteSearch) listText(ctx context.Context, t *Tenant, q records.ListQuery) (predicate, error) {
	probe := recordHayContains(q.Text)
	pq := newPartQuery(q.Text)
	if len(pq.words) == 0 {
		return probe, nil
	}
	match := pq.match(anywhere)
	key := commonText{t.id, q.Kind, hayPattern(q.Text)}
	if t.s.commonTexts.has(key) {
		return t.fromFirstMatch(ctx, key, q, probe)
	}
	seqs, err := t.walk(ctx, match, q.Kind, listTextCap)
	if err != nil {
		return probe, err
	}
	if len(seqs) >= listTextCap {
		t.s.commonTexts.add(key)
		return t.fromFirstMatch(ctx, key, q, probe)
	}
	list, _ := json.Marshal(seqs)
	matches := `SELECT e.record_id FROM json_each(?) w CROSS JOIN search_entries e ON e.seq = w.value
		WHERE e.tenant_id = :tenant AND e.kind = ? AND ` + sqlite.hayContains()
	args := []any{string(list), q.Kind, hayPattern(q.Text)}
	return predicate{sql: `id IN (` + matches + `)`, args: args, byName: func(desc bool, after *records.Cursor, n int) predicate {
		// An entry's name is its record's title (the triggers and a bulk
		// load's fillStatement make it so): the page's records are picked
		// in the entries, and only they are read, not every match.
		dir, cmp, args := "ASC", ">", slices.Clip(args)
		if desc {
			dir, cmp = "DESC", "<"
		}
		sql := matches
		if after != nil && len(after.Values) == 1 {
			sql += ` AND (e.name, e.record_id) ` + cmp + ` (?, ?)`
			args = append(args, after.Values[0], after.ID)
		}
		sql += fmt.Sprintf(` ORDER BY e.name %s, e.record_id %s LIMIT %d`, dir, dir, n)
		return predicate{sql: `id IN (` + sql + `)`, args: args}
	}}, nil
}

// fromFirstMatch narrows probe, a common text's check along the list's
// sort, for a list sorted by name from its start: the walk starts at the
// text's first match in that order (the last, descending) rather than
// checking every record before it (157 names before the first "wetland"
// of a million projects, most of a page's cost). The start is looked up
// once per nameHintTTL and holds while the kind's names stay at the
// version it was found at; the statement checks that version itself (one
// key read), and when a record was added or renamed since, its bound is
// the first (last) name there can be, so it walks as probe does: a hint
// never hides a record.
func (t *Tenant) fromFirstMatch(ctx context.Context, key commonText, q records.ListQuery, probe predicate) (predicate, error) {
	if q.After != nil || !sortsByName(q) {
		return probe, nil
	}
	h, known := t.s.commonTexts.hint(key, q.Desc)
	if !known {
		looked, err, _ := t.s.commonTexts.lookups.Do(fmt.Sprint(key, q.Desc), func() (any, error) {
			if h, known := t.s.commonTexts.hint(key, q.Desc); known { // looked up meanwhile
				return h, nil
			}
			h, err := t.firstMatch(ctx, q.Kind, probe, q.Desc)
			if err == nil {
				t.s.commonTexts.setHint(key, q.Desc, h)
			}
			return h, err
		})
		if err != nil {
			// The lookup this request waited for may have been another's,
			// ended by that request's end: without a hint the walk starts
			// at the beginning, with the same rows.
			return probe, ctx.Err()
		}
		h = looked.(nameHint)
	}
	if !h.found {
		return probe, nil
	}
	bound := fromFirstName
	if q.Desc {
		bound = fromLastName
	}
	return predicate{sql: probe.sql + " AND " + bound,
		args: append(slices.Clip(probe.args), q.Kind, h.version, h.title, q.Kind, h.version, h.id)}, nil
}

// firstMatch looks up where probe first matches in name order (the last
// match, descending) and the version of the kind's names. The version is
// read first: a record added or renamed between the two reads moves it
// on, so the start is never kept under a version older than the names it
// was found among. None is found while a bulk load (which runs without
// name_versions' triggers) has indexes pending.
func (t *Tenant) firstMatch(ctx context.Context, kind string, probe predicate, desc bool) (nameHint, error) {
	var h nameHint
	err := t.queryRow(ctx, nameVersionNow, kind).Scan(&h.version)
	if errors.Is(err, sql.ErrNoRows) {
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("list text: %w", err)
	}
	dir := "ASC"
	if desc {
		dir = "DESC"
	}
	err = t.queryRow(ctx, scope(`SELECT title, id FROM records WHERE tenant_id = :tenant AND kind = ? AND `+probe.sql+`
		ORDER BY title `+dir+`, id `+dir+` LIMIT 1`), append([]any{kind}, probe.args...)...).Scan(&h.title, &h.id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nameHint{}, nil
	case err != nil:
		return nameHint{}, fmt.Errorf("list text: %w", err)
	}
	h.found = true
	return h, nil
}

var (
	// versionOfKind reads a kind's name version (arguments: kind).
	versionOfKind  = `SELECT version FROM name_versions WHERE tenant_id = :tenant AND kind = ?`
	nameVersionNow = scope(versionOfKind + ` AND NOT EXISTS (SELECT 1 FROM pending_indexes)`)
	// The bounds of a walk from a nameHint (arguments: kind, version,
	// title, kind, version, id). With the version moved on, each becomes
	// the least (greatest) value a (title, id) can have: '' and the least
	// integer (a blob sorts after every text).
	versionNow    = `(` + versionOfKind + `)`
	fromFirstName = `(title, id) >= (CASE WHEN ` + versionNow + ` = ? THEN ? ELSE '' END, CASE WHEN ` + versionNow + ` = ? THEN ? ELSE -9223372036854775808 END)`
	fromLastName  = `(title, id) <= (CASE WHEN ` + versionNow + ` = ? THEN ? ELSE x'' END, CASE WHEN ` + versionNow + ` = ? THEN ? ELSE 9223372036854775807 END)`
)

// recordHayContains is hayContains on the record's own row: its name,
// number and id, which is its search entry's hay (the triggers
// records_search_ai and records_search_au, and a bulk load's
// fillStatement, make it so). Along the default sort (by name) it reads
// the name index alone, which holds the number too (migration 0023): no
// search entry is looked up, and a table row only for a record that
// matches. A text without a space cannot straddle the hay's parts (they
// are joined by spaces), so such a text is looked for in each part: the
// same records, without joining the parts of every record walked (as much
// CPU as the LIKE itself, for a common word's walk); and in the id only
// when it is all digits, as an id is.
func recordHayContains(text string) predicate {
	pattern := hayPattern(text)
	switch {
	case strings.Contains(text, " "):
		return predicate{sql: recordHay, args: []any{pattern}}
	case strings.Trim(text, "0123456789") != "":
		return predicate{sql: recordNameOrNumber, args: []any{pattern, pattern}}
	}
	return predicate{sql: recordHayParts, args: []any{pattern, pattern, pattern}}
}

var (
	recordHay          = sqlite.like(`(records.title || ' ' || records.code || ' ' || records.id)`)
	recordNameOrNumber = "(" + sqlite.like("records.title") + " OR " + sqlite.like("records.code") + ")"
	recordHayParts     = "(" + sqlite.like("records.title") + " OR " + sqlite.like("records.code") + " OR " + sqlite.like("records.id") + ")"
)

// reindexSession: the build reads back what it wrote, and a page cache
// that holds it spares most reads of the write-ahead log.
func (sqliteSearch) reindexSession() (set, reset string) {
	return `PRAGMA cache_size = -524288`, `PRAGMA cache_size = ` + sqliteCacheSize
}

// fillStatement: hay as typed (the word parts fold it).
func (sqliteSearch) fillStatement() string {
	return `INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, owner)
		SELECT tenant_id, kind, id, title, code, status, lower(title), title || ' ' || code || ' ' || id, ` + entryOwner + `
		FROM records ORDER BY modified_at, id`
}

// fillDerived builds the full-text tables from the entries, in rowid
// order, with automatic merging off and a 128 MB hash of pending tokens
// (FTS5's default is 1 MB), then merges each into one segment: a walk then
// seeks one b-tree, not dozens, and the build writes and reads back a few
// large segments, not hundreds of small ones (inside the reindex's one
// transaction that was 4 min a table at a million projects; now about
// 1.5).
func (sqliteSearch) fillDerived(ctx context.Context, tx *sql.Tx) error {
	stmts := []string{`INSERT OR IGNORE INTO search_scopes (tenant_id, kind)
		SELECT DISTINCT tenant_id, '' FROM search_entries UNION SELECT DISTINCT tenant_id, kind FROM search_entries`}
	for _, table := range []struct{ name, kind string }{{"search_all", "''"}, {"search_kind", "e.kind"}} {
		config := func(option, value string) string {
			return `INSERT INTO ` + table.name + ` (` + table.name + `, rank) VALUES ('` + option + `', ` + value + `)`
		}
		stmts = append(stmts,
			`INSERT INTO `+table.name+` (`+table.name+`) VALUES ('delete-all')`,
			config("automerge", "0"), config("hashsize", "134217728"),
			// Sorted before the tokens are made: the sort carries the hay, not the tokens.
			`INSERT INTO `+table.name+` (rowid, parts) SELECT r, portico_search_parts(hay) FROM (SELECT (s.no << 40) | e.seq AS r, e.hay AS hay
				FROM search_entries e JOIN search_scopes s ON s.tenant_id = e.tenant_id AND s.kind = `+table.kind+` ORDER BY 1)`,
			`INSERT INTO `+table.name+` (`+table.name+`) VALUES ('optimize')`,
			config("automerge", "4"), config("hashsize", "1048576"), // FTS5's defaults
		)
	}
	for _, st := range stmts {
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

func (sqliteSearch) statistics() string { return `ANALYZE search_entries` }
