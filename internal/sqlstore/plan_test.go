package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// TestListQueryPlansUseIndexes holds every list-query shape to an index
// range with no sort step: at a million rows, a scan or a temporary sort
// B-tree turns a 1 ms page into hundreds of milliseconds.
func TestListQueryPlansUseIndexes(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, sort := range []records.Column{records.ColTitle, records.ColCode, records.ColStatus, records.ColDate, records.ColAmount, records.ColModified} {
		after := &records.Cursor{Values: []string{"5"}, ID: 9}
		if sort == records.ColStatus {
			after.Values = []string{"Active", "x"}
		}
		for _, status := range []string{"", "Active"} {
			for _, desc := range []bool{false, true} {
				for _, cur := range []*records.Cursor{nil, after} {
					q := records.ListQuery{Kind: "project", Sort: sort, Desc: desc, After: cur, Limit: 50}
					if status != "" {
						q.Filter = statusIs(status)
					}
					if status != "" && sort != records.ColTitle && sort != records.ColStatus {
						continue // status filters pair with the (status, title) index
					}
					plan, err := listStatement(sqlite, q, predicate{})
					if err != nil {
						t.Fatal(err)
					}
					st, args := plan.st, plan.args
					p := queryPlan(t, s, st, args...)
					if strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "USING INDEX") {
						t.Errorf("%+v: plan %q", q, p)
					}
				}
			}
		}
	}
}

// A page of a kind's built-in list in its default order (by name, or
// newest first), or filtered by status and sorted by name, reads one index
// alone when the list shows no document field: the indexes of those
// orders hold every promoted column a list shows (migration 0026).
func TestBuiltInListPagesReadOneCoveringIndex(t *testing.T) {
	s := openSQLite(t)
	covered := 0
	for _, k := range records.All() {
		_, lq, err := k.Query(k.BuiltInList(), records.ListRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(lq.Fields) > 0 || lq.Filter.Any != nil || (lq.Sort != records.ColTitle && lq.Sort != records.ColDate) {
			continue // shows a document field (the row is read for it), or a saved filter or sort of its own
		}
		queries := []records.ListQuery{lq}
		if _, ok := k.Field(records.ColStatus); ok {
			byStatus := lq
			byStatus.Sort, byStatus.Desc, byStatus.Filter = records.ColTitle, false, statusIs("Active")
			queries = append(queries, byStatus)
		}
		for _, q := range queries {
			plan, err := listStatement(sqlite, q, predicate{})
			if err != nil {
				t.Fatal(err)
			}
			if p := queryPlan(t, s, plan.st, plan.args...); !strings.Contains(p, "USING COVERING INDEX") || strings.Contains(p, "TEMP B-TREE") {
				t.Errorf("%s by %s, filter %v: plan %q", k.Name, q.Sort, q.Filter, p)
			}
			covered++
		}
	}
	if covered < 10 {
		t.Errorf("only %d built-in list pages checked", covered)
	}
}

// A list's text filter on a common text checks the records along the
// sort: by name (the default sort), from the name index alone, which holds
// the name, number and id the check reads — the table row is read (a
// deferred seek) only for a record that matches, and no search entry.
func TestCommonTextFilterIsCheckedInTheNameIndex(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, text := range []string{"wetland", "wetland restoration"} {
		probe := recordHayContains(text)
		for _, desc := range []bool{false, true} {
			plan, err := listStatement(sqlite, records.ListQuery{Kind: "project", Sort: records.ColTitle, Desc: desc, Limit: 10}, probe)
			if err != nil {
				t.Fatal(err)
			}
			if p := queryPlan(t, s, plan.st, plan.args...); p != "SEARCH records USING INDEX records_title (tenant_id=? AND kind=?)" {
				t.Errorf("%q, desc %v: plan %q", text, desc, p)
			}
			if reads := likeReads(t, s, plan.st, plan.args...); len(reads) == 0 || slices.Contains(reads, "table") {
				t.Errorf("%q, desc %v: the check reads %v", text, desc, reads)
			}
		}
	}
}

// likeReads says where each column the first LIKE of st compares comes
// from ("index" or "table"), from SQLite's bytecode: the columns read
// after the deferred seek of the walked index, up to the like() call.
func likeReads(t *testing.T, s *Store, st scoped, args ...any) []string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN "+st.text(s.d), st.bind("t", args)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var reads []string
	index, table := -1, -1
	for rows.Next() {
		var addr, p1, p2, p3, p5 int
		var op string
		var p4, comment any
		if err := rows.Scan(&addr, &op, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
			t.Fatal(err)
		}
		switch {
		case op == "DeferredSeek" && index < 0:
			index, table = p1, p3
		case op == "Column" && index >= 0 && p1 == index:
			reads = append(reads, "index")
		case op == "Column" && index >= 0 && p1 == table:
			reads = append(reads, "table")
		case op == "Function" && index >= 0 && strings.HasPrefix(fmt.Sprint(p4), "like("):
			return reads
		}
	}
	return nil
}

// A search walk reads one rowid range of its full-text index (the MATCH
// and both bounds go to FTS5: "M", ">", "<" in its plan) and looks each
// walked entry up by its key: no scan of the entries, whatever the kinds.
func TestSearchWalkPlansUseTheIndex(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, kindPartition := range []bool{false, true} {
		p := queryPlan(t, s, searchWalkRead(kindPartition, 2), `"wet"*`, "project", "project", 40, "project", "customer")
		if !strings.Contains(p, "VIRTUAL TABLE INDEX 192:M1><") || !strings.Contains(p, "SEARCH e USING INTEGER PRIMARY KEY") || strings.Contains(p, "SCAN e") {
			t.Errorf("kind partition %v: plan %q", kindPartition, p)
		}
	}
}

// queryPlan is SQLite's plan for st, its steps joined by "; ".
func queryPlan(t *testing.T, s *Store, st scoped, args ...any) string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+st.text(s.d), st.bind("t", args)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		rows.Scan(&id, &parent, &unused, &detail)
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}

// TestConformanceEverySortIsAnIndexWalk holds a list of every kind sorted
// by each of its sortable fields — references by name, document fields
// on their partial indexes — both ways, first page and after a cursor,
// to a walk of an index with no sort step, on both engines (PostgreSQL
// with sequential scans and sorts priced out, so a plan without them is
// one an index serves).
func TestConformanceEverySortIsAnIndexWalk(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		for _, k := range records.All() {
			for _, f := range k.AllFields() {
				if !f.Sortable {
					continue
				}
				keys, _ := s.d.sortKeysOf(k, f.Column)
				after := &records.Cursor{ID: 9}
				for _, key := range keys {
					after.Values = append(after.Values, map[keyType]string{keyText: "m", keyInt: "5", keyReal: "5.5"}[key.typ])
				}
				for _, desc := range []bool{false, true} {
					for _, cur := range []*records.Cursor{nil, after} {
						q := records.ListQuery{Kind: k.Name, Sort: f.Column, Desc: desc, After: cur, Limit: 50, Fields: []string{}}
						lp, err := listStatement(s.d, q, predicate{})
						if err != nil {
							t.Fatal(err)
						}
						if p := enginePlan(t, s, lp.st, lp.args...); !isIndexWalk(s, p) {
							t.Errorf("%s by %s (desc %v, cursor %v): %s", k.Name, f.Name, desc, cur != nil, p)
						}
					}
				}
			}
		}
		// The check can fail: a field without an index sorts.
		pr, _ := records.Lookup("projectrequest")
		f, _ := pr.FieldNamed("custrecord_res_pr_description")
		expr, _ := s.d.docSortExpr(f)
		st := scope(`SELECT id FROM records WHERE tenant_id = :tenant AND ` + kindIs(pr) + ` ORDER BY ` + expr + `, id LIMIT 51`)
		if p := enginePlan(t, s, st); isIndexWalk(s, p) {
			t.Errorf("sorted by a field without an index: %s", p)
		}
	})
}

// enginePlan is the engine's plan for st: SQLite's steps joined by "; ",
// PostgreSQL's EXPLAIN text.
func enginePlan(t *testing.T, s *Store, st scoped, args ...any) string {
	t.Helper()
	if s.d.name == sqlite.name {
		return queryPlan(t, s, st, args...)
	}
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	defer conn.ExecContext(ctx, `RESET ALL`)
	if _, err := conn.ExecContext(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `SET enable_sort = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, "EXPLAIN "+st.text(s.d), st.bind("t", args)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		rows.Scan(&line)
		plan = append(plan, strings.TrimSpace(line))
	}
	return strings.Join(plan, "; ")
}

// isIndexWalk says whether a plan reads an index in order, with no sort
// and no scan of the table.
func isIndexWalk(s *Store, plan string) bool {
	if s.d.name == sqlite.name {
		return strings.Contains(plan, "USING INDEX") && !strings.Contains(plan, "TEMP B-TREE")
	}
	return strings.Contains(plan, "Index Scan") && !strings.Contains(plan, "Sort") && !strings.Contains(plan, "Seq Scan")
}

// TestOwnersListsWalkTheirIndex: a list of one owner's records (a rule
// "projectmanager eq $me"), by name or by status, either way, first page
// or after a cursor, walks one of the owner's indexes (filterIndexes)
// with no sort step, however many records the owner has.
func TestOwnersListsWalkTheirIndex(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t)
	ten := seedTenant(t, s, "acme")
	at := time.UnixMilli(1_700_000_000_000).UTC()
	if err := ten.PutRecords(ctx, ownedProjects(1, 3000, func(i int64) int64 { return 1 + i%40 }, func(int64) bool { return false }, at)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	pk, _ := records.Lookup("project")
	// However many the owner's records: never walked along another index.
	defer func(o int64) { walkOwnedOver = o }(walkOwnedOver)
	walkOwnedOver = 0
	for _, sort := range []records.Column{records.ColTitle, records.ColStatus} {
		after := &records.Cursor{Values: []string{"Project 00100"}, ID: 100}
		if sort == records.ColStatus {
			after.Values = []string{"Active", "Project 00100"}
		}
		for _, desc := range []bool{false, true} {
			for _, cur := range []*records.Cursor{nil, after} {
				q := records.ListQuery{Kind: "project", Sort: sort, Desc: desc, After: cur, Limit: 50, Filter: mustFilter(t, pk, "projectmanager eq 7")}
				d, err := ten.planFollowed(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := listStatement(d, q, predicate{})
				if err != nil {
					t.Fatal(err)
				}
				if p := queryPlan(t, s, plan.st, plan.args...); strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "INDEX "+docIndexPrefix) {
					t.Errorf("by %s, desc %v, after %v: plan %q", sort, desc, cur, p)
				}
			}
		}
	}
}
