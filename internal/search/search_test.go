package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/transform"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, prefix, text string }{
		{"acme", "", "acme"},
		{"  cus: Acme  Corp ", "cus", "Acme Corp"},
		{"proj:wetland", "proj", "wetland"},
		{"INV: 1042", "inv", "1042"},
		{"Vendor  Bill: x", "vendor bill", "x"},
		{"a:b:c", "a", "b:c"},
		{"cus:", "cus", ""},
		{"tab\there\nnew", "", "tab here new"},
	} {
		q, err := Parse(c.in)
		if err != nil || q.Prefix != c.prefix || q.Text != c.text {
			t.Errorf("Parse(%q) = %+v, %v; want prefix %q text %q", c.in, q, err, c.prefix, c.text)
		}
	}
	if _, err := Parse(strings.Repeat("x", MaxQuery+1)); portal.ErrorCode(err) != portal.CodeInvalid {
		t.Errorf("too long: %v", err)
	}
	if _, err := Parse("\xff\xfe"); portal.ErrorCode(err) != portal.CodeInvalid {
		t.Errorf("invalid UTF-8: %v", err)
	}
}

func TestSearchableNeedsThreeCharactersAfterThePrefix(t *testing.T) {
	for in, want := range map[string]bool{"abc": true, "ab": false, "cus: ab": false, "cus: abc": true, "cus:": false, "   ": false} {
		q, _ := Parse(in)
		if q.Searchable() != want {
			t.Errorf("%q searchable = %v", in, !want)
		}
	}
}

func kindNames(ks []*records.Kind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Route)
	}
	return out
}

func TestPrefixNamesKindsByLabel(t *testing.T) {
	all := records.All()
	for prefix, want := range map[string][]string{
		"cus":          {"customer"},
		"client":       {"customer"},
		"proj":         {"project", "projectrequest"},
		"inv":          {"invoice"},
		"vendor":       {"vendor", "vendorbill", "vendorquestionnaire"},
		"vendor bills": {"vendorbill"},
	} {
		q, _ := Parse(prefix + ": something")
		if got := kindNames(q.Kinds(all)); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", prefix, got, want)
		}
	}
	q, _ := Parse("nosuchkind: wetland")
	if got := q.Kinds(all); len(got) != len(all) {
		t.Errorf("unknown prefix narrows to %v", kindNames(got))
	}
	// A prefix never widens beyond what the role may see.
	projectOnly := []*records.Kind{all[0]}
	q, _ = Parse("cus: acme")
	if got := kindNames(q.Kinds(projectOnly)); !slices.Equal(got, []string{all[0].Route}) {
		t.Errorf("prefix outside the role's kinds: %v", got)
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		e    Entry
		text string
		want Class
	}{
		{Entry{Name: "Marsh"}, "marsh", Exact},
		{Entry{Name: "Marshland"}, "MARSH", Prefix},
		{Entry{Name: "Old Marsh"}, "marsh", WordPrefix},
		{Entry{Name: "Old (Marsh)"}, "marsh", WordPrefix},
		{Entry{Name: "Saltmarsh marshy"}, "marsh", WordPrefix}, // second occurrence starts a word
		{Entry{Name: "Saltmarsh"}, "marsh", Substring},
		{Entry{Name: "Survey", Code: "PRJ-01042"}, "0104", WordPrefix},
		{Entry{Name: "Survey", ID: 51042}, "5104", WordPrefix},
		// Accents folded, as the index folds them.
		{Entry{Name: "Écologie"}, "ecolo", Prefix},
		{Entry{Name: "Ecole"}, "ÉCOLE", Exact},
		{Entry{Name: "Petite e\u0301cole"}, "ecol", WordPrefix},
	} {
		if got := Classify(c.e, c.text); got != c.want {
			t.Errorf("Classify(%+v, %q) = %d, want %d", c.e, c.text, got, c.want)
		}
	}
}

type fakeIndex struct {
	entries []Entry
	kinds   []string
	err     error
}

func (f *fakeIndex) SearchCandidates(_ context.Context, text string, kinds []string, _ int) ([]Entry, error) {
	f.kinds = kinds
	var out []Entry
	for _, e := range f.entries {
		if strings.Contains(strings.ToLower(e.Name), strings.ToLower(text)) && slices.Contains(kinds, e.Kind) {
			out = append(out, e, e) // duplicates, as the index may return
		}
	}
	return out, f.err
}

func TestSearchRanksDedupesAndCaps(t *testing.T) {
	idx := &fakeIndex{}
	for i := range 30 {
		idx.entries = append(idx.entries, Entry{Kind: "project", ID: int64(i + 1), Name: "Pond survey", Seq: int64(i)})
	}
	idx.entries = append(idx.entries, Entry{Kind: "customer", ID: 99, Name: "Pond", Code: "C-1", Status: "Active", Seq: 0})
	q, _ := Parse("pond")
	got, err := Search(context.Background(), idx, q, records.All())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != Limit {
		t.Fatalf("%d results, want %d", len(got), Limit)
	}
	if got[0] != (Result{Name: "Pond", Domain: "/customer/view?id=99", Type: "customer", ID: 99, Detail: "Client · C-1 · Active"}) {
		t.Fatalf("exact match first: %+v", got[0])
	}
	if got[1].ID != 30 || got[2].ID != 29 {
		t.Fatalf("prefix ties newest first: %+v %+v", got[1], got[2])
	}
}

func TestSearchShortTextAndErrors(t *testing.T) {
	idx := &fakeIndex{entries: []Entry{{Kind: "project", ID: 1, Name: "abc"}}}
	q, _ := Parse("cus: ab")
	if got, err := Search(context.Background(), idx, q, records.All()); err != nil || len(got) != 0 || idx.kinds != nil {
		t.Fatalf("short text: %v %v (index asked: %v)", got, err, idx.kinds)
	}
	idx.err = errors.New("disk on fire")
	q, _ = Parse("abcd")
	if _, err := Search(context.Background(), idx, q, records.All()); err == nil {
		t.Fatal("index error swallowed")
	}
}

// fakeLister answers, per kind, n records and whether there are more;
// it remembers the kinds it was asked about.
type fakeLister struct {
	counts map[string]int
	asked  []string
	err    error
}

func (f *fakeLister) ListRecords(_ context.Context, q records.ListQuery) (records.Page, error) {
	f.asked = append(f.asked, q.Kind)
	if q.Text != "pond" || q.Limit != GroupCap {
		return records.Page{}, fmt.Errorf("asked %+v", q)
	}
	n := f.counts[q.Kind]
	page := records.Page{Records: make([]records.Record, min(n, q.Limit)), HasMore: n > q.Limit}
	for i := range page.Records {
		page.Records[i] = records.Record{Kind: q.Kind, ID: int64(1000 + i), Title: fmt.Sprintf("%s pond %d", q.Kind, i)}
	}
	return page, f.err
}

func TestSearchGroupedCountsEachKind(t *testing.T) {
	idx := &fakeIndex{entries: []Entry{
		{Kind: "customer", ID: 99, Name: "Pond"},
		{Kind: "project", ID: 1, Name: "Pond survey"},
		{Kind: "vendor", ID: 5, Name: "Pond Supplies Ltd"},
	}}
	// Projects: more than the cap; invoices: matched by the list's
	// filter only (none among the results); vendors: among the results,
	// not matched by the list's filter.
	lists := &fakeLister{counts: map[string]int{"project": 250, "customer": 3, "invoice": 4}}
	q, _ := Parse("  pond ")
	got, err := SearchGrouped(context.Background(), idx, lists, q, records.All())
	if err != nil {
		t.Fatal(err)
	}
	// Invoices match, none among the results: their best few (PerGroup) are shown after them.
	if got.Text != "pond" || len(got.Results) != 3+PerGroup || got.Results[0].Type != "customer" ||
		!slices.ContainsFunc(got.Results[3:], func(r Result) bool { return r.Type == "invoice" && strings.HasPrefix(r.Name, "invoice pond ") }) {
		t.Fatalf("text %q, results %+v", got.Text, got.Results)
	}
	want := []Group{{"customer", 3, false}, {"project", GroupCap, true}, {"vendor", 0, false}, {"invoice", 4, false}}
	if !slices.Equal(got.Groups, want) {
		t.Fatalf("groups %+v, want %+v", got.Groups, want)
	}
	if len(lists.asked) != len(records.All()) {
		t.Fatalf("counted %d kinds, want every kind searched (%d)", len(lists.asked), len(records.All()))
	}

	// A prefix counts its kinds only; short text counts nothing.
	lists.asked = nil
	q, _ = Parse("cus: pond")
	if got, err := SearchGrouped(context.Background(), idx, lists, q, records.All()); err != nil ||
		!slices.Equal(lists.asked, []string{"customer"}) || !slices.Equal(got.Groups, []Group{{"customer", 3, false}}) {
		t.Fatalf("cus: groups %+v, asked %v, %v", got.Groups, lists.asked, err)
	}
	lists.asked = nil
	q, _ = Parse("po")
	if got, err := SearchGrouped(context.Background(), idx, lists, q, records.All()); err != nil || len(lists.asked) != 0 ||
		got.Groups == nil || len(got.Groups) != 0 || got.Results == nil {
		t.Fatalf("short text: %+v, asked %v, %v", got, lists.asked, err)
	}
	lists.err = errors.New("disk on fire")
	q, _ = Parse("pond")
	if _, err := SearchGrouped(context.Background(), idx, lists, q, records.All()); err == nil {
		t.Fatal("list error swallowed")
	}
}

// A kind that ranks first throughout does not hide the others: every
// kind counted shows some of its matches, within Limit.
func TestSearchGroupedShowsEveryCountedKind(t *testing.T) {
	idx := &fakeIndex{}
	for i := range 40 {
		idx.entries = append(idx.entries, Entry{Kind: "projectrequest", ID: int64(i + 1), Name: fmt.Sprint("Pond request ", i), Seq: int64(i)})
	}
	lists := &fakeLister{counts: map[string]int{"projectrequest": 40, "project": 250}}
	q, _ := Parse("pond")
	got, err := SearchGrouped(context.Background(), idx, lists, q, records.All())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, r := range got.Results {
		kinds[r.Type]++
	}
	if len(got.Results) != Limit || kinds["projectrequest"] != Limit-PerGroup || kinds["project"] != PerGroup {
		t.Fatalf("%d results by kind %v", len(got.Results), kinds)
	}
}

// FuzzParse: any input either parses into valid, bounded, trimmed text or
// is refused with a 400 — never a panic, never another error.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "cus: acme", `"a" OR b*`, "NEAR(a b, 2)", ":::", "\x00", "proj:\twet land", "é:ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := Parse(raw)
		if err != nil {
			if portal.ErrorCode(err) != portal.CodeInvalid {
				t.Fatalf("Parse(%q): %v is not a 400", raw, err)
			}
			return
		}
		if !utf8.ValidString(q.Text) || q.Text != strings.TrimSpace(q.Text) || strings.Contains(q.Text, "  ") {
			t.Fatalf("Parse(%q).Text = %q", raw, q.Text)
		}
		if utf8.RuneCountInString(q.Text) > MaxQuery || strings.Contains(q.Prefix, ":") {
			t.Fatalf("Parse(%q) = %+v", raw, q)
		}
		q.Kinds(records.All())
	})
}

func TestBestKept(t *testing.T) {
	// 25 newer name prefixes of one kind, then older substrings of another.
	var found []Entry
	for i := range 25 {
		found = append(found, Entry{Kind: "projectrequest", ID: int64(i), Name: "Wetland delineation", Seq: int64(100 + i)})
	}
	for i := range 10 {
		found = append(found, Entry{Kind: "project", ID: int64(i), Name: "Elk Bog Wetland Restoration", Seq: int64(200 + i)})
	}
	dropProjects := func(e Entry) bool { return e.Kind != "project" }
	if !BestKept(found, "wetland", dropProjects) {
		t.Error("the best 20 are all prefixes, none dropped: the answer stands")
	}
	if !BestKept(found, "wetland", func(Entry) bool { return true }) {
		t.Error("nothing dropped: the answer stands")
	}
	if BestKept(found, "elk bog", dropProjects) {
		t.Error("the dropped projects are the best answer for elk bog: the answer does not stand")
	}
	if BestKept(found[10:], "wetland", dropProjects) {
		t.Error("15 prefixes and 5 of the 10 projects are the best 20: the answer does not stand")
	}
	if got := Best(append(found, found[0]), "wetland"); len(got) != Limit || got[0].Seq != 124 {
		t.Errorf("Best: %d entries, first %+v; want %d, newest prefix first", len(got), got[0], Limit)
	}
}

// Every character the short way lets through folds as the transform Fold
// otherwise takes (unaccent's) folds it, between letters and after one
// that composes with marks.
func TestFoldTheShortWay(t *testing.T) {
	unaccented := unaccent.New().(transform.Transformer)
	slow := func(s string) string {
		folded, _, err := transform.String(unaccented, strings.ToLower(s))
		if err != nil {
			t.Fatal(err)
		}
		return folded
	}
	short := 0
	// Planes 0 to 3 and 14 hold every assigned character but private use.
	for r := rune(0x80); r <= 0xE0FFF; r++ {
		if !utf8.ValidRune(r) || r > 0x3FFFF && r < 0xE0000 {
			continue
		}
		for _, s := range []string{"Ab" + string(r) + "Cd", "E" + string(r)} {
			if _, ok := lowerOnly(s); !ok {
				continue
			}
			short++
			if got, want := Fold(s), slow(s); got != want {
				t.Fatalf("Fold(%q) = %q, want %q", s, got, want)
			}
		}
	}
	if short < 2*1000 {
		t.Fatalf("only %d texts took the short way", short)
	}
	for _, s := range []string{"Cedar Fen — Phase 5", "“Heron” Bank", "plain", "Émile's Café", "e\u0301cole", "Straße", "Ⓐ", "\xff"} {
		if got, want := Fold(s), slow(s); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	}
}

func BenchmarkFold(b *testing.B) {
	for b.Loop() {
		Fold("Cedar Swamp Nutrient Offset — Phase 5")
	}
}

// ownOnly narrows projects to owner "2"'s.
type ownOnly struct{}

func (ownOnly) Narrowed(_ context.Context, kind string) (bool, error) { return kind == "project", nil }

func (ownOnly) SeenOwned(_ context.Context, byKind map[string][]int64, owner func(string, int64) string) (map[string]map[int64]bool, error) {
	out := map[string]map[int64]bool{}
	for kind, ids := range byKind {
		out[kind] = map[int64]bool{}
		for _, id := range ids {
			out[kind][id] = owner(kind, id) == "2"
		}
	}
	return out, nil
}

// ownProjects lists owner 2's projects named "Pond …", as a narrowed list would.
type ownProjects struct{ asked int }

func (l *ownProjects) ListRecords(_ context.Context, q records.ListQuery) (records.Page, error) {
	l.asked++
	return records.Page{Records: []records.Record{{Kind: "project", ID: 500, Title: "Pond of his"}}}, nil
}

// A narrowed search keeps the entries the scope lets through; when the
// index's best answer drops some, it tops the ruled kind up from the
// narrowed list, which ranks after the index's own answers.
func TestNarrowedSearch(t *testing.T) {
	idx := &fakeIndex{entries: []Entry{{Kind: "customer", ID: 1, Name: "Pond Co", Seq: 9}}}
	for i := range 30 {
		idx.entries = append(idx.entries, Entry{Kind: "project", ID: int64(100 + i), Name: "Pond survey", Seq: int64(50 + i), Owner: "7"})
	}
	lists := &ownProjects{}
	q, _ := Parse("pond")
	got, err := Search(context.Background(), Narrowed{Index: idx, Lists: lists, Scope: ownOnly{}}, q, records.All())
	var ids []int64
	for _, r := range got {
		ids = append(ids, r.ID)
	}
	if err != nil || !slices.Equal(ids, []int64{1, 500}) || lists.asked != 1 {
		t.Errorf("others' best: %v %v (listed %d times), want [1 500] from one list", ids, err, lists.asked)
	}
	// His own among the best: the index's answer stands, no list.
	for i := range idx.entries {
		idx.entries[i].Owner = "2"
	}
	lists.asked = 0
	got, err = Search(context.Background(), Narrowed{Index: idx, Lists: lists, Scope: ownOnly{}}, q, records.All())
	if err != nil || len(got) != Limit || lists.asked != 0 {
		t.Errorf("his own best: %d results, %v, listed %d times", len(got), err, lists.asked)
	}
}
