package sqlstore

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	moderncsqlite "modernc.org/sqlite"

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
// text that is not one word's (inNameOrNumber), is shorter than a
// trigram, or is in more than listWordsMax words (so common that the
// name index meets a page of it soon).
func (sqliteSearch) listTextByName(ctx context.Context, t *Tenant, q records.ListQuery) (p predicate, ok bool, err error) {
	if !inNameOrNumber(q.Text) || utf8.RuneCountInString(q.Text) < 3 {
		return predicate{}, false, nil // the trigrams need 3 characters
	}
	words, ok, err := t.wordsContaining(ctx, q.Kind, strings.ToLower(q.Text))
	if err != nil || !ok {
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
// folds): the trigram index's candidates (a few too many at most), kept
// if they hold the text. ok is false when there are more than
// listWordsMax candidates (it reads no more).
func (t *Tenant) wordsContaining(ctx context.Context, kind, text string) (words []string, ok bool, err error) {
	rows, err := t.query(ctx, vocabGrams, trigrams(text), kind, kind, kind, listWordsMax+1)
	if err != nil {
		return nil, false, fmt.Errorf("list words: %w", err)
	}
	defer rows.Close()
	n := 0
	for ; rows.Next(); n++ {
		var word string
		if err := rows.Scan(&word); err != nil {
			return nil, false, fmt.Errorf("list words: %w", err)
		}
		if strings.Contains(word, text) {
			words = append(words, word)
		}
	}
	return words, n <= listWordsMax, rows.Err()
}

// trigrams is the full-text query of the words that have every 3
// characters of text: each a quoted string, ANDed (the table keeps no
// positions, so no phrase).
func trigrams(text string) string {
	r := []rune(text)
	var parts []string
	for i := 0; i+3 <= len(r); i++ {
		if p := `"` + strings.ReplaceAll(string(r[i:i+3]), `"`, `""`) + `"`; !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " AND ")
}

// vocabGrams is the candidates of the kind's range of list_vocab_grams
// for a query (a scope not numbered yet is the empty range). Arguments:
// the query, the kind three times, the limit.
var vocabGrams = scope(`SELECT v.word FROM list_vocab_grams g JOIN list_vocab v ON v.no = g.rowid
	WHERE list_vocab_grams MATCH ?
	AND g.rowid > COALESCE((SELECT no << 40 FROM search_scopes WHERE tenant_id = :tenant AND kind = ?), 0)
	AND g.rowid < COALESCE((SELECT (no + 1) << 40 FROM search_scopes WHERE tenant_id = :tenant AND kind = ?), 0)
	AND v.tenant_id = :tenant AND v.kind = ? LIMIT ?`)
