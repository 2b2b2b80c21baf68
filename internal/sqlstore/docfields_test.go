package sqlstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// sortCase is one field to sort by: its kind, and each test record's sort
// key (what the list must order by: the display text of a reference or
// list value, a number, a boolean as 0 or 1; a missing value as "" or 0).
type sortCase struct {
	kind, field string
	key         func(r records.Record) any
}

// fieldRecords makes n records of kind whose documents hold, for every
// seventh record, none of the fields (missing values), and else values
// that repeat (ties broken by id) in mixed case (byte order: "Z" < "a").
func fieldRecords(kind string, n int64) []records.Record {
	var out []records.Record
	words := []string{"alder", "Birch", "cedar", "Dogwood", "elm", "Zelkova", "ash"}
	for i := int64(1); i <= n; i++ {
		doc := map[string]any{"id": fmt.Sprint(i)}
		r := records.Record{Kind: kind, ID: i, Title: fmt.Sprintf("%s %03d", words[i%7], (i*37)%101),
			Code: fmt.Sprintf("C-%04d", i), ModifiedAt: time.UnixMilli(1_700_000_000_000 + i).UTC()}
		if i%5 != 0 {
			r.ParentID, r.ParentName = 100+i%9, words[i%9%7]+" client"
			r.ProjectID, r.ProjectName = 200+i%4, words[i%4]+" project"
		}
		if i%7 != 0 {
			doc["duedate"] = fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28)
			doc["amountremaining"] = float64(i%23) * 12.5
			doc["terms"] = map[string]string{"id": fmt.Sprint(i % 3), "refName": []string{"Net 30", "Due on receipt", "net 60"}[i%3]}
			doc["otherrefnum"] = words[i%6] + "-PO"
			doc["projectmanager"] = map[string]string{"id": fmt.Sprint(i % 5), "refName": words[i%5] + " Manager"}
			doc["percentcomplete"] = float64((i * 13) % 101)
			doc["isinactive"] = i%3 == 0
		}
		r.Fields, _ = json.Marshal(doc)
		out = append(out, r)
	}
	return out
}

// docOf reads a test record's document member.
func docOf(r records.Record, name string) any {
	var doc map[string]any
	json.Unmarshal(r.Fields, &doc)
	return doc[name]
}

func textKey(name string) func(records.Record) any {
	return func(r records.Record) any { s, _ := docOf(r, name).(string); return s }
}

func refNameKey(name string) func(records.Record) any {
	return func(r records.Record) any {
		m, _ := docOf(r, name).(map[string]any)
		s, _ := m["refName"].(string)
		return s
	}
}

func numberKey(name string) func(records.Record) any {
	return func(r records.Record) any { n, _ := docOf(r, name).(float64); return n }
}

var sortCases = []sortCase{
	{"invoice", "entity", func(r records.Record) any { return r.ParentName }}, // a reference, by name
	{"invoice", "job", func(r records.Record) any { return r.ProjectName }},   // the project, by name
	{"invoice", "duedate", textKey("duedate")},                                // a document date
	{"invoice", "amountremaining", numberKey("amountremaining")},              // money in the document
	{"invoice", "terms", refNameKey("terms")},                                 // a list value, by its text
	{"invoice", "otherrefnum", textKey("otherrefnum")},                        // text
	{"project", "projectmanager", refNameKey("projectmanager")},               // a reference in the document
	{"project", "percentcomplete", numberKey("percentcomplete")},              // a percent
	{"project", "isinactive", func(r records.Record) any { b, _ := docOf(r, "isinactive").(bool); return map[bool]float64{true: 1}[b] }},
}

func compareKeys(a, b any) int {
	switch x := a.(type) {
	case string:
		return strings.Compare(x, b.(string))
	case float64:
		return cmp.Compare(x, b.(float64))
	}
	panic(fmt.Sprintf("key %T", a))
}

// TestConformanceSortByAnyField pages through lists sorted by each kind
// of field — a reference by the referenced record's name, a document
// date, money, list value, text, reference, percent and boolean — both
// ways, 13 rows a page: every record exactly once, in the order of its
// key then id, missing values first (ascending).
func TestConformanceSortByAnyField(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		byKind := map[string][]records.Record{}
		for _, kind := range []string{"invoice", "project"} {
			byKind[kind] = fieldRecords(kind, 157)
			if err := ten.PutRecords(ctx, byKind[kind]); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range sortCases {
			k, _ := records.Lookup(c.kind)
			f, ok := k.FieldNamed(c.field)
			if !ok || !f.Sortable {
				t.Fatalf("%s.%s: not a sortable field", c.kind, c.field)
			}
			for _, desc := range []bool{false, true} {
				want := slices.Clone(byKind[c.kind])
				slices.SortFunc(want, func(a, b records.Record) int {
					d := cmp.Or(compareKeys(c.key(a), c.key(b)), cmp.Compare(a.ID, b.ID))
					if desc {
						return -d
					}
					return d
				})
				q := records.ListQuery{Kind: c.kind, Sort: f.Column, Desc: desc, Limit: 13, Fields: []string{}}
				var got []int64
				for pages := 0; ; pages++ {
					if pages > 20 {
						t.Fatalf("%s.%s: paging does not end", c.kind, c.field)
					}
					page, err := ten.ListRecords(ctx, q)
					if err != nil {
						t.Fatalf("%s.%s: %v", c.kind, c.field, err)
					}
					for _, r := range page.Records {
						got = append(got, r.ID)
					}
					if page.Next == nil {
						break
					}
					q.After = page.Next
				}
				var wantIDs []int64
				for _, r := range want {
					wantIDs = append(wantIDs, r.ID)
				}
				if !slices.Equal(got, wantIDs) {
					t.Errorf("%s sorted by %s (desc %v):\n got %v\nwant %v", c.kind, c.field, desc, got, wantIDs)
				}
			}
		}
	})
}

// TestConformanceDocumentFieldValues reads document fields into list rows
// with their types (a reference as {id, refName}, numbers, booleans, list
// values by text; nothing for a missing value), and filters on them.
func TestConformanceDocumentFieldValues(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.PutRecords(ctx, fieldRecords("project", 30)); err != nil {
			t.Fatal(err)
		}
		k, _ := records.Lookup("project")
		cols := k.Columns([]string{"projectmanager", "percentcomplete", "isinactive"})
		page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Limit: 30, Fields: []string{"projectmanager", "percentcomplete", "isinactive"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Records {
			row := k.Row(r, cols)
			if r.ID%7 == 0 {
				if row["projectmanager"] != nil || row["percentcomplete"] != nil || row["isinactive"] != nil {
					t.Errorf("project %d has no such fields, row %v", r.ID, row)
				}
				continue
			}
			want := records.Row{"id": r.ID, "projectmanager": records.Ref{ID: r.ID % 5, RefName: []string{"alder", "Birch", "cedar", "Dogwood", "elm"}[r.ID%5] + " Manager"},
				"percentcomplete": float64((r.ID * 13) % 101), "isinactive": r.ID%3 == 0}
			if r.ID%5 == 0 {
				want["projectmanager"] = nil // id 0: no reference
			}
			if fmt.Sprint(row) != fmt.Sprint(want) {
				t.Errorf("project %d: row %v, want %v", r.ID, row, want)
			}
		}
		for expr, keep := range map[string]func(i int64) bool{
			"projectmanager eq 3":                               func(i int64) bool { return i%7 != 0 && i%5 == 3 },
			"projectmanager ne 3":                               func(i int64) bool { return i%7 == 0 || i%5 != 3 },
			"percentcomplete ge 50":                             func(i int64) bool { return i%7 != 0 && (i*13)%101 >= 50 },
			"isinactive eq true":                                func(i int64) bool { return i%7 != 0 && i%3 == 0 },
			"isinactive eq false and percentcomplete lt 40":     func(i int64) bool { return (i%7 == 0 || i%3 != 0) && (i%7 == 0 || (i*13)%101 < 40) },
			"custentity_res_state eq NC or projectmanager eq 1": func(i int64) bool { return i%7 != 0 && i%5 == 1 },
		} {
			f, err := records.ParseFilter(k, expr)
			if err != nil {
				t.Fatal(err)
			}
			page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Filter: f, Limit: 100, Fields: []string{}})
			if err != nil {
				t.Fatalf("%s: %v", expr, err)
			}
			var got []int64
			for _, r := range page.Records {
				got = append(got, r.ID)
			}
			slices.Sort(got)
			if want := idsWhere(30, keep); !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("%s: %v, want %v", expr, got, want)
			}
		}
	})
}
