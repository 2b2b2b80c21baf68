package sqlstore

import (
	"database/sql/driver"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	moderncsqlite "modernc.org/sqlite"

	"github.com/portico/portico/internal/search"
)

// The SQLite search index's tokens (migrations 0010 and 0027). Go makes
// them, not the full-text tokenizer, so the index and the queries fold
// text the same way by construction: the table's ascii tokenizer only
// splits on the spaces between them.
//
// An entry's hay (name, number, id) is folded (lower case, no accents)
// and split into words of letters and digits. Each word is indexed as its
// first partLen characters, and each suffix of minPart or more characters
// that starts inside the word as "_" and its first partLen characters:
// "wetlands" gives wetlan, _etland, _tlands, _lands, _ands, _nds and _ds:
// a typed word of minWord characters at a word's end is found too. The
// first word (the name's) is indexed once more as "^" and its first
// partLen characters. A name starting with typed text, a word starting
// with it and a word containing it are then each one prefix lookup
// ("^wetl"*, "wetl"*, "_etl"*), however common or rare. Typed text is
// looked up by its words of minWord or more characters (the index has
// prefix doclists from 2 characters); text of several words, or longer
// than partLen, by its words' first partLen characters and then checked
// on the entry.
const (
	partLen = 6
	minPart = 2
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
	for i, w := range searchWords(search.Fold(hay)) {
		r := []rune(w)
		if i == 0 {
			b.WriteString("^" + cut(r) + " ")
		}
		b.WriteString(cut(r))
		for j := 1; j+minPart <= len(r); j++ {
			b.WriteString(" _" + cut(r[j:]))
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// cut is a word as the tokens hold it: its first partLen characters.
func cut(word []rune) string { return string(word[:min(len(word), partLen)]) }

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
	first string   // its first word, whatever its length
	words []string // its words of minWord or more characters: what the index can look up
}

func newPartQuery(text string) partQuery {
	q := partQuery{text: search.Fold(text)}
	for i, w := range searchWords(q.text) {
		if i == 0 {
			q.first = w
		}
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

// match is the full-text query for q's words, "" when q has none. Each
// token is quoted and holds only letters and digits: nothing typed
// becomes FTS5 syntax.
func (q partQuery) match(at wordAt) string {
	terms := make([]string, len(q.words))
	for i, w := range q.words {
		start, in := lookup("", w), lookup("_", w)
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

// nameMatch is the full-text query for names starting with q: the first
// word starts the name, the others start words of the entry.
func (q partQuery) nameMatch() string {
	if q.first == "" {
		return ""
	}
	terms := []string{lookup("^", q.first)}
	for i, w := range q.words {
		if i > 0 || w != q.first {
			terms = append(terms, lookup("", w))
		}
	}
	return strings.Join(terms, " AND ")
}

// lookup is the term for tokens starting with mark and word: the token
// itself when word is as long as tokens get.
func lookup(mark, word string) string {
	r := []rune(word)
	if len(r) >= partLen {
		return `"` + mark + cut(r) + `"`
	}
	return `"` + mark + word + `"*`
}

// holds reports whether an entry (its name, number and id) contains the
// text, folded: what a candidate from the index must also satisfy, unless
// the text is one word its tokens match exactly (then the index said so).
func (q partQuery) holds(e search.Entry) bool {
	if len(q.words) == 1 && q.words[0] == q.text && utf8.RuneCountInString(q.text) <= partLen {
		return true
	}
	return strings.Contains(search.Fold(e.Name+" "+e.Code+" "+strconv.FormatInt(e.ID, 10)), q.text)
}

// startsName reports whether the entry's name starts with the text, folded.
func (q partQuery) startsName(e search.Entry) bool {
	return strings.HasPrefix(search.Fold(e.Name), q.text)
}
