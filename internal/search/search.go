// Package search is the global record search (SPEC §4 Search, §7 the search
// call): parsing the typed text and its NetSuite-style kind prefix,
// choosing the kinds to search, and ranking what the index finds. The index
// itself lives in the store (sqlstore: FTS5 over word parts on SQLite; a
// walk of the newest entries, the name index and pg_trgm on PostgreSQL),
// kept current by the database on every write.
//
// Ranking: exact name match, then name prefix, then a word of the name or
// number starting with the text, then any substring; ties go to the most
// recently written record. At most Limit results.
package search

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

const (
	// Limit is the most results a search answers.
	Limit = 20
	// MinText is the shortest text (after the prefix, trimmed) worth
	// searching: the indexes look substrings up from three characters.
	// Shorter text answers no results. The app waits for four (SPEC §5).
	MinText = 3
	// MaxQuery is the longest query accepted, in characters; longer is a 400.
	MaxQuery = 200
)

// Query is a parsed search text.
type Query struct {
	// Prefix is the lower-cased text before the first colon, trimmed; ""
	// when the text has no colon.
	Prefix string
	// Text is what to look for: the text after the prefix, trimmed, with
	// runs of white space and control characters folded to one space.
	Text string
}

// Parse reads a typed search text. It fails only for text longer than
// MaxQuery characters or not valid UTF-8; everything else parses, and text
// shorter than MinText simply finds nothing.
func Parse(raw string) (Query, error) {
	if !utf8.ValidString(raw) {
		return Query{}, portal.Invalid("The search text is not valid text.")
	}
	if utf8.RuneCountInString(raw) > MaxQuery {
		return Query{}, portal.Invalid(fmt.Sprintf("The search text is too long: at most %d characters.", MaxQuery))
	}
	var q Query
	text := raw
	if before, after, ok := strings.Cut(raw, ":"); ok {
		q.Prefix, text = strings.ToLower(strings.Join(strings.Fields(before), " ")), after
	}
	q.Text = strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
	return q, nil
}

// Searchable reports whether the text is long enough to search.
func (q Query) Searchable() bool { return utf8.RuneCountInString(q.Text) >= MinText }

// Kinds narrows the kinds a role may see to those the prefix names: a kind
// is named when its label, plural label or route segment starts with the prefix
// (case-insensitive: "cus" names clients, whose record type is customer;
// "vendor" names vendors, vendor bills and vendor questionnaires). No
// prefix, or one that names none of them, searches them all.
func (q Query) Kinds(visible []*records.Kind) []*records.Kind {
	if q.Prefix == "" {
		return visible
	}
	var named []*records.Kind
	for _, k := range visible {
		for _, s := range []string{k.Label, k.Plural, k.Route} {
			if strings.HasPrefix(strings.ToLower(s), q.Prefix) {
				named = append(named, k)
				break
			}
		}
	}
	if len(named) == 0 {
		return visible
	}
	return named
}

// Entry is one record as the index holds it.
type Entry struct {
	Kind   string
	ID     int64
	Name   string
	Code   string
	Status string
	// Seq grows with every write of a record: larger is more recent. An
	// entry found other than through the index, older than every match of
	// its class the index answered, has one below them all (0 or less).
	Seq int64
	// Owner is the record's owner (records.Kind.Owner) as the index keeps
	// it, the reference's id as text: "" for none, or not known.
	Owner string
}

// Index finds candidate entries of the given kinds: those whose name is
// text or starts with it, and those whose name, number or id has a word
// starting with it or contains it, compared as Fold does. An index may
// bound each set (to the newest, or the first in name order, limit or at
// least Limit of them): the ranking is exact within what it answers.
// Candidates need not be ranked or distinct.
type Index interface {
	SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]Entry, error)
}

// Candidates is the limit an index is given for a bounded set of
// candidates.
const Candidates = 60

// Result is one search result (SPEC §3): the record's name and domain, the
// link target, here its view page in the portal.
type Result struct {
	Name   string `json:"name"`
	Domain string `json:"domain"`
	Type   string `json:"type"`
	ID     int64  `json:"id"`
	// Detail says what the record is: the kind's label, its number and status.
	Detail string `json:"detail"`
}

// Class is a match's rank class; smaller ranks first.
type Class int

const (
	Exact Class = iota
	Prefix
	WordPrefix
	Substring
)

// Classify ranks a candidate for text, compared as Fold does: exact match
// or prefix of the name, then a word of the name or number starting with
// the text, then anything else the index found (a substring).
func Classify(e Entry, text string) Class {
	name, t := Fold(e.Name), Fold(text)
	switch {
	case name == t:
		return Exact
	case strings.HasPrefix(name, t):
		return Prefix
	case wordPrefix(name, t) || wordPrefix(Fold(e.Code), t) || wordPrefix(strconv.FormatInt(e.ID, 10), t):
		return WordPrefix
	}
	return Substring
}

// wordPrefix reports whether t occurs in s at the start of a word: at the
// start of s or after a character that is neither letter nor digit.
func wordPrefix(s, t string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], t)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 {
			return true
		}
		r, _ := utf8.DecodeLastRuneInString(s[:at])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		i = at + size
	}
}

// Search answers q over the kinds a role may see, best first, at most
// Limit results.
func Search(ctx context.Context, idx Index, q Query, visible []*records.Kind) ([]Result, error) {
	kinds := q.Kinds(visible)
	if !q.Searchable() || len(kinds) == 0 {
		return []Result{}, nil
	}
	byName := make(map[string]*records.Kind, len(kinds))
	names := make([]string, len(kinds))
	for i, k := range kinds {
		byName[k.Name], names[i] = k, k.Name
	}
	found, err := idx.SearchCandidates(ctx, q.Text, names, Candidates)
	if err != nil {
		return nil, err
	}
	found = slices.DeleteFunc(found, func(e Entry) bool { return byName[e.Kind] == nil })
	best := Best(found, q.Text)
	out := make([]Result, 0, len(best))
	for _, e := range best {
		out = append(out, ResultFor(byName[e.Kind], e.ID, e.Name, e.Code, e.Status))
	}
	return out, nil
}

// Best is the answer of a search for text among found: at most Limit
// distinct entries, best first (by Class, then the most recent).
func Best(found []Entry, text string) []Entry {
	type ranked struct {
		Entry
		class Class
	}
	seen := make(map[string]bool, len(found))
	all := make([]ranked, 0, len(found))
	for _, e := range found {
		key := e.Kind + "/" + strconv.FormatInt(e.ID, 10)
		if seen[key] {
			continue
		}
		seen[key] = true
		all = append(all, ranked{e, Classify(e, text)})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].class != all[j].class {
			return all[i].class < all[j].class
		}
		return all[i].Seq > all[j].Seq
	})
	out := make([]Entry, 0, min(len(all), Limit))
	for _, r := range all[:min(len(all), Limit)] {
		out = append(out, r.Entry)
	}
	return out
}

// BestKept reports whether the answer for text among found (Best) is all
// entries that keep accepts. A search narrowed to what a caller may see
// (keep) then answers what the index answered: an entry the index did not
// answer ranks below its answer by the index's own bounds, with or without
// the entries dropped, so nothing looked up elsewhere can rank among it.
func BestKept(found []Entry, text string, keep func(Entry) bool) bool {
	if !slices.ContainsFunc(found, func(e Entry) bool { return !keep(e) }) {
		return true // nothing dropped: no need to rank
	}
	return !slices.ContainsFunc(Best(found, text), func(e Entry) bool { return !keep(e) })
}

// GroupCap bounds the count of a kind's matches in a grouped search: a
// kind with more says "at least GroupCap" (Group.More).
const GroupCap = 100

// Lister answers a page of a kind's list. A grouped search counts each
// kind's matches with the lists' own text filter, so a group's "see all"
// (the kind's list filtered by the same text) shows what the group counts.
type Lister interface {
	ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error)
}

// Group is the matches of one kind: Count of them, or at least Count when
// More.
type Group struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
	More  bool   `json:"more"`
}

// Grouped is a search answer with its results' kinds: Results as Search
// answers them; Groups, every kind searched that has a match, those among
// the results first (in the order of their best result), then the others
// in registry order; Text, the text searched (without the prefix), which
// the kinds' lists are filtered by.
type Grouped struct {
	Results []Result `json:"results"`
	Groups  []Group  `json:"groups"`
	Text    string   `json:"text"`
}

// SearchGrouped is Search with each searched kind's matches counted: one
// list query per kind, each reading at most GroupCap+1 rows, so its cost
// is bounded whatever the text matches.
func SearchGrouped(ctx context.Context, idx Index, lists Lister, q Query, visible []*records.Kind) (Grouped, error) {
	results, err := Search(ctx, idx, q, visible)
	if err != nil {
		return Grouped{}, err
	}
	out := Grouped{Results: results, Groups: []Group{}, Text: q.Text}
	if !q.Searchable() {
		return out, nil
	}
	kinds := q.Kinds(visible)
	rank := make(map[string]int, len(kinds))
	for _, r := range results {
		if _, seen := rank[r.Type]; !seen {
			rank[r.Type] = len(rank)
		}
	}
	var unshown []Result // the best matches of the kinds with none among the results
	for _, k := range kinds {
		page, err := lists.ListRecords(ctx, records.ListQuery{Kind: k.Name, Text: q.Text, Limit: GroupCap})
		if err != nil {
			return Grouped{}, err
		}
		_, shown := rank[k.Name]
		if n := len(page.Records); n > 0 {
			out.Groups = append(out.Groups, Group{Type: k.Name, Count: n, More: page.HasMore})
			if !shown {
				for _, e := range bestOfGroup(k.Name, page.Records, q.Text) {
					unshown = append(unshown, ResultFor(k, e.ID, e.Name, e.Code, e.Status))
				}
			}
		} else if shown {
			// Found by the search, not by the list's filter (which
			// compares text more strictly): a group still, of no count.
			out.Groups = append(out.Groups, Group{Type: k.Name})
		}
	}
	// A group never says "100+" over no result: each kind counted but not
	// among the results shows its best few, in place of the lowest
	// results, so that one kind that ranks first throughout ("wetland":
	// twenty project requests) does not hide the others.
	if len(unshown) > 0 {
		unshown = unshown[:min(len(unshown), Limit/2)]
		out.Results = append(slices.Clip(out.Results[:min(len(out.Results), Limit-len(unshown))]), unshown...)
	}
	sort.SliceStable(out.Groups, func(i, j int) bool {
		ri, iShown := rank[out.Groups[i].Type]
		rj, jShown := rank[out.Groups[j].Type]
		if iShown != jShown {
			return iShown
		}
		return iShown && ri < rj
	})
	return out, nil
}

// PerGroup is how many results a grouped search shows of a kind whose
// matches all rank below the results (see SearchGrouped).
const PerGroup = 3

// bestOfGroup is the best PerGroup of a kind's listed matches, ranked as
// the search ranks (Best).
func bestOfGroup(kind string, matches []records.Record, text string) []Entry {
	found := make([]Entry, len(matches))
	for i, r := range matches {
		found[i] = Entry{Kind: kind, ID: r.ID, Name: r.Title, Code: r.Code, Status: r.Status}
	}
	best := Best(found, text)
	return best[:min(len(best), PerGroup)]
}

// ResultFor is the link to record id of kind k, as search answers it:
// its name, view page, kind and id, and as detail the kind's label, the
// record's number and status.
func ResultFor(k *records.Kind, id int64, name, code, status string) Result {
	return Result{Name: name, Domain: ViewPath(k, id), Type: k.Name, ID: id, Detail: detail(k.Label, code, status)}
}

// ViewPath is a record's view page in the portal (SPEC §2): /<route>/view?id=<id>.
func ViewPath(k *records.Kind, id int64) string {
	return "/" + k.Route + "/view?id=" + strconv.FormatInt(id, 10)
}

func detail(parts ...string) string {
	kept := parts[:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " · ")
}

// Fold is text as search compares it: lower case, without accents (é is
// e, however it is written).
func Fold(s string) string {
	if lower, ok := lowerOnly(s); ok {
		return lower
	}
	lower := strings.ToLower(s)
	t := unaccent.Get().(transform.Transformer)
	defer unaccent.Put(t)
	folded, _, err := transform.String(t, lower)
	if err != nil {
		return lower
	}
	return folded
}

// lowerOnly is s in lower case when that is all Fold does to it: when each
// of its characters is ASCII, or neither a letter nor a mark, with no case
// and no canonical decomposition (a dash, a quotation mark, a symbol),
// which decomposing leaves alone, removing marks keeps, and composing
// never joins to a neighbour (the second of a composed pair is a mark or a
// letter). Most names are such text, many with a dash; the transform costs
// several times the check.
func lowerOnly(s string) (string, bool) {
	var lowered []byte // a copy, once a letter is lowered
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				if lowered == nil {
					lowered = []byte(s)
				}
				lowered[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.ToLower(r) != r ||
			norm.NFD.PropertiesString(s[i:]).Decomposition() != nil {
			return "", false
		}
		i += size
	}
	if lowered == nil {
		return s, true
	}
	return string(lowered), true
}

// unaccent pools the transformers that remove accents (a chain holds
// buffers: making one per call was a fifth of a search).
var unaccent = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// Scope is what narrows a search to the records its caller may see
// (records.Guard): the one place that decides it.
type Scope interface {
	// Narrowed reports whether the caller sees only some records of kind.
	Narrowed(ctx context.Context, kind string) (bool, error)
	// SeenOwned returns, of the records named by kind and id, those the
	// caller may see, deciding a record of known owner (owner(kind, id),
	// as the index keeps it) on its owner where it can.
	SeenOwned(ctx context.Context, byKind map[string][]int64, owner func(kind string, id int64) string) (map[string]map[int64]bool, error)
}

// Narrowed is an index whose candidates are narrowed to what Scope lets
// its caller see; Lists is the caller's lists, narrowed alike.
//
// It finds candidates in Index, of every kind searched, and keeps those of
// a kind under a rule that the rule lets the caller see (Scope.SeenOwned,
// on the owners the entries carry). When the search's answer among them is
// one the rule drops nothing of (BestKept), that is all: it is what the
// index answers without the rule. Otherwise it adds, for each such kind,
// the first Limit of its list with the same text, narrowed by the rule: the
// index's candidates of such a kind may all lie outside it (a manager's
// own projects among a million), and cut down they would leave the search
// without them. The index's walk costs what it does without a rule (a
// walk that skipped the ruled kinds' entries read more of them).
type Narrowed struct {
	Index Index
	Lists Lister
	Scope Scope
}

// SearchCandidates implements Index.
func (n Narrowed) SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]Entry, error) {
	var ruled []string
	for _, kind := range kinds {
		narrowed, err := n.Scope.Narrowed(ctx, kind)
		if err != nil {
			return nil, err
		}
		if narrowed {
			ruled = append(ruled, kind)
		}
	}
	found, err := n.Index.SearchCandidates(ctx, text, kinds, limit)
	if err != nil || len(ruled) == 0 {
		return found, err
	}
	byKind := map[string][]int64{}
	owners := map[string]map[int64]string{}
	for _, e := range found {
		if slices.Contains(ruled, e.Kind) {
			byKind[e.Kind] = append(byKind[e.Kind], e.ID)
			if owners[e.Kind] == nil {
				owners[e.Kind] = map[int64]string{}
			}
			owners[e.Kind][e.ID] = e.Owner
		}
	}
	seen, err := n.Scope.SeenOwned(ctx, byKind, func(kind string, id int64) string { return owners[kind][id] })
	if err != nil {
		return nil, err
	}
	visible := func(e Entry) bool { return !slices.Contains(ruled, e.Kind) || seen[e.Kind][e.ID] }
	answered := BestKept(found, text, visible)
	found = slices.DeleteFunc(found, func(e Entry) bool { return !visible(e) })
	if answered {
		return found, nil
	}
	for _, kind := range ruled {
		page, err := n.Lists.ListRecords(ctx, records.ListQuery{Kind: kind, Text: text, Limit: min(limit, Limit),
			Columns: []records.Column{records.ColTitle, records.ColCode, records.ColStatus}, Fields: []string{}})
		if err != nil {
			return nil, err
		}
		// The index answers the newest matches of each class it looks up: a
		// record it left out is older than those of its class it answered,
		// so it ranks after them (and after its list's records before it).
		for i, r := range page.Records {
			found = append(found, Entry{Kind: kind, ID: r.ID, Name: r.Title, Code: r.Code, Status: r.Status, Seq: -int64(i) - 1})
		}
	}
	return found, nil
}
