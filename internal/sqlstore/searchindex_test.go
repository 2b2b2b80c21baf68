package sqlstore

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

func TestSearchParts(t *testing.T) {
	for _, c := range []struct{ hay, want string }{
		// Words cut to six characters; suffixes from two characters,
		// marked and cut the same way.
		// The first word (the name's) once more, marked ^.
		{"Wetland", "^wetlan wetlan _etland _tland _land _and _nd"},
		{"Wetlands", "^wetlan wetlan _etland _tlands _lands _ands _nds _ds"},
		{"Ed", "^ed ed"},
		{"Bay PRJ-0042 42", "^bay bay _ay prj _rj 0042 _042 _42 42"},
		// Lower case, no accents, the same whichever way é is written.
		{"Écluse", "^ecluse ecluse _cluse _luse _use _se"},
		{"E\u0301cluse", "^ecluse ecluse _cluse _luse _use _se"},
		// Punctuation and FTS5 syntax separate words.
		{`"a" OR b*_x^`, "^a a or b x"},
	} {
		want := strings.Fields(c.want)
		if got := strings.Fields(searchParts(c.hay)); !slices.Equal(got, want) {
			t.Errorf("searchParts(%q) = %q, want %q", c.hay, got, want)
		}
	}
}

func TestPartQuery(t *testing.T) {
	for _, c := range []struct{ text, start, inside, anywhere string }{
		{"Wet", `"wet"*`, `"_wet"*`, `("wet"* OR "_wet"*)`},
		// Six characters and more: the token itself (tokens are cut there).
		{"Wetlands", `"wetlan"`, `"_wetlan"`, `("wetlan" OR "_wetlan")`},
		// A one-character word is left out; syntax never reaches FTS5.
		{`a "Cedar" OR x*`, `"cedar"* AND "or"*`, `("cedar"* OR "_cedar"*) AND ("or"* OR "_or"*)`, `("cedar"* OR "_cedar"*) AND ("or"* OR "_or"*)`},
		{"Écl", `"ecl"*`, `"_ecl"*`, `("ecl"* OR "_ecl"*)`},
	} {
		q := newPartQuery(c.text)
		for at, want := range []string{c.start, c.inside, c.anywhere} {
			if got := q.match(wordAt(at)); got != want {
				t.Errorf("%q at %d: %s, want %s", c.text, at, got, want)
			}
		}
	}
	if q := newPartQuery("a - b"); len(q.words) != 0 || q.match(atStart) != "" {
		t.Errorf("no word of two characters: %q", q.words)
	}
	for text, want := range map[string]string{
		"Cedar":        `"^cedar"*`,
		"cedar cr":     `"^cedar"* AND "cr"*`,
		"a frame":      `"^a"* AND "frame"*`, // the first word, however short
		`"Wetlands" x`: `"^wetlan"`,
		"ab ab":        `"^ab"* AND "ab"*`,
		"- ":           "",
	} {
		if got := newPartQuery(text).nameMatch(); got != want {
			t.Errorf("%q name: %s, want %s", text, got, want)
		}
	}
}

// What the index cannot tell is checked on the entry: text of several
// words, or longer than the tokens, must be in it as typed (folded).
func TestPartQueryHolds(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"wetl", "Anything: the index matched", true},
		{"Wetlands", "Wetland Survey", false},
		{"Wetlands", "Old Wetlands", true},
		{"creek cedar", "Cedar Creek", false},
		{"cedar cr", "Cedar Creek", true},
		{"ECLUSE M", "Écluse Mill", true},
		{"C-0042 4", "x", true}, // in the number and id: "x C-0042 42"
	} {
		if got := newPartQuery(c.text).holds(search.Entry{Name: c.name, Code: "C-0042", ID: 42}); got != c.want {
			t.Errorf("%q in %q: %v, want %v", c.text, c.name, got, c.want)
		}
	}
}

func TestPartQueryStartsName(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"cedar cr", "Cedar Creek", true},
		{"creek", "Cedar Creek", false},
		{"ecluse", "Écluse Mill", true},
		{`"quo`, `"Quoted" Plan`, true},
	} {
		if got := newPartQuery(c.text).startsName(search.Entry{Name: c.name}); got != c.want {
			t.Errorf("%q starts %q: %v, want %v", c.text, c.name, got, c.want)
		}
	}
}

// Migration 0027 rebuilds an index made before it (simulated here by
// emptying the full-text tables, so that only a rebuild can answer): after
// Open's steps, a 2-character text at a word's end is found in the index.
func TestMigration0027RebuildsTheSearchIndex(t *testing.T) {
	ctx := context.Background()
	s := atVersion(t, "sqlite", 26)
	ten := seedTenant(t, s, "acme")
	// Written as that version's binary wrote them: its columns only.
	for i, name := range []string{"Birch", "Chestnut"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO records (tenant_id, kind, id, title, status, modified_at, fields)
			VALUES ('acme', 'project', ?, ?, 'Active', 1700000000000, '{}')`, i+1, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range []string{"search_all", "search_kind"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO `+table+` (`+table+`) VALUES ('delete-all')`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.indexSearchIfEmpty(ctx); err != nil {
		t.Fatal(err)
	}
	page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: "ch", Limit: 10})
	if err != nil || len(page.Records) != 2 {
		t.Errorf("records holding %q after the migration: %+v, %v", "ch", page.Records, err)
	}
}
