package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// The search index is the search_entries table and its full-text indexes
// (migrations 0004, and 0010 on SQLite), maintained by triggers on records:
// see the migrations for how. This file reads it and rebuilds it.

const searchColumns = `e.kind, e.record_id, e.name, e.code, e.status, e.seq`

// How SQLite finds candidates, after the exact names (the name index): in
// stages, each only while the ones before found fewer than a page of
// results — names starting with the text, words starting with its words,
// then words containing them. A stage walks the index newest first and
// reads the walked entries of the tenant and kinds in the same statement:
// searchWalk entries (twice a page, so that a text the checks thin out, a
// long word or several words, still fills a page in one walk), more while
// checks or other kinds leave too few, up to searchMaxWalk. A walk reads
// one partition (migration 0010): the tenant's, or, for a few kinds (a
// kind prefix) or when the kinds drown among others, each kind's.
var searchWalk = 2 * search.Limit

const searchMaxWalk = 20 * search.Limit

// searchFewKinds is the most kinds walked partition by partition straight
// away.
var searchFewKinds = 3

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

// SearchCandidates implements search.Index. On PostgreSQL: entries of
// kinds whose name is text or starts with it (through the name index, the
// first limit in name order), and the newest containing text. On SQLite,
// in stages, each only while the ones before found fewer than
// search.Limit: entries whose name is text (at most limit), then the
// newest whose name starts with it, with a word starting with its words,
// with a word containing them (searchStage) — all containing text.
func (t *Tenant) SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	if len(kinds) == 0 || text == "" {
		return nil, nil
	}
	if t.d.name == "postgres" {
		return t.searchLike(ctx, text, kinds, limit)
	}
	exact, err := t.searchQuery(ctx, scope(fmt.Sprintf(`SELECT %s FROM search_entries e
		WHERE e.tenant_id = :tenant AND e.norm = lower(?) LIMIT %d`, searchColumns, limit)), text)
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(exact, func(e search.Entry) bool { return !slices.Contains(kinds, e.Kind) })
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

// searchLike is PostgreSQL's search: the name index for names starting
// with text, the trigram index for the newest entries containing it.
func (t *Tenant) searchLike(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	in := "(" + placeholders(len(kinds)) + ")"
	kindArgs := make([]any, len(kinds))
	for i, k := range kinds {
		kindArgs[i] = k
	}
	// A bounded range of the name index, then the kinds (filtering inside
	// the range could walk far).
	named, err := t.searchQuery(ctx, scope(fmt.Sprintf(`SELECT %s FROM search_entries e
		WHERE e.tenant_id = :tenant AND e.norm LIKE ? ESCAPE '\' ORDER BY e.norm LIMIT %d`, searchColumns, limit)),
		escapeLike(strings.ToLower(text))+"%")
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(named, func(e search.Entry) bool { return !slices.Contains(kinds, e.Kind) })
	found, err := t.searchQuery(ctx, scope(fmt.Sprintf(`SELECT %s FROM search_entries e
		WHERE e.tenant_id = :tenant AND e.kind IN %s AND %s ORDER BY e.seq DESC LIMIT %d`,
		searchColumns, in, hayContains, limit)), append(kindArgs, hayPattern(text))...)
	return append(out, found...), err
}

// searchStage walks the index for match and returns the tenant's newest
// entries of the kinds that keep accepts: at least search.Limit of them
// unless there are fewer (or they lie beyond searchMaxWalk). Each walk
// reads its entries in the same statement (a statement costs more than
// reading a few entries again at the next depth).
func (t *Tenant) searchStage(ctx context.Context, match string, keep func(search.Entry) bool, kinds []string) ([]search.Entry, error) {
	parts := kinds
	if len(kinds) > searchFewKinds {
		parts = []string{""}
	}
	for depth := searchWalk; ; {
		var found []search.Entry
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
			exhausted = exhausted && len(walked) < depth
			found = append(found, slices.DeleteFunc(walked, func(e search.Entry) bool { return e.Kind == "" || !keep(e) })...)
		}
		slices.SortFunc(found, func(a, b search.Entry) int { return cmp.Compare(b.Seq, a.Seq) })
		switch {
		case len(found) >= search.Limit || exhausted:
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
		COALESCE(e.code, ''), COALESCE(e.status, ''), w.seq
		FROM (%s) w LEFT JOIN search_entries e ON e.seq = w.seq AND e.tenant_id = :tenant AND e.kind IN (%s)
		ORDER BY w.seq DESC`, searchWalkSQL(kindPartition), placeholders(n)))
}

// walk returns the entries (seq) of the tenant's partition for kind ("":
// every kind) that match, newest first, at most depth.
func (t *Tenant) walk(ctx context.Context, match, kind string, depth int) ([]int64, error) {
	rows, err := t.query(ctx, scope(searchWalkSQL(kind != "")), match, kind, kind, depth)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	seqs := make([]int64, 0, min(depth, 256))
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		seqs = append(seqs, seq)
	}
	return seqs, rows.Err()
}

// placeholders is n comma-separated ?s.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

func (t *Tenant) searchQuery(ctx context.Context, st scoped, args ...any) ([]search.Entry, error) {
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []search.Entry
	for rows.Next() {
		var e search.Entry
		if err := rows.Scan(&e.Kind, &e.ID, &e.Name, &e.Code, &e.Status, &e.Seq); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// hayContains is the plain predicate "entry e's hay contains the text",
// with hayPattern(text) bound: a LIKE, which PostgreSQL's trigram index
// answers and SQLite scans (ASCII case-insensitively, as hay is stored).
const hayContains = `e.hay LIKE ? ESCAPE '\'`

func hayPattern(text string) string { return "%" + escapeLike(strings.ToLower(text)) + "%" }

// predicate is a piece of a WHERE clause with its arguments.
type predicate struct {
	sql  string
	args []any
}

// listTextCap is where a list's text search changes plans on SQLite: a
// text with fewer matches than this in the kind's partition of the search
// index is looked up there; a more common one is checked record by record
// along the list's sort index, which meets a page of matches soon.
var listTextCap = 2000

// textMatch chooses how a list query's text search ("the text is in the
// record's name, number or id") is answered: through the engine's search
// index when that is selective, else by probing each record's entry. Both
// plans check the text with the same LIKE, so they agree.
func (t *Tenant) textMatch(ctx context.Context, q records.ListQuery) (predicate, error) {
	if q.Text == "" {
		return predicate{}, nil
	}
	probe := predicate{`EXISTS (SELECT 1 FROM search_entries e WHERE e.tenant_id = records.tenant_id AND e.kind = records.kind
		AND e.record_id = records.id AND ` + hayContains + `)`, []any{hayPattern(q.Text)}}
	if t.d.name == "postgres" {
		return predicate{`id IN (SELECT e.record_id FROM search_entries e WHERE e.tenant_id = :tenant AND e.kind = ? AND ` +
			hayContains + `)`, []any{q.Kind, hayPattern(q.Text)}}, nil
	}
	pq := newPartQuery(q.Text)
	if len(pq.words) == 0 {
		return probe, nil
	}
	seqs, err := t.walk(ctx, pq.match(anywhere), q.Kind, listTextCap)
	if err != nil || len(seqs) >= listTextCap {
		return probe, err
	}
	list, _ := json.Marshal(seqs)
	return predicate{`id IN (SELECT e.record_id FROM json_each(?) w CROSS JOIN search_entries e ON e.seq = w.value
		WHERE e.tenant_id = :tenant AND e.kind = ? AND ` + hayContains + `)`, []any{string(list), q.Kind, hayPattern(q.Text)}}, nil
}

// reindexStatement fills the index from records, oldest first, with the
// same values the records triggers write (a conformance test compares
// them).
func (d dialect) reindexStatement() string {
	if d.name == "postgres" {
		return `INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay)
			SELECT tenant_id, kind, id, title, code, status, lower(title), lower(title || ' ' || code || ' ' || id)
			FROM records ORDER BY modified_at, id`
	}
	return `INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay)
		SELECT tenant_id, kind, id, title, code, status, lower(title), title || ' ' || code || ' ' || id
		FROM records ORDER BY modified_at, id`
}

// ReindexSearch rebuilds the whole search index from the records (`portico
// search reindex`), in one transaction, and returns how many entries it
// holds. The triggers keep it current after that.
func (s *Store) ReindexSearch(ctx context.Context) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// The indexes (SQLite: the full-text indexes' triggers; PostgreSQL:
		// the b-trees and the trigram GIN) are built in one pass after the
		// entries, not row by row: dropped and restored in the same
		// transaction.
		if s.d.name == "sqlite" {
			// The build reads back what it wrote: a page cache that holds
			// it spares most reads of the write-ahead log (restored below,
			// the connection goes back to the pool).
			if _, err := tx.ExecContext(ctx, `PRAGMA cache_size = -524288`); err != nil {
				return err
			}
			defer tx.ExecContext(ctx, `PRAGMA cache_size = `+sqliteCacheSize)
		} else if _, err := tx.ExecContext(ctx, `SET LOCAL maintenance_work_mem = '256MB'`); err != nil {
			return err
		}
		names, ddls, err := dropDerived(ctx, tx, s.d.derivedObjectsQuery("search_entries", "search_entries_pkey"))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_entries`); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.d.reindexStatement())
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		if s.d.name == "sqlite" {
			if err := fillSearchIndexes(ctx, tx); err != nil {
				return err
			}
		}
		for i, ddl := range ddls {
			if _, err := tx.ExecContext(ctx, ddl); err != nil {
				return fmt.Errorf("restore %s: %w", names[i], err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("reindex search: %w", err)
	}
	return n, nil
}

// indexSearchIfEmpty builds the index for records that predate it (a
// database migrated to the search schema), once.
func (s *Store) indexSearchIfEmpty(ctx context.Context) error {
	var stale bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records) AND NOT EXISTS (SELECT 1 FROM search_entries)`).Scan(&stale); err != nil {
		return fmt.Errorf("search index check: %w", err)
	}
	if !stale {
		return nil
	}
	_, err := s.ReindexSearch(ctx)
	return err
}

// fillSearchIndexes builds SQLite's full-text indexes from the entries, in
// rowid order, with automatic merging off and a 128 MB hash of pending
// tokens (FTS5's default is 1 MB), then merges each into one segment: a
// walk then seeks one b-tree, not dozens, and the build writes and reads
// back a few large segments, not hundreds of small ones (inside the
// reindex's one transaction that was 4 min a table at a million projects;
// now about 1.5).
func fillSearchIndexes(ctx context.Context, tx *sql.Tx) error {
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
