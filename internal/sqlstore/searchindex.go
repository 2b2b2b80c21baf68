package sqlstore

import (
	"database/sql/driver"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	moderncsqlite "modernc.org/sqlite"
)

// The SQLite search index's tokens (migration 0010). Go makes them, not
// the full-text tokenizer, so the index and the queries fold text the same
// way by construction: the table's ascii tokenizer only splits on the
// spaces between them.
//
// An entry's hay (name, number, id) is folded (lower case, no accents)
// and split into words of letters and digits. Each word is indexed as its
// first partLen characters, and each suffix of minPart or more characters
// that starts inside the word as "_" and its first partLen characters:
// "wetlands" gives wetlan, _etland, _tlands, _lands, _ands and _nds.
// Typed text is looked up by its words of minWord or more characters (the
// index has prefix doclists from 2 characters): a
// word starting with one is then one prefix lookup ("wetl"*), a
// word containing it one more ("_etl"*); text longer than partLen is
// looked up by its first partLen characters and checked on the entry.
const (
	partLen = 6
	minPart = 3
	minWord = 2
)

func init() {
	// Deterministic: SQLite may use it in triggers and indexes. Registered
	// with the driver for every connection this process opens.
	moderncsqlite.MustRegisterDeterministicScalarFunction("portico_search_parts", 1,
		func(_ *moderncsqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			switch v := args[0].(type) {
			case string:
				return searchParts(v), nil
			case []byte:
				return searchParts(string(v)), nil
			}
			return "", nil
		})
}

// searchParts is the index's text for an entry's hay: its tokens, space
// separated.
func searchParts(hay string) string {
	var b strings.Builder
	for _, w := range searchWords(foldSearch(hay)) {
		r := []rune(w)
		b.WriteString(string(r[:min(len(r), partLen)]))
		for i := 1; i+minPart <= len(r); i++ {
			b.WriteString(" _")
			b.WriteString(string(r[i:min(len(r), i+partLen)]))
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// foldSearch lower-cases s and removes its accents (é → e), as the index
// holds text and as typed text is looked up.
func foldSearch(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	folded, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), strings.ToLower(s))
	if err != nil {
		return strings.ToLower(s)
	}
	return folded
}

// searchWords splits folded text into its words: runs of letters, digits
// and marks.
func searchWords(folded string) []string {
	return strings.FieldsFunc(folded, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsMark(r)
	})
}

// partQuery is typed text as the index looks it up.
type partQuery struct {
	text  string   // folded
	words []string // its words of minWord or more characters: what the index can look up
}

func newPartQuery(text string) partQuery {
	q := partQuery{text: foldSearch(text)}
	for _, w := range searchWords(q.text) {
		if utf8.RuneCountInString(w) >= minWord {
			q.words = append(q.words, w)
		}
	}
	return q
}

// match is the full-text query: every word starts a word of the entry
// (inside a word too, with sub). Each token is quoted and holds only
// letters and digits: nothing typed becomes FTS5 syntax.
func (q partQuery) match(sub bool) string {
	terms := make([]string, len(q.words))
	for i, w := range q.words {
		r := []rune(w)
		cut, star := string(r[:min(len(r), partLen)]), "*"
		if len(r) >= partLen {
			star = "" // tokens are never longer: the exact token
		}
		terms[i] = `"` + cut + `"` + star
		if sub {
			terms[i] = `("` + cut + `"` + star + ` OR "_` + cut + `"` + star + `)`
		}
	}
	return strings.Join(terms, " AND ")
}

// holds reports whether an entry (its name, number and id) contains the
// text, folded: what a candidate from the index must also satisfy, unless
// the text is one word its tokens match exactly (then the index said so).
func (q partQuery) holds(name, code string, id int64) bool {
	if len(q.words) == 1 && q.words[0] == q.text && utf8.RuneCountInString(q.text) <= partLen {
		return true
	}
	return strings.Contains(foldSearch(name+" "+code+" "+strconv.FormatInt(id, 10)), q.text)
}
