package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// postgresSearch reads PostgreSQL's search index: search_entries with a
// b-tree on the kinds' names (exact and prefix), GINs on the trigrams of
// the hay and on those under each entry's kind (words and substrings),
// and b-trees on (tenant, kind, seq) and (tenant, seq) that walk the
// newest entries (migrations 0004 and 0017).
//
// One walk reads the searchWindow newest entries of the kinds (each
// kind's range of the recency index, merged newest first; for more than
// searchFewKinds kinds, the tenant's range) and keeps those of the kinds
// containing the text, each marked with the first stage that would find
// it: its name starts with the text, a word starts with it, or it
// contains it; the same statement reads the exact names. A stage with
// search.Limit entries in that window (counting the stages before it) is
// answered there: they are its newest. The stages before it are rare
// among the newest entries, and their own indexes answer them, at most
// limit newest each, never a walk: first the names' range, then, if the
// page is still short, the trigram stages in one statement (the kinds'
// trigrams, searchKeys, for a few kinds). Only when a trigram stage has a
// quarter of a page in the window does a walk ten times as long come
// before them, where it likely fills its page (a term of a few percent of
// the entries has thousands of matches in the index). A common term is
// thus a bounded walk and a rare one a few short lists of an index,
// whatever the kinds.
type postgresSearch struct{}

// searchWindow is how many of the kinds' newest entries the walk reads
// (ten times as many when a trigram stage has a quarter of a page there).
var searchWindow = 300

// A stage's predicate on entry e, the argument it binds for text, and
// whether its text starts a word (the trigram lookup then also asks for
// the first word's start).
type pgStage struct {
	sql       string
	arg       func(text string) string
	wordStart bool
}

// pgStages are the stages after the exact names, in order: the name
// starts with the text, a word starts with it, the hay contains it (each
// containing the ones before). The first is answered by the names' index,
// the others by the trigrams.
var pgStages = [...]pgStage{
	{`e.norm LIKE ? ESCAPE '\'`, func(text string) string { return escapeLike(strings.ToLower(text)) + "%" }, false},
	{`e.hay ~ ?`, func(text string) string { return wordStart + regexpLiteral(strings.ToLower(text)) }, true},
	{postgres.hayContains(), hayPattern, false},
}

// wordStart is where a word starts: at the start of the hay or after a
// space or ASCII punctuation. (Named characters, not "not a letter or
// digit": the trigram index then looks up the words' first trigrams, "  w"
// and " we", rather than every entry with "wet" inside.)
const wordStart = "(^|[ !-/:-@[-`{-~])"

// regexpLiteral is s as a PostgreSQL regular expression matching s
// literally: every character that is not a letter or digit escaped (an
// escaped non-alphanumeric character is itself).
func regexpLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (postgresSearch) candidates(ctx context.Context, t *Tenant, text string, kinds []string, limit int) ([]search.Entry, error) {
	w, err := t.pgWalk(ctx, text, kinds, limit, searchWindow)
	if err != nil {
		return nil, err
	}
	out := w.entries
	n := w.rare()
	if n == 0 {
		return out, nil
	}
	// The names first: their index alone answers, and often fills the page.
	more, err := t.searchQuery(ctx, pgStagesStatement(0, 1, len(kinds), limit), pgStagesArgs(0, 1, text, kinds)...)
	if out = append(out, more...); err != nil || len(more) >= search.Limit || n == 1 {
		return out, err
	}
	if w.found(n) >= search.Limit/4 {
		// A trigram stage has a quarter of a page in the window: walking
		// ten times as far likely fills it, for a fraction of what its
		// thousands of matches would cost the trigram index.
		if w, err = t.pgWalk(ctx, text, kinds, limit, 10*searchWindow); err != nil {
			return nil, err
		}
		if out, n = append(out, w.entries...), w.rare(); n <= 1 {
			return out, nil
		}
	}
	more, err = t.searchQuery(ctx, pgStagesStatement(1, n, len(kinds), limit), pgStagesArgs(1, n, text, kinds)...)
	return append(out, more...), err
}

// pgWalked is what a walk found: the exact names and the window's entries
// containing the text, how many of those each stage finds, and how many
// entries the walk read.
type pgWalked struct {
	entries    []search.Entry
	stages     [len(pgStages)]int
	read, size int64
}

// rare is how many stages, from the first, have fewer than search.Limit
// entries in a window that does not hold all of the kinds' entries: their
// own indexes must answer them.
func (w pgWalked) rare() int {
	if w.read < w.size {
		return 0
	}
	for i := range w.stages {
		if w.found(i+1) >= search.Limit {
			return i
		}
	}
	return len(w.stages)
}

// found is how many of the window's entries the first n stages find.
func (w pgWalked) found(n int) int {
	found := 0
	for _, c := range w.stages[:n] {
		found += c
	}
	return found
}

// pgWalk runs the walk (pgWalkStatement) over size entries.
func (t *Tenant) pgWalk(ctx context.Context, text string, kinds []string, limit, size int) (pgWalked, error) {
	args := kindArgs(kinds)
	for _, st := range pgStages {
		args = append(args, st.arg(text))
	}
	args = append(append(args, kindArgs(kinds)...), text)
	w := pgWalked{size: int64(size)}
	var stage int
	found, err := t.searchQueryWith(ctx, pgWalkStatement(len(kinds), limit, size), func(rows *sql.Rows, e *search.Entry) error {
		if err := rows.Scan(&e.Kind, &e.ID, &e.Name, &e.Code, &e.Status, &e.Seq, &e.Owner, &stage); err != nil {
			return err
		}
		switch {
		case stage == 0:
			w.read = e.Seq
		case stage <= len(pgStages):
			w.stages[stage-1]++
		}
		return nil
	}, args...)
	for _, e := range found {
		if e.Kind != "" {
			w.entries = append(w.entries, e)
		}
	}
	return w, err
}

// pgWalkStatement is the walk over the size newest entries of n kinds
// (the arguments: the kinds, each stage's argument, the kinds again and
// the text): the window's entries containing the text, each with the
// first stage (1, 2, 3) that finds it; the exact names (stage 4, at most
// limit); and one row of stage 0 whose seq is how many entries the walk
// read. A few kinds (searchFewKinds) are walked each on its own range of
// the recency index, merged; more are walked among all the tenant's
// entries (one range, as SQLite walks its tenant partition: merging a
// range a kind costs more than the entries of other kinds it passes).
func pgWalkStatement(n, limit, size int) scoped {
	walk := fmt.Sprintf(`SELECT e.*, e.kind IN (%s) AS wanted FROM (SELECT * FROM search_entries e
		WHERE e.tenant_id = :tenant ORDER BY e.seq DESC LIMIT %d) e`, placeholders(n), size)
	if n <= searchFewKinds {
		ranges := make([]string, n)
		for i := range ranges {
			ranges[i] = fmt.Sprintf(`(SELECT e.*, true AS wanted FROM search_entries e
				WHERE e.tenant_id = :tenant AND e.kind = ? ORDER BY e.seq DESC LIMIT %d)`, size)
		}
		walk = fmt.Sprintf(`SELECT * FROM (%s) e ORDER BY e.seq DESC LIMIT %d`, strings.Join(ranges, " UNION ALL "), size)
	}
	return scope(fmt.Sprintf(`WITH w AS (%s)
		SELECT %s, CASE WHEN %s THEN 1 WHEN %s THEN 2 ELSE 3 END FROM w e WHERE e.wanted AND %s
		UNION ALL SELECT '', 0, '', '', '', count(*), '', 0 FROM w
		UNION ALL (%s)`,
		walk, searchColumns, pgStages[0].sql, pgStages[1].sql, pgStages[2].sql, exactSQL(n, limit, ", 4")))
}

// pgStagesStatement answers stages from to n-1 each through its own
// index: at most limit of the newest entries of k kinds each finds (the
// arguments: pgStagesArgs), chosen first by seq alone (the names' stage
// reads only its index) and then read. The trigram stages look a few kinds
// (searchFewKinds) up in the kinds' trigrams, more in the hay's (a lookup
// a kind would cost more to plan than it saves). The order is seq + 0,
// which no index holds: the walk showed the stages to be rare among the
// newest entries, so a plan that walks them (the planner's guess for a
// common term) would read far.
func pgStagesStatement(from, n, k, limit int) scoped {
	var each []string
	for i := from; i < n; i++ {
		where := pgStages[i].sql
		if i > 0 && k <= searchFewKinds {
			where += " AND " + keysMatch(k)
		}
		each = append(each, fmt.Sprintf(`(SELECT e.seq FROM search_entries e WHERE e.tenant_id = :tenant AND e.kind IN (%s) AND %s
			ORDER BY e.seq + 0 DESC LIMIT %d)`, placeholders(k), where, limit))
	}
	return scope(fmt.Sprintf(`SELECT %s FROM search_entries e WHERE e.seq IN (%s)`, searchColumns, strings.Join(each, " UNION ALL ")))
}

func pgStagesArgs(from, n int, text string, kinds []string) []any {
	var args []any
	for i := from; i < n; i++ {
		args = append(append(args, kindArgs(kinds)...), pgStages[i].arg(text))
		if i > 0 && len(kinds) <= searchFewKinds {
			for _, k := range kinds {
				args = append(args, searchKeys(k, text, pgStages[i].wordStart))
			}
		}
	}
	return args
}

// keysMatch is "entry e has the trigrams of one of k kinds" (the
// arguments: searchKeys of each): what the trigram index answers.
func keysMatch(k int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("search_keys(e.kind, e.hay) @> ? OR ", k), " OR ") + ")"
}

// searchKeys are the index keys (migration 0017's search_keys: kind, a
// space, a trigram as pg_trgm makes them) that an entry of kind whose hay
// holds text has: the trigrams inside text's words (runs of letters and
// digits), lower-cased, and, when the text starts a word there, the first
// word's start ("  w", " we"). Trigrams with a character beyond ASCII are
// left out (pg_trgm hashes them): fewer keys only find more entries, which
// the stage's predicate then checks.
func searchKeys(kind, text string, wordStart bool) []string {
	keys := []string{}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		if i == 0 && wordStart && strings.HasPrefix(strings.ToLower(text), w) && w[0] < utf8.RuneSelf {
			keys = append(keys, kind+"   "+w[:1])
			if len(w) > 1 && w[1] < utf8.RuneSelf {
				keys = append(keys, kind+"  "+w[:2])
			}
		}
		for j := 0; j+3 <= len(w); j++ {
			if g := w[j : j+3]; isASCII(g) {
				keys = append(keys, kind+" "+g)
			}
		}
	}
	return keys
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// listText answers through the trigram index when that is selective,
// else by checking each record along the list's sort, on the record's own
// hay (the triggers' expression for the entry's), as SQLite's does: both
// plans check the same LIKE on the same hay, so they agree. The lookup
// reads at most listTextCap of the text's matches: fewer are the result
// (their ids, read by key), as many mean a common text (the verdict is
// kept a while: commonTexts). A text with no trigram inside its words
// (words of one or two characters) has no keys to look up (every entry's
// keys hold the empty array): it is always checked along the sort.
func (postgresSearch) listText(ctx context.Context, t *Tenant, q records.ListQuery) (predicate, error) {
	pattern := hayPattern(q.Text)
	probe := predicate{sql: postgres.like(`lower(records.title || ' ' || records.code || ' ' || records.id)`), args: []any{pattern}}
	keys := searchKeys(q.Kind, q.Text, false)
	key := commonText{t.id, q.Kind, pattern}
	if len(keys) == 0 || t.s.commonTexts.has(key) {
		return probe, nil
	}
	ids, err := t.queryIDs(ctx, scope(fmt.Sprintf(`SELECT e.record_id FROM search_entries e
		WHERE e.tenant_id = :tenant AND e.kind = ? AND %s AND %s LIMIT %d`, keysMatch(1), postgres.hayContains(), listTextCap)),
		q.Kind, keys, pattern)
	if err != nil {
		return probe, fmt.Errorf("search: %w", err)
	}
	if len(ids) >= listTextCap {
		t.s.commonTexts.add(key)
		return probe, nil
	}
	return predicate{sql: `id = ANY(?)`, args: []any{ids}}, nil
}

func (postgresSearch) reindexSession() (set, reset string) {
	return `SET LOCAL maintenance_work_mem = '256MB'`, ""
}

// fillStatement: hay lower-cased (the trigram index and LIKE compare it
// as stored), and the rows laid out kind by kind, newest last, with seq
// numbering them by recency: a walk of a kind's newest entries then reads
// a few adjacent pages of the table, not one page an entry.
func (postgresSearch) fillStatement() string {
	return `INSERT INTO search_entries (seq, tenant_id, kind, record_id, name, code, status, norm, hay, owner)
		SELECT row_number() OVER (ORDER BY modified_at, id), tenant_id, kind, id, title, code, status, lower(title),
			lower(title || ' ' || code || ' ' || id), ` + entryOwner + `
		FROM records ORDER BY tenant_id, kind, modified_at, id`
}

// fillDerived: the sequence goes on after the numbers the fill gave (the
// indexes are restored from the catalogue).
func (postgresSearch) fillDerived(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('search_entries', 'seq'), COALESCE(max(seq), 0) + 1, false)
		FROM search_entries`)
	return err
}

// statistics: VACUUM too marks the new rows visible to all, so that
// index-only scans (the names' stage) need not read the table.
func (postgresSearch) statistics() string { return `VACUUM (ANALYZE) search_entries` }
