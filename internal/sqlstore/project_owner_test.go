package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// staleProjectOwners counts the records of a project whose project_owner is
// not their project's owner as the project holds it now (migration 0038):
// empty for a project that is not there or has none.
func staleProjectOwners(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	err := s.db.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM records r WHERE r.project_id IS NOT NULL
		AND COALESCE(r.project_owner, 'NULL') <> COALESCE((SELECT `+ownerSQL("$.projectmanager.id")+` FROM records p
			WHERE p.tenant_id = r.tenant_id AND p.kind = 'project' AND p.id = r.project_id), '')`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// petesInvoices is the ids of Pete's list of invoices under his rule
// (job.projectmanager eq $me), and the list's total.
func petesInvoices(t *testing.T, ten *Tenant) ([]int64, int64) {
	t.Helper()
	ctx := context.Background()
	f, err := petesGuard(ten).Narrow(ctx, "invoice", records.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "invoice", Filter: f, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "invoice", Filter: f}, Count: true})
	if err != nil {
		t.Fatal(err)
	}
	return idsOf(page.Records), sum.Total
}

func project(id, managerID int64) records.Record {
	r := docRecord("project", id, fmt.Sprintf("Project %d", id), "Active", map[string]any{"projectmanager": manager(managerID, "x")})
	r.ParentID, r.ParentName, r.ModifiedAt = 5, "Acme Water", time.Now().UTC()
	return r
}

func invoiceOf(id, projectID int64) records.Record {
	r := docRecord("invoice", id, fmt.Sprintf("Invoice %d", id), "Open", nil)
	r.ProjectID, r.ProjectName, r.Amount, r.ModifiedAt = projectID, "x", ptr(int64(100)), time.Now().UTC()
	return r
}

// Each record of a project carries its project's manager, whatever order
// they are written in, on both engines: an invoice written before its
// project, its project's manager changing, the invoice moving to another
// project, its project going, a bulk load (no triggers) and the project's
// owner field changing; Pete's invoices under his rule follow each step.
func TestConformanceProjectOwnerFollowsTheProject(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := guardFixture(t, s) // Pete's invoices: 400 (project 10), 401 (11)
		step := func(what string, want []int64) {
			t.Helper()
			if n := staleProjectOwners(t, s); n != 0 {
				t.Fatalf("%s: %d records carry another owner than their project's", what, n)
			}
			got, total := petesInvoices(t, ten)
			if !slices.Equal(got, want) || total != int64(len(want)) {
				t.Fatalf("%s: Pete's invoices %v (total %d), want %v", what, got, total, want)
			}
		}
		step("the fixture", []int64{400, 401})
		put := func(rs ...records.Record) {
			t.Helper()
			if err := ten.PutRecords(ctx, rs); err != nil {
				t.Fatal(err)
			}
		}
		put(invoiceOf(500, 30))
		step("an invoice before its project", []int64{400, 401})
		put(project(30, 2))
		step("its project, Pete's, after it", []int64{400, 401, 500})
		put(project(30, 1))
		step("the project handed to Ada", []int64{400, 401})
		put(invoiceOf(500, 10))
		step("the invoice moved to Pete's project 10", []int64{400, 401, 500})
		r := invoiceOf(500, 0)
		put(r)
		step("the invoice of no project", []int64{400, 401})
		put(invoiceOf(500, 11))
		if _, err := s.db.ExecContext(ctx, s.d.rebind(`DELETE FROM records WHERE kind = 'project' AND id = ?`), 11); err != nil {
			t.Fatal(err)
		}
		step("its project gone", []int64{400})
		put(project(11, 2))
		step("the project back", []int64{400, 401, 500})

		// A bulk load runs without the triggers; the owners are set after it.
		if _, err := s.db.ExecContext(ctx, `UPDATE records SET project_owner = NULL`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO pending_indexes (name, ddl) VALUES ('test_pending', 'CREATE INDEX IF NOT EXISTS test_pending ON records (tenant_id)')`); err != nil {
			t.Fatal(err)
		}
		if err := s.rebuildPendingIndexes(ctx); err != nil {
			t.Fatal(err)
		}
		step("set afresh", []int64{400, 401, 500})

		// The project's owner field changing (here: back to the registry's)
		// sets every record's afresh.
		for _, st := range []string{`UPDATE owner_fields SET path = '$.nobody.id' WHERE kind = 'project'`, `UPDATE records SET project_owner = 'x' WHERE project_id IS NOT NULL`} {
			if _, err := s.db.ExecContext(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		err = s.syncOwners(ctx, conn)
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		step("the owner field changed back", []int64{400, 401, 500})
	})
}

// Writers hand project 11 between Pete and Ada while others write
// invoices of it and move invoices between projects 10 and 11: when they
// are done, every record carries its project's owner (on PostgreSQL an
// invoice written beside a change of its project waits for it, or the
// change for the invoice), and Pete's list is his projects' invoices.
func TestConformanceProjectOwnerUnderWriters(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := guardFixture(t, s)
		var wg sync.WaitGroup
		const rounds = 40
		for w := range 3 {
			wg.Go(func() {
				for i := range rounds {
					if err := ten.PutRecords(ctx, []records.Record{project(11, int64(1+(i+w)%2))}); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		var written sync.Map // invoice id → project id, as last written
		for w := range 3 {
			wg.Go(func() {
				for i := range rounds {
					id, p := int64(1000+w*rounds+i), int64(10+i%2)
					if i%3 == 2 { // move an earlier one
						id, p = int64(1000+w*rounds+i-2), int64(10+(i+1)%2)
					}
					if err := ten.PutRecords(ctx, []records.Record{invoiceOf(id, p)}); err != nil {
						t.Error(err)
						return
					}
					written.Store(id, p)
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		if n := staleProjectOwners(t, s); n != 0 {
			t.Fatalf("%d records carry another owner than their project's", n)
		}
		p11, err := ten.Record(ctx, "project", 11)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Projectmanager struct{ ID string } }
		if err := json.Unmarshal(p11.Fields, &doc); err != nil {
			t.Fatal(err)
		}
		petes11 := doc.Projectmanager.ID == "2"
		want := []int64{400}
		if petes11 {
			want = append(want, 401)
		}
		written.Range(func(id, p any) bool {
			if p.(int64) == 10 || petes11 {
				want = append(want, id.(int64))
			}
			return true
		})
		slices.Sort(want)
		f, err := petesGuard(ten).Narrow(ctx, "invoice", records.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		all, err := ten.ListRecords(ctx, records.ListQuery{Kind: "invoice", Filter: f, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		if got := idsOf(all.Records); !slices.Equal(got, want) {
			t.Fatalf("Pete's invoices (project 11 his: %v) %v, want %v", petes11, got, want)
		}
	})
}

// An invoice written while a write of its project is not committed yet
// carries the project's owner as written once both are in: a change of
// project 11's manager (Pete to Ada), and a new project 30 of Pete's. On
// PostgreSQL the invoice's write waits for the project's, or the
// project's update of its records for the invoice (without that, the
// invoice kept Pete, or no owner); on SQLite the writes wait for the
// write lock.
func TestConformanceProjectOwnerOfARecordWrittenBesideItsProjectsWrite(t *testing.T) {
	for _, c := range []struct {
		name, write string
		project     int64
		want        []int64
	}{
		{"a change of its manager", `UPDATE records SET fields = %s WHERE kind = 'project' AND id = 11`, 11, []int64{400}},
		{"a new project", `INSERT INTO records (tenant_id, kind, id, title, modified_at, fields)
			SELECT tenant_id, kind, 30, 'Project 30', modified_at, fields FROM records WHERE kind = 'project' AND id = 10`, 30, []int64{400, 401, 700}},
	} {
		t.Run(c.name, func(t *testing.T) {
			engines(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				ten := guardFixture(t, s)
				tx, err := s.db.BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback()
				doc := "jsonb(?)"
				if s.d.name == "postgres" {
					doc = "CAST(? AS jsonb)"
				}
				write, args := c.write, []any{}
				if strings.Contains(write, "%s") {
					write, args = fmt.Sprintf(write, doc), append(args, `{"projectmanager": {"id": "1", "refName": "Ada"}}`)
				}
				if _, err := tx.ExecContext(ctx, s.d.rebind(write), args...); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- ten.PutRecords(ctx, []records.Record{invoiceOf(700, c.project)}) }()
				time.Sleep(300 * time.Millisecond) // the invoice's write under way (or done)
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				if n := staleProjectOwners(t, s); n != 0 {
					t.Fatalf("%d records carry another owner than their project's", n)
				}
				if got, _ := petesInvoices(t, ten); !slices.Equal(got, c.want) {
					t.Fatalf("Pete's invoices %v, want %v", got, c.want)
				}
			})
		})
	}
}

// The records' project column references projects in every kind, as
// migration 0038's triggers take it to.
func TestTheProjectColumnReferencesProjects(t *testing.T) {
	for _, k := range records.All() {
		for _, f := range k.Fields {
			if f.Column == records.ColProject && (f.Type != records.TypeRef || f.Ref != projectRefKind) {
				t.Errorf("%s.%s is the project column and references %q", k.Name, f.Name, f.Ref)
			}
		}
	}
}
