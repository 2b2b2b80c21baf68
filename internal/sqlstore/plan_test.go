package sqlstore

import (
	"context"
	"strings"
	"testing"

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
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+st.sql, st.bind("t", args)...)
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
