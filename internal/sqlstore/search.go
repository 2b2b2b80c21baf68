package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/portico/portico/internal/search"
)

// The search index is the search_entries table and its full-text index
// (migrations 0004), maintained by triggers on records: see the migration
// for how. This file only reads it.

const searchColumns = `e.kind, e.record_id, e.name, e.code, e.status, e.seq`

// searchScanCap bounds the newest-first walk of the full-text index before
// the tenant and kind filters: enough that a term common in the searched
// kinds fills its candidates early, small enough that a walk past another
// kind's (or tenant's) matches stays cheap. When the walk ends short, the
// searched kinds' own entries are scanned instead.
const searchScanCap = 5000

// SearchCandidates implements search.Index: entries of kinds whose name is
// text or starts with it (through the name index), and the newest entries
// whose name, number or id contain text (through the full-text index), up
// to limit of the latter.
func (t *Tenant) SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	if len(kinds) == 0 || text == "" {
		return nil, nil
	}
	in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(kinds)), ",") + ")"
	kindArgs := make([]any, len(kinds))
	for i, k := range kinds {
		kindArgs[i] = k
	}
	var out []search.Entry
	// Exact and prefix matches of the name, through its index. The range
	// is bounded at limit rows in index order, then ranked by recency.
	prefix := `e.norm >= lower(?) AND e.norm < lower(?) || ?`
	prefixArgs := []any{text, text, "\U0010FFFF"}
	if t.d.name == "postgres" {
		prefix, prefixArgs = `e.norm LIKE ? ESCAPE '\'`, []any{escapeLike(strings.ToLower(text)) + "%"}
	}
	named, err := t.searchQuery(ctx, scope(fmt.Sprintf(`SELECT %s FROM (SELECT * FROM search_entries e
		WHERE e.tenant_id = :tenant AND %s ORDER BY e.norm LIMIT %d) e WHERE e.kind IN %s`, searchColumns, prefix, limit, in)),
		append(prefixArgs, kindArgs...)...)
	if err != nil {
		return nil, err
	}
	out = append(out, named...)

	// Substring matches, newest first.
	var walk scoped
	var walkArgs []any
	if t.d.name == "postgres" {
		walk = scope(fmt.Sprintf(`SELECT %s FROM search_entries e WHERE e.tenant_id = :tenant AND e.kind IN %s
			AND %s ORDER BY e.seq DESC LIMIT %d`, searchColumns, in, hayContains, limit))
		walkArgs = append(kindArgs, hayPattern(text))
	} else {
		walk = scope(fmt.Sprintf(`SELECT %s FROM (SELECT rowid AS seq FROM search_fts WHERE search_fts MATCH ?
			ORDER BY rowid DESC LIMIT %d) f JOIN search_entries e ON e.seq = f.seq
			WHERE e.tenant_id = :tenant AND e.kind IN %s ORDER BY e.seq DESC LIMIT %d`, searchColumns, searchScanCap, in, limit))
		walkArgs = append([]any{ftsPhrase(text)}, kindArgs...)
	}
	found, err := t.searchQuery(ctx, walk, walkArgs...)
	if err != nil {
		return nil, err
	}
	out = append(out, found...)
	if t.d.name == "postgres" || len(found) >= search.Limit {
		return out, nil
	}
	// The walk found few: either the text is rare (then the walk saw all
	// its matches) or the searched kinds drown among other kinds' (or
	// tenants') matches, past the walk's cap; then scan their own entries.
	// (This count reads no tenant data: it only measures the walk.)
	var walked int
	if err := t.q.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT rowid FROM search_fts
		WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT %d)`, searchScanCap), ftsPhrase(text)).Scan(&walked); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if walked < searchScanCap {
		return out, nil
	}
	scan := scope(fmt.Sprintf(`SELECT %s FROM search_entries e WHERE e.tenant_id = :tenant AND e.kind IN %s
		AND %s ORDER BY e.seq DESC LIMIT %d`, searchColumns, in, hayContains, limit))
	more, err := t.searchQuery(ctx, scan, append(kindArgs, hayPattern(text))...)
	if err != nil {
		return nil, err
	}
	return append(out, more...), nil
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

// hayMatch is the fastest predicate the engine has for "entry e's hay
// contains text": SQLite's trigram index needs three characters.
func (d dialect) hayMatch(text string) (string, any) {
	if d.name == "sqlite" && utf8.RuneCountInString(text) >= search.MinText {
		return `e.seq IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)`, ftsPhrase(text)
	}
	return hayContains, hayPattern(text)
}

// reindexStatement fills the index from records, oldest first, with the
// same values the records triggers write (a conformance test compares
// them).
func (d dialect) reindexStatement() string {
	hay := `title || ' ' || code || ' ' || id`
	if d.name == "postgres" {
		hay = `lower(` + hay + `)`
	}
	return `INSERT INTO search_entries (tenant_id, kind, record_id, name, code, status, norm, hay)
		SELECT tenant_id, kind, id, title, code, status, lower(title), ` + hay + `
		FROM records ORDER BY modified_at, id`
}

// ReindexSearch rebuilds the whole search index from the records (`portico
// search reindex`), in one transaction, and returns how many entries it
// holds. The triggers keep it current after that.
func (s *Store) ReindexSearch(ctx context.Context) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// On SQLite the full-text index is built in one pass after the
		// entries, not row by row through its triggers, which are dropped
		// and restored in the same transaction.
		var names, ddls []string
		if s.d.name == "sqlite" {
			var err error
			if names, ddls, err = dropDerived(ctx, tx, s.d.derivedObjectsQuery("search_entries", "")); err != nil {
				return err
			}
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
			if _, err := tx.ExecContext(ctx, `INSERT INTO search_fts (search_fts) VALUES ('rebuild')`); err != nil {
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
