package sqlstore

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	moderncsqlite "modernc.org/sqlite"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// A list's text filter sorted by name, on SQLite, through the records'
// words (migration 0027): list_words holds each search entry's words, in
// name order within a word, and list_vocab each kind's words, numbered.
//
// The filter's predicate is LIKE '%text%' on the name and the number
// (recordHayContains), with the text lower-cased and the names folded as
// SQLite's LIKE folds them: ASCII letters only. A text without a space
// (and not all digits, which the id may hold) is in a name or number
// exactly when it is in one of their words split at spaces, folded the
// same way; so the page is the first records, by name, among those of the
// words that contain the text — a few ranges of list_words, each read no
// further than a page. That is the same answer as checking each name
// along the name index, without the 200 checks a common word's page took,
// or the search index's every match of a rare word.

func init() {
	moderncsqlite.MustRegisterDeterministicScalarFunction("portico_list_words", 2,
		func(_ *moderncsqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			var parts [2]string
			for i, a := range args {
				switch v := a.(type) {
				case string:
					parts[i] = v
				case []byte:
					parts[i] = string(v)
				}
			}
			return listWords(parts[0], parts[1]), nil
		})
}

// listWords is a name's and a number's words as list_words holds them: a
// JSON array of the distinct words of both, split at ' ' (only: a text
// with no ' ' may hold a tab) and ASCII lower-cased.
func listWords(name, code string) string {
	var words []string
	for _, w := range strings.Split(asciiLower(name+" "+code), " ") {
		if w != "" && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	b, _ := json.Marshal(words)
	return string(b)
}

// asciiLower lower-cases ASCII letters only, byte by byte, as SQLite's
// LIKE folds case.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// inNameOrNumber tells a text that can only be in a record's name or
// number, and there in one word: it has no space and is not all digits
// (an id is).
func inNameOrNumber(text string) bool {
	return !strings.Contains(text, " ") && strings.Trim(text, "0123456789") != ""
}

// listTextByName is a page of a list's text filter in name order (no
// other filter), through the words that hold the text; ok is false for a
// text that is not one word's (inNameOrNumber) or that is in more than
// listWordsMax words (a letter or two: common enough that the name
// index meets a page of it soon).
func (sqliteSearch) listTextByName(ctx context.Context, t *Tenant, q records.ListQuery) (p predicate, ok bool, err error) {
	if !inNameOrNumber(q.Text) {
		return predicate{}, false, nil
	}
	words, err := t.wordsContaining(ctx, q.Kind, strings.ToLower(q.Text))
	if err != nil || len(words) > listWordsMax {
		return predicate{}, false, err
	}
	return wordsPage(q.Kind, words, q.Desc, q.After, q.Limit+1), true, nil
}

// listWordsMax is the most words a text may be in for the word plan (a
// variable for the tests, which turn the plan off with -1).
var listWordsMax = 32

// wordsPage is the predicate of a page of n records in name order (after a
// cursor of that order, in that direction) among those that have one of
// words: each word's first n entries, then the first n of those (a record
// with two of the words comes once).
func wordsPage(kind string, words []string, desc bool, after *records.Cursor, n int) predicate {
	if len(words) == 0 {
		return predicate{pick: "SELECT NULL AS record_id WHERE FALSE"}
	}
	dir, cmp := "ASC", ">"
	if desc {
		dir, cmp = "DESC", "<"
	}
	var args []any
	parts := make([]string, len(words))
	for i, w := range words {
		sql := `SELECT name, record_id FROM list_words WHERE tenant_id = :tenant AND kind = ? AND word = ?`
		args = append(args, kind, w)
		if after != nil && len(after.Values) == 1 {
			sql += ` AND (name, record_id) ` + cmp + ` (?, ?)`
			args = append(args, after.Values[0], after.ID)
		}
		parts[i] = fmt.Sprintf(`SELECT * FROM (%s ORDER BY name %s, record_id %s LIMIT %d)`, sql, dir, dir, n)
	}
	return predicate{pick: fmt.Sprintf(`SELECT record_id FROM (%s) ORDER BY name %s, record_id %s LIMIT %d`,
		strings.Join(parts, " UNION "), dir, dir, n), args: args}
}

// wordsContaining returns the words of the tenant's kind that contain
// text (lower-cased as hayPattern does; the words are folded as LIKE
// folds), reading only the words numbered after those it has seen for
// that text before (vocabMatches). It stops collecting after
// listWordsMax+1.
func (t *Tenant) wordsContaining(ctx context.Context, kind, text string) ([]string, error) {
	key := vocabKey{t.id, kind, text}
	seen := t.s.vocabMatches.get(key)
	st, args := vocabSince, []any{seen.upto, kind}
	if seen.upto == 0 {
		st, args = vocabAll, []any{kind}
	}
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("list words: %w", err)
	}
	defer rows.Close()
	next := vocabHit{upto: seen.upto, words: seen.words}
	for rows.Next() {
		var no int64
		var word string
		if err := rows.Scan(&no, &word); err != nil {
			return nil, fmt.Errorf("list words: %w", err)
		}
		next.upto = max(next.upto, no)
		if len(next.words) <= listWordsMax && strings.Contains(word, text) && !slices.Contains(next.words, word) {
			// Appended to a copy: the kept slice may be read by another request.
			next.words = append(slices.Clip(next.words), word)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list words: %w", err)
	}
	if next.upto > seen.upto {
		t.s.vocabMatches.put(key, next)
	}
	return next.words, nil
}

var (
	vocabAll = scope(`SELECT no, word FROM list_vocab WHERE tenant_id = :tenant AND kind = ?`)
	// By number: the words after a number, whatever their tenant and kind,
	// are few.
	vocabSince = scope(`SELECT no, word FROM list_vocab NOT INDEXED WHERE no > ? AND tenant_id = :tenant AND kind = ?`)
)

// vocabMatches remembers, per tenant, kind and text, which words of
// list_vocab hold the text and the highest word number read. Each
// instance keeps its own (a SQLite database has one). What it keeps is
// never short of a word: a word leaves list_vocab only in a reindex,
// which numbers the words anew after every old number, so at worst it
// keeps a word no record has any more, whose range is empty. At most
// vocabMatchesMax texts are kept; when full, all go.
type vocabMatches struct {
	mu sync.Mutex
	m  map[vocabKey]vocabHit
}

type vocabKey struct {
	tenant     portal.TenantID
	kind, text string
}

// vocabHit is what was read of a text: the words that hold it (at most
// listWordsMax+1) among those numbered up to upto.
type vocabHit struct {
	upto  int64
	words []string
}

const vocabMatchesMax = 4096

func (v *vocabMatches) get(k vocabKey) vocabHit {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m[k]
}

// put keeps h unless what is kept has read further (a request that read
// an older snapshot of the words).
func (v *vocabMatches) put(k vocabKey, h vocabHit) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || len(v.m) >= vocabMatchesMax {
		v.m = map[vocabKey]vocabHit{}
	}
	if h.upto > v.m[k].upto {
		v.m[k] = h
	}
}
