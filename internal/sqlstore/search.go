package sqlstore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// The search index is the search_entries table and its full-text index
// (migrations 0004), maintained by triggers on records: see the migration
// for how. This file only reads it.

const searchColumns = `e.kind, e.record_id, e.name, e.code, e.status, e.seq`

// How SQLite finds word and substring matches (PostgreSQL's trigram index
// answers a LIKE directly):
//
//   - words: the word index, newest first, searchWalk matches, then the
//     tenant and kinds filtered on the entries; when the kinds drown among
//     other kinds' matches, a second walk filters by the kinds' tokens
//     inside the index (slower: it reads the kinds' doclists);
//   - substrings (only when words found too few): searched kinds with fewer
//     than searchSmallKinds entries are scanned with LIKE (a millisecond);
//     larger ones are walked newest first through the trigram index, at
//     most limit matches, before the tenant and kind filters. No search
//     ever scans a large kind.
var searchSmallKinds = 5000

var searchWalk = 100

// SearchCandidates implements search.Index: entries of kinds whose name is
// text or starts with it (through the name index, the first limit in name
// order), and the newest entries whose words start with text's words or
// whose name, number or id contain text, up to limit of each.
func (t *Tenant) SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	if len(kinds) == 0 || text == "" {
		return nil, nil
	}
	in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(kinds)), ",") + ")"
	kindArgs := make([]any, len(kinds))
	for i, k := range kinds {
		kindArgs[i] = k
	}
	// Exact and prefix matches of the name, through its index: a bounded
	// range, then the kinds (filtering inside the range could walk far).
	prefix := `e.norm >= lower(?) AND e.norm < lower(?) || ?`
	prefixArgs := []any{text, text, "\U0010FFFF"}
	if t.d.name == "postgres" {
		prefix, prefixArgs = `e.norm LIKE ? ESCAPE '\'`, []any{escapeLike(strings.ToLower(text)) + "%"}
	}
	named, err := t.searchQuery(ctx, scope(fmt.Sprintf(`SELECT %s FROM search_entries e
		WHERE e.tenant_id = :tenant AND %s ORDER BY e.norm LIMIT %d`, searchColumns, prefix, limit)), prefixArgs...)
	if err != nil {
		return nil, err
	}
	var out []search.Entry
	for _, e := range named {
		if slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}

	scan := fmt.Sprintf(`SELECT %s FROM search_entries e %%s WHERE e.tenant_id = :tenant AND e.kind IN %s
		AND %s ORDER BY e.seq DESC LIMIT %d`, searchColumns, in, hayContains, limit)
	scanArgs := append(kindArgs, hayPattern(text))
	if t.d.name == "postgres" {
		found, err := t.searchQuery(ctx, scope(fmt.Sprintf(scan, "")), scanArgs...)
		return append(out, found...), err
	}
	// CROSS JOIN keeps the walk's ids the outer loop: the planner would
	// rather scan the kinds' entries and probe the list.
	// extra words must also be in the hay (the word index's prefixes stop
	// at six characters).
	pick := func(extra int) scoped {
		return scope(fmt.Sprintf(`SELECT %s FROM json_each(?) w CROSS JOIN search_entries e ON e.seq = w.value
			WHERE e.tenant_id = :tenant AND e.kind IN %s%s ORDER BY e.seq DESC`, searchColumns, in,
			strings.Repeat(" AND "+hayContains, extra)))
	}
	// walked walks fts for match and picks the tenant's entries of the
	// kinds; exhausted says the walk saw every match.
	walked := func(fts, match string, depth int, extra []string) (found []search.Entry, exhausted bool, err error) {
		seqs, err := t.walk(ctx, fts, match, depth)
		if err != nil || len(seqs) == 0 {
			return nil, true, err
		}
		list, _ := json.Marshal(seqs)
		args := append([]any{string(list)}, kindArgs...)
		for _, w := range extra {
			args = append(args, hayPattern(w))
		}
		found, err = t.searchQuery(ctx, pick(len(extra)), args...)
		return found, len(seqs) < depth, err
	}
	if terms, long, ok := wordTerms(text); ok {
		// First without the kinds (a filter inside the index walks their
		// whole doclists: milliseconds); when they drown among other
		// kinds' matches, with it.
		found, exhausted, err := walked("search_words", terms, searchWalk, long)
		if err == nil && len(found) < search.Limit && !exhausted && len(kinds) < len(records.All()) {
			found, _, err = walked("search_words", kindScope(kinds)+" AND "+terms, limit, long)
		}
		if err != nil {
			return nil, err
		}
		if out = append(out, found...); len(found) >= search.Limit {
			return out, nil
		}
	}
	small, err := t.smallKinds(ctx, kinds, in, kindArgs)
	if err != nil {
		return nil, err
	}
	var found []search.Entry
	if small {
		found, err = t.searchQuery(ctx, scope(fmt.Sprintf(scan, "INDEXED BY search_entries_record")), scanArgs...)
	} else {
		found, _, err = walked("search_fts", ftsPhrase(text), limit, nil)
	}
	return append(out, found...), err
}

type kindSizeKey struct {
	tenant portal.TenantID
	kinds  string
	limit  int
}

type kindSize struct {
	small bool
	until time.Time
}

// smallKinds reports whether kinds hold fewer than searchSmallKinds entries
// of the tenant; the answer is kept for a minute (kinds grow slowly, and a
// wrong guess only costs speed, never results).
func (t *Tenant) smallKinds(ctx context.Context, kinds []string, in string, kindArgs []any) (bool, error) {
	key := kindSizeKey{t.id, strings.Join(kinds, ","), searchSmallKinds}
	if v, ok := t.s.kindSizes.Load(key); ok && time.Now().Before(v.(kindSize).until) {
		return v.(kindSize).small, nil
	}
	var n int
	if err := t.queryRow(ctx, scope(fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM search_entries e
		WHERE e.tenant_id = :tenant AND e.kind IN %s LIMIT %d)`, in, searchSmallKinds)), kindArgs...).Scan(&n); err != nil {
		return false, fmt.Errorf("search: %w", err)
	}
	t.s.kindSizes.Store(key, kindSize{small: n < searchSmallKinds, until: time.Now().Add(time.Minute)})
	return n < searchSmallKinds, nil
}

// wordTerms is the word index query for text: every word of text of three
// or more letters or digits as a prefix (its first six characters: the
// index's longest prefix doclist; the longer words come back in long, for
// the caller to check). ok is false when text has no such word. Each token
// is quoted: nothing typed becomes FTS5 syntax.
func wordTerms(text string) (match string, long []string, ok bool) {
	var terms []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if r := []rune(w); len(r) > 6 {
			terms, long = append(terms, ftsPhrase(string(r[:6]))+"*"), append(long, w)
		} else if len(r) >= 3 {
			terms = append(terms, ftsPhrase(w)+"*")
		}
	}
	if len(terms) == 0 {
		return "", nil, false
	}
	return "{hay}: (" + strings.Join(terms, " AND ") + ")", long, true
}

// kindScope is the word index filter for kinds: their scope tokens.
func kindScope(kinds []string) string {
	ks := make([]string, len(kinds))
	for i, k := range kinds {
		ks[i] = `"k` + strings.ToUpper(hex.EncodeToString([]byte(k))) + `"`
	}
	return "{scope}: (" + strings.Join(ks, " OR ") + ")"
}

// walk returns the entries (seq) full-text index fts matches, newest
// first, at most depth. It reads only the index, no tenant data: the
// caller filters the entries by tenant.
func (t *Tenant) walk(ctx context.Context, fts, match string, depth int) ([]int64, error) {
	q := fmt.Sprintf(`SELECT rowid FROM %[1]s WHERE %[1]s MATCH ? ORDER BY rowid DESC LIMIT %[2]d`, fts, depth)
	var rows *sql.Rows
	var err error
	if p := t.prepared(ctx, q); p != nil {
		rows, err = p.QueryContext(ctx, match)
	} else {
		rows, err = t.q.QueryContext(ctx, q, match)
	}
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

// ftsPhrase quotes text as one FTS5 phrase: inside double quotes every
// character is literal except the quote itself, which is doubled. Nothing
// the user types can become FTS5 query syntax.
func ftsPhrase(text string) string {
	return `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
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
// text with fewer matches than this is looked up in the full-text index and
// the matches sorted; a more common one is checked record by record along
// the list's sort index, which meets a page of matches soon.
var listTextCap = 2000

// textMatch chooses how a list query's text search ("the text is in the
// record's name, number or id") is answered: by the engine's trigram
// index when that is selective, else by probing each record's entry.
func (t *Tenant) textMatch(ctx context.Context, q records.ListQuery) (predicate, error) {
	if q.Text == "" {
		return predicate{}, nil
	}
	probe := predicate{`EXISTS (SELECT 1 FROM search_entries e WHERE e.tenant_id = records.tenant_id AND e.kind = records.kind
		AND e.record_id = records.id AND ` + hayContains + `)`, []any{hayPattern(q.Text)}}
	switch {
	case t.d.name == "postgres":
		return predicate{`id IN (SELECT e.record_id FROM search_entries e WHERE e.tenant_id = :tenant AND e.kind = ? AND ` +
			hayContains + `)`, []any{q.Kind, hayPattern(q.Text)}}, nil
	case utf8.RuneCountInString(q.Text) < search.MinText:
		return probe, nil
	}
	var n int
	if err := t.q.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT %d)`,
		listTextCap), ftsPhrase(q.Text)).Scan(&n); err != nil {
		return predicate{}, fmt.Errorf("list text search: %w", err)
	}
	if n >= listTextCap {
		return probe, nil
	}
	return predicate{`id IN (SELECT e.record_id FROM search_fts f CROSS JOIN search_entries e ON e.seq = f.rowid
		WHERE search_fts MATCH ? AND e.tenant_id = :tenant AND e.kind = ?)`, []any{ftsPhrase(q.Text), q.Kind}}, nil
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
	return `INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay, scope)
		SELECT tenant_id, kind, id, title, code, status, lower(title), title || ' ' || code || ' ' || id,
			'k' || hex(kind)
		FROM records ORDER BY modified_at, id`
}

// ReindexSearch rebuilds the whole search index from the records (`portico
// search reindex`), in one transaction, and returns how many entries it
// holds. The triggers keep it current after that.
func (s *Store) ReindexSearch(ctx context.Context) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// The indexes (SQLite: the full-text tables' triggers; PostgreSQL:
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
			// Rebuilt with automatic merging off, then merged once into
			// one segment per index: a walk then seeks one b-tree, not
			// dozens (a third faster at a million), and the build does
			// not merge the same pages over and over (twice as fast).
			for _, fts := range []string{"search_fts", "search_words"} {
				for _, cmd := range []string{
					`INSERT INTO ` + fts + ` (` + fts + `, rank) VALUES ('automerge', 0)`,
					`INSERT INTO ` + fts + ` (` + fts + `) VALUES ('rebuild')`,
					`INSERT INTO ` + fts + ` (` + fts + `) VALUES ('optimize')`,
					`INSERT INTO ` + fts + ` (` + fts + `, rank) VALUES ('automerge', 4)`, // FTS5's default
				} {
					if _, err := tx.ExecContext(ctx, cmd); err != nil {
						return err
					}
				}
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
