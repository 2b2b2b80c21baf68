package sqlstore

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/portico/portico/internal/records"
)

// The word plan's premise, checked against SQLite's own LIKE on random
// names, numbers and texts (spaces, tabs, either case, accented letters,
// LIKE's wildcards): for a text inNameOrNumber, "a word of the name or
// number (portico_list_words, as the triggers call it) contains the
// text" is exactly the list's LIKE on the name or the number.
func TestListWordsAgreeWithLike(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	probe := recordHayContains("x") // the list's predicate for such a text
	if probe.sql != recordNameOrNumber {
		t.Fatalf("a one-word text is checked by %q", probe.sql)
	}
	like := `SELECT ` + strings.NewReplacer("records.title", "?", "records.code", "?").Replace(recordNameOrNumber) + `,
		EXISTS (SELECT 1 FROM json_each(portico_list_words(?, ?)) WHERE instr(value, ?) > 0)`
	alphabet := []string{"a", "A", "b", "B", " ", "  ", "\t", "é", "É", "-", "%", "_", "\\", "1"}
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) + 1 {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	agreed, matched := 0, 0
	for range 20000 {
		name, code, text := word(12), word(6), word(3)
		if !inNameOrNumber(text) {
			continue
		}
		pattern, lower := hayPattern(text), strings.ToLower(text)
		var byLike, byWords bool
		if err := s.db.QueryRow(like, name, pattern, code, pattern, name, code, lower).Scan(&byLike, &byWords); err != nil {
			t.Fatal(err)
		}
		if byLike != byWords {
			t.Fatalf("name %q, number %q, text %q: LIKE %v, words %v (%s)", name, code, text, byLike, byWords, listWords(name, code))
		}
		agreed++
		if byLike {
			matched++
		}
	}
	if agreed < 5000 || matched < agreed/10 || matched > agreed*9/10 {
		t.Fatalf("%d texts compared, %d matched: too few of one kind to tell", agreed, matched)
	}
}

// A text in more words than listWordsMax is not a page of the words: it
// falls back to the other plans, with the same records.
func TestListWordsTooManyWords(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ten := seedTenant(t, s, "acme")
	defer func(old int) { listWordsMax = old }(listWordsMax)
	listWordsMax = 2
	var rs []records.Record
	for i, name := range []string{"Wet", "Wets", "Wetter", "Dry"} {
		rs = append(rs, testRecord("project", int64(i+1), name, "Active"))
	}
	if err := ten.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	q := records.ListQuery{Kind: "project", Text: "wet", Limit: 10}
	if _, ok, err := (sqliteSearch{}).listTextByName(ctx, ten, q); ok || err != nil {
		t.Fatalf("a text in 3 words, at most 2: word plan %v, %v", ok, err)
	}
	page, err := ten.ListRecords(ctx, q)
	if err != nil || len(page.Records) != 3 {
		t.Fatalf("%+v, %v", page.Records, err)
	}
	listWordsMax = 3
	if _, ok, err := (sqliteSearch{}).listTextByName(ctx, ten, q); !ok || err != nil {
		t.Fatalf("a text in 3 words, at most 3: word plan %v, %v", ok, err)
	}
}
