package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// TestConformanceAccountFields lists, sorts (keyset pages included) and
// filters a kind on fields an ERP account added, kept in the document,
// on both engines.
func TestConformanceAccountFields(t *testing.T) {
	reg := budgetFields(t, []records.Field{
		{Name: "custrecord_res_bud_region", Label: "Region", Type: records.TypeText},
		{Name: "custrecord_res_bud_actual", Label: "Actual", Type: records.TypeMoney},
		{Name: "custrecord_res_bud_phase", Label: "Phase", Type: records.TypeStatus, Choices: []string{"Design", "Build"}},
	})
	k, _ := reg.Lookup("budget")
	field := func(name string) records.Field { f, _ := k.FieldNamed(name); return f }
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		s.SetKinds(map[portal.TenantID]*records.Registry{"acme": reg})
		if err := s.IndexDocumentFields(ctx, reg); err != nil {
			t.Fatal(err)
		}
		ten := seedTenant(t, s, "acme")
		var rs []records.Record
		for i := int64(1); i <= 230; i++ {
			doc := map[string]any{"name": fmt.Sprintf("Line %03d", i)}
			if i%7 != 0 { // some records lack the fields: they sort first
				doc["custrecord_res_bud_region"] = []string{"Piedmont", "Coast", "Mountains"}[i%3]
				doc["custrecord_res_bud_actual"] = float64(i%50) * 10.25
				doc["custrecord_res_bud_phase"] = map[string]string{"id": "1", "refName": []string{"Design", "Build"}[i%2]}
			}
			b, _ := json.Marshal(doc)
			rs = append(rs, records.Record{Kind: "budget", ID: i, Title: doc["name"].(string), ModifiedAt: time.UnixMilli(1_700_000_000_000 + i).UTC(), Fields: b})
		}
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		list := func(q records.ListQuery) []records.Record {
			t.Helper()
			var out []records.Record
			for pages := 0; ; pages++ {
				if pages > 100 {
					t.Fatal("paging does not end")
				}
				page, err := ten.ListRecords(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, page.Records...)
				if page.Next == nil {
					return out
				}
				q.After = page.Next
			}
		}
		for _, tc := range []struct {
			field string
			desc  bool
			less  func(a, b records.Record) bool
		}{
			{"custrecord_res_bud_region", false, func(a, b records.Record) bool {
				return str(a, "custrecord_res_bud_region") <= str(b, "custrecord_res_bud_region")
			}},
			{"custrecord_res_bud_actual", true, func(a, b records.Record) bool {
				return num(a, "custrecord_res_bud_actual") >= num(b, "custrecord_res_bud_actual")
			}},
			{"custrecord_res_bud_phase", false, func(a, b records.Record) bool {
				return str(a, "custrecord_res_bud_phase") <= str(b, "custrecord_res_bud_phase")
			}},
		} {
			got := list(records.ListQuery{Kind: "budget", Sort: field(tc.field).Column, Desc: tc.desc, Limit: 17})
			ids := map[int64]bool{}
			for i, r := range got {
				ids[r.ID] = true
				if i > 0 && !tc.less(got[i-1], r) {
					t.Fatalf("sorted by %s: %v before %v", tc.field, got[i-1].Extra, r.Extra)
				}
			}
			if len(ids) != 230 || len(got) != 230 {
				t.Fatalf("sorted by %s: %d rows, %d distinct, want 230", tc.field, len(got), len(ids))
			}
		}
		parse := func(expr string) records.Filter {
			f, err := records.ParseFilter(k, expr)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		for expr, want := range map[string]int{
			"custrecord_res_bud_region eq Piedmont":                                  len(idsWhere(230, func(i int64) bool { return i%3 == 0 && i%7 != 0 })),
			"custrecord_res_bud_region contains COAST":                               len(idsWhere(230, func(i int64) bool { return i%3 == 1 && i%7 != 0 })),
			"custrecord_res_bud_actual gt 400":                                       len(idsWhere(230, func(i int64) bool { return float64(i%50)*10.25 > 400 && i%7 != 0 })),
			"custrecord_res_bud_phase eq Design and custrecord_res_bud_actual le 10": len(idsWhere(230, func(i int64) bool { return i%2 == 0 && float64(i%50)*10.25 <= 10 && i%7 != 0 })),
		} {
			got := list(records.ListQuery{Kind: "budget", Filter: parse(expr), Limit: 500})
			if len(got) != want || want == 0 {
				t.Errorf("%s: %d records, want %d", expr, len(got), want)
			}
		}
		// A list row shows the values, a status by its display text.
		row := k.Row(list(records.ListQuery{Kind: "budget", Filter: parse("custrecord_res_bud_actual eq 10.25"), Limit: 1})[0],
			k.Columns([]string{"custrecord_res_bud_region", "custrecord_res_bud_actual", "custrecord_res_bud_phase"}))
		if row["custrecord_res_bud_actual"] != 10.25 || row["custrecord_res_bud_region"] != "Coast" || row["custrecord_res_bud_phase"] != "Build" {
			t.Errorf("row %v", row)
		}
	})
}

func idsWhere(n int64, keep func(int64) bool) []int64 {
	var out []int64
	for i := int64(1); i <= n; i++ {
		if keep(i) {
			out = append(out, i)
		}
	}
	return out
}

func str(r records.Record, name string) string  { s, _ := r.Extra[name].(string); return s }
func num(r records.Record, name string) float64 { n, _ := r.Extra[name].(float64); return n }

// TestAccountFieldSortIsAnIndexRange holds a list sorted by an account
// field to a walk of its index, as for the promoted columns.
func TestAccountFieldSortIsAnIndexRange(t *testing.T) {
	reg := budgetFields(t, []records.Field{
		{Name: "custrecord_res_bud_region", Label: "Region", Type: records.TypeText},
		{Name: "custrecord_res_bud_actual", Label: "Actual", Type: records.TypeMoney},
	})
	dir := t.TempDir()
	s, err := Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.IndexDocumentFields(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	if err := s.IndexDocumentFields(context.Background(), reg); err != nil {
		t.Fatalf("a second time: %v", err)
	}
	// Reopened, the store keeps the account's indexes (Open drops nothing).
	s.Close()
	if s, err = Open(context.Background(), "", dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.SetKinds(map[portal.TenantID]*records.Registry{"acme": reg})
	d := s.Tenant("acme").d
	k, _ := reg.Lookup("budget")
	for _, name := range []string{"custrecord_res_bud_region", "custrecord_res_bud_actual"} {
		f, _ := k.FieldNamed(name)
		q := records.ListQuery{Kind: "budget", Sort: f.Column, Limit: 50, After: &records.Cursor{Values: []string{"5"}, ID: 3}}
		lp, err := listStatement(d, q, predicate{})
		if err != nil {
			t.Fatal(err)
		}
		plan := queryPlan(t, s, lp.st, lp.args...)
		if !strings.Contains(plan, "USING INDEX records_df_") || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("sorted by %s: %s", name, plan)
		}
	}
}

// budgetFields is the code's kinds with fs added to budgets, as an
// account's mapping would.
func budgetFields(t *testing.T, fs []records.Field) *records.Registry {
	t.Helper()
	reg, err := records.Code().WithAccountFields(func(kind string) []records.Field {
		if kind == "budget" {
			return fs
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}
