package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
	"golang.org/x/sync/singleflight"
)

// The search index is the search_entries table and what each engine
// derives from it (migrations 0004; on SQLite 0010's full-text tables, on
// PostgreSQL 0017's recency index), maintained by triggers on records: see
// the migrations for how. Each engine reads it its own way, behind one
// engineSearch chosen by the dialect (search_sqlite.go,
// search_postgres.go); this file holds what they share and the rebuild.
//
// Both find candidates in the same stages, each only while the ones before
// found fewer than search.Limit: the entries whose name is the text (the
// name index), then the newest whose name starts with it, with a word
// starting with it, containing it. Each stage's walk newest first is
// bounded, so a common term costs what a rare one does.

// engineSearch is one engine's reading and rebuilding of the search index.
type engineSearch interface {
	// candidates implements search.Index for tenant t (kinds and text are
	// not empty).
	candidates(ctx context.Context, t *Tenant, text string, kinds []string, limit int) ([]search.Entry, error)
	// listText is a list query's text predicate: "the text is in the
	// record's name, number or id" (q.Text is not empty).
	listText(ctx context.Context, t *Tenant, q records.ListQuery) (predicate, error)
	// reindexSession is the setting a rebuild gives its transaction, and
	// the statement that restores it afterwards ("" when the transaction's
	// end does).
	reindexSession() (set, reset string)
	// fillStatement fills the emptied search_entries from records, oldest
	// first, with the same values the records triggers write.
	fillStatement() string
	// fillDerived builds, from the filled entries, what derives from them
	// and is neither an index nor a trigger (those are restored from the
	// catalogue).
	fillDerived(ctx context.Context, tx *sql.Tx) error
	// statistics refreshes the planner's statistics of the rebuilt entries
	// (a first fill has none), after the rebuild's transaction.
	statistics() string
}

// search is the dialect's engineSearch.
func (d dialect) search() engineSearch { return d.engineSearch }

// searchFewKinds is the most kinds whose entries a walk reads kind by
// kind (SQLite: each kind's partition; PostgreSQL: each kind's range of
// the recency index); more are walked among all the tenant's entries.
var searchFewKinds = 3

// entryOwner is a record's owner as its search entry keeps it (migration
// 0032): the id of the reference owner_fields names, as filters compare it
// (refIDSQL), empty for none; in a statement over records.
var entryOwner = `COALESCE((SELECT ` + refIDSQL("o.path") + ` FROM owner_fields o WHERE o.kind = records.kind), '')`

const searchColumns = `e.kind, e.record_id, e.name, e.code, e.status, e.seq, e.owner`

// SearchCandidates implements search.Index through the engine's search:
// the entries of kinds whose name is text (at most limit), then, in
// stages, the newest whose name starts with it, with a word starting with
// it, containing it — each stage only while the ones before found fewer
// than search.Limit, and each at least search.Limit entries unless there
// are fewer (SQLite may stop short for text of several words: see
// sqliteSearch).
func (t *Tenant) SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	if len(kinds) == 0 || text == "" {
		return nil, nil
	}
	return t.d.search().candidates(ctx, t, text, kinds, limit)
}

// exactSQL selects searchColumns and then extra, of at most limit entries
// of n kinds whose name is the text (the arguments: the kinds, the text).
func exactSQL(n, limit int, extra string) string {
	return fmt.Sprintf(`SELECT %s%s FROM search_entries e WHERE e.tenant_id = :tenant AND e.kind IN (%s) AND e.norm = lower(?) LIMIT %d`,
		searchColumns, extra, placeholders(n), limit)
}

// kindArgs is kinds as statement arguments.
func kindArgs(kinds []string) []any {
	args := make([]any, len(kinds), len(kinds)+2)
	for i, k := range kinds {
		args[i] = k
	}
	return args
}

// placeholders is n comma-separated ?s.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// searchQuery runs a statement whose columns are searchColumns.
func (t *Tenant) searchQuery(ctx context.Context, st scoped, args ...any) ([]search.Entry, error) {
	return t.searchQueryWith(ctx, st, nil, args...)
}

// searchQueryWith is searchQuery for a statement with one more column
// after searchColumns, scanned by extra (nil: none).
func (t *Tenant) searchQueryWith(ctx context.Context, st scoped, extra func(*sql.Rows, *search.Entry) error, args ...any) ([]search.Entry, error) {
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []search.Entry
	for rows.Next() {
		var e search.Entry
		if extra != nil {
			err = extra(rows, &e)
		} else {
			err = rows.Scan(&e.Kind, &e.ID, &e.Name, &e.Code, &e.Status, &e.Seq, &e.Owner)
		}
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// hayContains is the predicate "entry e's hay contains the text" as
// engine d writes it (dialect.like), with hayPattern(text) bound: a LIKE,
// which PostgreSQL's trigram index answers and SQLite scans (ASCII
// case-insensitively, as hay is stored).
func (d dialect) hayContains() string { return d.like("e.hay") }

func hayPattern(text string) string { return "%" + escapeLike(strings.ToLower(text)) + "%" }

// predicate is a piece of a WHERE clause with its arguments.
type predicate struct {
	sql  string
	args []any
	// byName, when set, is the predicate of a page of the same records
	// in name order: the first n (after a cursor of that order) in
	// that direction, picked without reading the records (SQLite's index
	// plan). Only a page sorted by name with no other filter may use it.
	byName func(desc bool, after *records.Cursor, n int) predicate
}

// textMatch is a list query's text search ("the text is in the record's
// name, number or id"), as the engine's search answers it: none for no
// text.
func (t *Tenant) textMatch(ctx context.Context, q records.ListQuery) (predicate, error) {
	if q.Text == "" {
		return predicate{}, nil
	}
	return t.d.search().listText(ctx, t, q)
}

// listTextCap is where a list's text search changes plans: a text with
// fewer matches than this in the kind's search entries is looked up there
// and only its records are read; a more common one is checked record by
// record along the list's sort index, which meets a page of matches soon
// (reading every match of a word a quarter of the records hold, then
// sorting them, took half a second at 200,000 projects on PostgreSQL).
var listTextCap = 2000

// commonText is a text found common in a tenant's kind, by its LIKE
// pattern (hayPattern): the texts one pattern stands for have the same
// matches, so they share a verdict and, on SQLite, a first match.
type commonText struct {
	tenant        portal.TenantID
	kind, pattern string
}

// commonTexts remembers, for commonTextTTL, which texts a list's text
// search found common (listTextCap matches or more), in this process: each
// instance learns its own, a verdict costing one capped lookup. The
// verdict only chooses a plan: both plans give the same rows, so a stale
// one costs time, never a wrong answer (and a text that became rare is
// looked up as common at worst for commonTextTTL). On SQLite each verdict
// also keeps, for nameHintTTL, where the text's first match stood in name
// order each way (a nameHint), which only ever lets a walk start later
// when the statement itself finds it still true. At most commonTextMax
// are kept; when full, the expired go, or all.
type commonTexts struct {
	mu sync.Mutex
	m  map[commonText]commonEntry
	// lookups make the requests that find a text's hint unknown at once
	// (every open list of a common text when it expires) wait for one
	// lookup rather than each make its own: at a million projects the
	// lookup reads tens of thousands of names, and 50 at once took a
	// quarter of a ruled search's time.
	lookups singleflight.Group
}

// commonEntry is a common text's verdict, until when it holds, and its
// first match in name order, ascending and descending, once looked up.
type commonEntry struct {
	until time.Time
	first [2]nameHint
}

// nameHint is where a common text's first match in name order (the last,
// for a descending list) stood when the kind's names were at version
// (name_versions): no record before it held the text then. found is false
// when the lookup found no such start to keep.
type nameHint struct {
	found   bool
	version int64
	title   string
	id      int64
	until   time.Time // when it is looked up again
}

const (
	commonTextTTL = time.Minute
	commonTextMax = 4096
	// nameHintTTL bounds how long a hint outdated by a write (its
	// statement then walks from the start, as without one) is kept.
	nameHintTTL = 5 * time.Second
)

func (c *commonTexts) has(k commonText) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return ok && time.Now().Before(e.until)
}

func (c *commonTexts) add(k commonText) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if len(c.m) >= commonTextMax {
		maps.DeleteFunc(c.m, func(_ commonText, e commonEntry) bool { return !now.Before(e.until) })
		if len(c.m) >= commonTextMax {
			clear(c.m)
		}
	}
	if c.m == nil {
		c.m = map[commonText]commonEntry{}
	}
	c.m[k] = commonEntry{until: now.Add(commonTextTTL)}
}

// hint returns common text k's hint for the direction, and whether one
// was looked up less than nameHintTTL ago.
func (c *commonTexts) hint(k commonText, desc bool) (nameHint, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.m[k].first[direction(desc)]
	return h, time.Now().Before(h.until)
}

// setHint keeps h as common text k's hint for the direction, for
// nameHintTTL, while the verdict on k is kept.
func (c *commonTexts) setHint(k commonText, desc bool, h nameHint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		h.until = time.Now().Add(nameHintTTL)
		e.first[direction(desc)] = h
		c.m[k] = e
	}
}

func direction(desc bool) int {
	if desc {
		return 1
	}
	return 0
}

// ReindexSearch rebuilds the whole search index from the records (`portico
// search reindex`), in one transaction, refreshes the planner's statistics
// of the entries (a first fill has none) and returns how many entries it
// holds. The triggers keep it current after that.
func (s *Store) ReindexSearch(ctx context.Context) (int64, error) {
	var n int64
	engine := s.d.search()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// The indexes (SQLite: the full-text indexes' triggers; PostgreSQL:
		// the b-trees and the trigram GIN) are built in one pass after the
		// entries, not row by row: dropped and restored in the same
		// transaction.
		set, reset := engine.reindexSession()
		if _, err := tx.ExecContext(ctx, set); err != nil {
			return err
		}
		if reset != "" {
			// The connection goes back to the pool.
			defer tx.ExecContext(ctx, reset)
		}
		names, ddls, err := dropDerived(ctx, tx, s.d.derivedObjectsQuery("search_entries", "search_entries_pkey", ""))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_entries`); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, engine.fillStatement())
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		if err := engine.fillDerived(ctx, tx); err != nil {
			return err
		}
		for i, ddl := range ddls {
			if _, err := tx.ExecContext(ctx, ddl); err != nil {
				return fmt.Errorf("restore %s: %w", names[i], err)
			}
		}
		return nil
	})
	if err == nil {
		_, err = s.db.ExecContext(ctx, engine.statistics())
	}
	if err != nil {
		return 0, fmt.Errorf("reindex search: %w", err)
	}
	return n, nil
}

// indexSearchIfEmpty builds the index for records that predate it (a
// database migrated to the search schema, or a bulk load's), once.
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
