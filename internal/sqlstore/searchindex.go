package sqlstore

import (
	"database/sql/driver"
	"strconv"
	"strings"
	"sync"
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
	t := unaccent.Get().(transform.Transformer)
	defer unaccent.Put(t)
	folded, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		return strings.ToLower(s)
	}
	return folded
}

// unaccent pools the transformers that remove accents (a chain holds
// buffers: making one per call was a fifth of a search).
var unaccent = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

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

// Where typed words are looked for in an entry's words.
type wordAt int

const (
	atStart  wordAt = iota // every typed word starts a word
	inside                 // not only at the start: for one typed word, only inside a word
	anywhere               // every typed word starts a word or is inside one
)

// match is the full-text query for q's words. Each token is quoted and
// holds only letters and digits: nothing typed becomes FTS5 syntax.
func (q partQuery) match(at wordAt) string {
	terms := make([]string, len(q.words))
	for i, w := range q.words {
		r := []rune(w)
		cut, star := string(r[:min(len(r), partLen)]), "*"
		if len(r) >= partLen {
			star = "" // tokens are never longer: the exact token
		}
		start, in := `"`+cut+`"`+star, `"_`+cut+`"`+star
		switch {
		case at == atStart:
			terms[i] = start
		case at == inside && len(q.words) == 1:
			terms[i] = in
		default:
			terms[i] = "(" + start + " OR " + in + ")"
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
