package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// engines runs fn as a subtest on SQLite always, and on PostgreSQL when
// PORTICO_TEST_DATABASE_URL is set, with the package's other tests that
// run on engines, in parallel (most of their time is the databases' own
// work, and waits). A test that changes the package's state (a tuning
// variable, the kind registry) runs alone, by enginesAlone.
func engines(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Parallel()
	enginesAlone(t, fn)
}

// enginesAlone is engines without the others running beside it. Each
// SQLite run gets its own copy of a freshly migrated store, each
// PostgreSQL run a fresh schema, dropped afterwards, so runs never see
// each other's rows.
func enginesAlone(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Run("sqlite", func(t *testing.T) {
		s, err := Open(context.Background(), "", migratedCopy(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		fn(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		fn(t, openPostgresSchema(t, base))
	})
}

func openPostgresSchema(t *testing.T, base string) *Store {
	t.Helper()
	s, drop, err := OpenScratch(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); drop() })
	return s
}

func ptr[T any](v T) *T { return &v }

// openSQLite opens a store on a new SQLite database, closed when the test ends.
func openSQLite(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testRecord(kind string, id int64, title, status string) records.Record {
	doc, _ := json.Marshal(map[string]any{"id": fmt.Sprint(id), "companyname": title, "custentity_x": []int{1, 2}})
	return records.Record{
		Kind: kind, ID: id, Title: title, Code: fmt.Sprintf("C-%04d", id), Status: status,
		Amount: ptr(int64(id * 100)), Date: "2026-01-02",
		ModifiedAt: time.UnixMilli(1_700_000_000_000 + id).UTC(), Fields: doc,
	}
}

func seedTenant(t *testing.T, s *Store, id portal.TenantID) *Tenant {
	t.Helper()
	if err := s.EnsureTenant(context.Background(), id, string(id)); err != nil {
		t.Fatal(err)
	}
	return s.Tenant(id)
}

func TestConformanceMigrateIsIdempotent(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		v1, err := s.Migrate(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		v2, err := s.Migrate(context.Background())
		if err != nil || v1 != v2 || v1 < 1 {
			t.Fatalf("second migrate: version %d then %d, err %v", v1, v2, err)
		}
	})
}

func TestConformanceRecordsRoundTrip(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		in := testRecord("project", 7, "Cedar Creek Wetland", "Active")
		in.ParentID, in.ProjectID, in.ExternalID = 3, 0, "EXT-7"
		if err := ten.PutRecords(ctx, []records.Record{in}); err != nil {
			t.Fatal(err)
		}
		got, err := ten.Record(ctx, "project", 7)
		if err != nil {
			t.Fatal(err)
		}
		var a, b map[string]any
		json.Unmarshal(in.Fields, &a)
		json.Unmarshal(got.Fields, &b)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("fields: got %s, want %s", got.Fields, in.Fields)
		}
		if got.Amount == nil || *got.Amount != *in.Amount {
			t.Errorf("amount = %v, want %d", got.Amount, *in.Amount)
		}
		got.Fields, in.Fields, got.Amount, in.Amount = nil, nil, nil, nil
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", in) {
			t.Errorf("record:\n got %+v\nwant %+v", got, in)
		}
		// An upsert replaces.
		in = testRecord("project", 7, "Cedar Creek Wetland II", "Closed")
		in.Amount = nil
		if err := ten.PutRecords(ctx, []records.Record{in}); err != nil {
			t.Fatal(err)
		}
		got, _ = ten.Record(ctx, "project", 7)
		if got.Title != "Cedar Creek Wetland II" || got.Status != "Closed" || got.Amount != nil || got.ParentID != 0 {
			t.Errorf("after upsert: %+v", got)
		}
		if sum, err := ten.RecordSummary(ctx, "project", 7); err != nil || sum.Fields != nil || sum.Title != "Cedar Creek Wetland II" {
			t.Errorf("summary: %+v %v", sum, err)
		}
		if _, err := ten.Record(ctx, "project", 8); !portal.IsNotFound(err) {
			t.Errorf("missing record: err = %v, want not found", err)
		}
		if _, err := ten.Record(ctx, "customer", 7); !portal.IsNotFound(err) {
			t.Errorf("same id, other kind: err = %v, want not found", err)
		}
	})
}

func TestConformanceTenantIsolation(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		a, b := seedTenant(t, s, "alpha"), seedTenant(t, s, "beta")
		if err := a.PutRecords(ctx, []records.Record{testRecord("project", 1, "Alpha only", "Active")}); err != nil {
			t.Fatal(err)
		}
		if err := a.PutFiles(ctx, []records.File{{ID: 1, Kind: "project", RecordID: 1, Name: "a.txt",
			ContentType: "text/plain", Content: []byte("alpha"), ModifiedAt: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Record(ctx, "project", 1); !portal.IsNotFound(err) {
			t.Errorf("tenant beta read alpha's record: err = %v", err)
		}
		page, err := b.ListRecords(ctx, records.ListQuery{Kind: "project", Limit: 10})
		if err != nil || len(page.Records) != 0 {
			t.Errorf("tenant beta lists %d of alpha's records (err %v)", len(page.Records), err)
		}
		if fs, _ := b.Files(ctx, "project", 1); len(fs) != 0 {
			t.Errorf("tenant beta sees alpha's files: %v", fs)
		}
		if _, err := b.File(ctx, "project", 1, 1); !portal.IsNotFound(err) {
			t.Errorf("tenant beta reads alpha's file: err = %v", err)
		}
		// The same id in another tenant is another record.
		if err := b.PutRecords(ctx, []records.Record{testRecord("project", 1, "Beta only", "Active")}); err != nil {
			t.Fatal(err)
		}
		ra, _ := a.Record(ctx, "project", 1)
		if ra.Title != "Alpha only" {
			t.Errorf("beta's write changed alpha's record: %q", ra.Title)
		}
	})
}

func TestConformanceKeysetPaging(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		var rs []records.Record
		// 1,001 rows: more than one upsert batch, duplicate titles to
		// exercise the id tie-break, mixed case to pin byte-wise order.
		for i := int64(1); i <= 1001; i++ {
			status := []string{"Active", "Closed", "Planning"}[i%3]
			rs = append(rs, testRecord("project", i, fmt.Sprintf("%c site %03d", "aBc"[i%3], i%250), status))
		}
		rs = append(rs, testRecord("customer", 1, "Not a project", "Active"))
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			q    records.ListQuery
			want int
		}{
			{"title asc", records.ListQuery{Kind: "project", Limit: 97}, 1001},
			{"title desc", records.ListQuery{Kind: "project", Limit: 100, Desc: true}, 1001},
			{"status filter", records.ListQuery{Kind: "project", Filter: statusIs("Closed"), Limit: 50}, 334},
			{"by status", records.ListQuery{Kind: "project", Sort: records.ColStatus, Limit: 90}, 1001},
			{"by amount desc", records.ListQuery{Kind: "project", Sort: records.ColAmount, Desc: true, Limit: 77}, 1001},
			{"by date", records.ListQuery{Kind: "project", Sort: records.ColDate, Limit: 400}, 1001},
			{"by code", records.ListQuery{Kind: "project", Sort: records.ColCode, Limit: 500}, 1001},
			{"by modified desc", records.ListQuery{Kind: "project", Sort: "modified_at", Desc: true, Limit: 33}, 1001},
			// Naming no columns, a page still reads what its sort and cursor need.
			{"by status, no columns", records.ListQuery{Kind: "project", Sort: records.ColStatus, Limit: 90, Columns: []records.Column{}}, 1001},
			{"by amount, no columns", records.ListQuery{Kind: "project", Sort: records.ColAmount, Limit: 77, Columns: []records.Column{}}, 1001},
			{"by modified, no columns", records.ListQuery{Kind: "project", Sort: "modified_at", Limit: 33, Columns: []records.Column{}}, 1001},
		} {
			t.Run(tc.name, func(t *testing.T) {
				seen := map[int64]bool{}
				var prev *records.Record
				q := tc.q
				for pages := 0; ; pages++ {
					if pages > 100 {
						t.Fatal("paging does not end")
					}
					page, err := ten.ListRecords(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					for i := range page.Records {
						r := page.Records[i]
						if seen[r.ID] || r.Kind != "project" || (len(q.Filter.Any) > 0 && r.Status != "Closed") {
							t.Fatalf("row %d repeated or wrong: %+v", r.ID, r)
						}
						seen[r.ID] = true
						if prev != nil && !inOrder(q, *prev, r) {
							t.Fatalf("out of order: %q/%d then %q/%d", orderKey(q, *prev), prev.ID, orderKey(q, r), r.ID)
						}
						prev = &r
					}
					if !page.HasMore {
						break
					}
					q.After = page.Next
				}
				if len(seen) != tc.want {
					t.Errorf("paged through %d rows, want %d", len(seen), tc.want)
				}
			})
		}
		t.Run("reads the columns named", func(t *testing.T) {
			page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Sort: records.ColCode, Limit: 5, Columns: []records.Column{records.ColStatus}})
			if err != nil || len(page.Records) != 5 {
				t.Fatalf("%d records, %v", len(page.Records), err)
			}
			for _, r := range page.Records {
				if r.Kind != "project" || r.ID == 0 || r.Status == "" || r.Code == "" || r.Title != "" || !r.ModifiedAt.IsZero() || r.Amount != nil {
					t.Errorf("want kind, id, status and the sort's code only: %+v", r)
				}
			}
		})
	})
}

func statusIs(s string) records.Filter {
	return records.Filter{Any: [][]records.Cond{{{Column: records.ColStatus, Op: records.OpEq, Value: s}}}}
}

func orderKey(q records.ListQuery, r records.Record) string {
	switch q.Sort {
	case records.ColCode:
		return r.Code
	case records.ColStatus:
		return r.Status + "\x00" + r.Title
	case records.ColAmount:
		return fmt.Sprintf("%020d", *r.Amount)
	case records.ColDate:
		return r.Date
	case "modified_at":
		return fmt.Sprintf("%020d", r.ModifiedAt.UnixMilli())
	}
	return r.Title
}

func inOrder(q records.ListQuery, a, b records.Record) bool {
	ka, kb := orderKey(q, a), orderKey(q, b)
	if q.Desc {
		return ka > kb || (ka == kb && a.ID > b.ID)
	}
	return ka < kb || (ka == kb && a.ID < b.ID)
}

func TestConformanceListRejectsBadQueries(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ten := seedTenant(t, s, "acme")
		for _, q := range []records.ListQuery{
			{Kind: "project", Limit: 0},
			{Kind: "project", Limit: 501},
			{Kind: "project", Limit: 10, Sort: "fields; DROP TABLE records"},
			{Kind: "project", Limit: 10, Sort: "modified_at", After: &records.Cursor{Values: []string{"yesterday"}}},
			{Kind: "project", Limit: 10, Sort: records.ColStatus, After: &records.Cursor{Values: []string{"Active"}}},
			{Kind: "projectrequest", Limit: 10, Sort: records.DocColumn("custrecord_res_pr_description")}, // no index
			{Kind: "project", Limit: 10, Sort: records.DocColumn("nosuchfield")},
		} {
			if _, err := ten.ListRecords(context.Background(), q); portal.ErrorCode(err) != portal.CodeInvalid {
				t.Errorf("%+v: err = %v, want invalid", q, err)
			}
		}
	})
}

func TestConformanceFiles(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		content := []byte("%PDF-1.4 tiny\x00\xff binary")
		err := ten.PutFiles(ctx, []records.File{
			{ID: 10, Kind: "invoice", RecordID: 5, Name: "invoice.pdf", ContentType: "application/pdf", Content: content, Size: 1, ModifiedAt: time.UnixMilli(1000)},
			{ID: 11, Kind: "invoice", RecordID: 5, Name: "a-note.txt", ContentType: "text/plain", Content: []byte("hi")},
			{ID: 12, Kind: "invoice", RecordID: 6, Name: "other.txt", ContentType: "text/plain", Content: []byte("x")},
		})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := ten.Files(ctx, "invoice", 5)
		if err != nil || len(fs) != 2 || fs[0].Name != "a-note.txt" || fs[1].Size != int64(len(content)) || fs[1].Content != nil {
			t.Fatalf("files = %+v, err %v", fs, err)
		}
		f, err := ten.File(ctx, "invoice", 5, 10)
		if err != nil || string(f.Content) != string(content) || f.ContentType != "application/pdf" {
			t.Fatalf("file = %+v, err %v", f, err)
		}
		if _, err := ten.File(ctx, "invoice", 6, 10); !portal.IsNotFound(err) {
			t.Errorf("file of another record: err = %v", err)
		}
	})
}

func TestScopeRefusesUnscopedStatements(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("scope accepted a statement without the tenant")
		}
	}()
	scope(`SELECT * FROM records WHERE kind = ?`)
}

func TestScopeBindsTenantInPlace(t *testing.T) {
	st := scope(`SELECT x FROM t WHERE a = ? AND tenant_id = :tenant AND b = ?`)
	got := fmt.Sprint(st.bind("acme", []any{1, 2}))
	if got != "[1 acme 2]" || st.sql != `SELECT x FROM t WHERE a = ? AND tenant_id = ? AND b = ?` {
		t.Errorf("bind = %s, sql = %s", got, st.sql)
	}
	if got := st.text(postgres); got != `SELECT x FROM t WHERE a = $1 AND tenant_id = $2 AND b = $3` {
		t.Errorf("on PostgreSQL: %s", got)
	}
	if got := st.text(sqlite); got != `SELECT x FROM t WHERE a = ? AND tenant_id = +? AND b = ?` {
		t.Errorf("on SQLite: %s", got)
	}
	// Every marker, a colon of the statement's own, and a marker last.
	st = scope(`SELECT :fields, a::text, ':x' FROM t WHERE d = :doc AND tenant_id = :tenant`)
	if st.sql != `SELECT fields, a::text, ':x' FROM t WHERE d = ? AND tenant_id = ?` ||
		st.sqlite != `SELECT json(fields), a::text, ':x' FROM t WHERE d = jsonb(?) AND tenant_id = +?` ||
		fmt.Sprint(st.slots) != "[false true]" {
		t.Errorf("markers: %q, %q, %v", st.sql, st.sqlite, st.slots)
	}
}

func TestConformanceBulkLoadRebuildsIndexes(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		countIndexes := func() int {
			rows, err := s.db.QueryContext(ctx, s.d.recordIndexesQuery())
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			n := 0
			for rows.Next() {
				n++
			}
			return n
		}
		before := countIndexes()
		var during int
		err := s.BulkLoad(ctx, func() error {
			during = countIndexes()
			return ten.PutRecords(ctx, []records.Record{testRecord("project", 1, "Bulk", "Active")})
		})
		if err != nil || before < 6 || during != 0 || countIndexes() != before {
			t.Fatalf("indexes before %d, during %d, after %d; err %v", before, during, countIndexes(), err)
		}
		// The search index was built after the load, and its triggers are back.
		if got := candidateIDs(t, ten, "bulk", "project"); len(got) != 1 {
			t.Fatalf("search after a bulk load: %v", got)
		}
		ten.PutRecords(ctx, []records.Record{testRecord("project", 2, "Afterwards", "Active")})
		if got := candidateIDs(t, ten, "afterwards", "project"); len(got) != 1 {
			t.Fatalf("search triggers after a bulk load: %v", got)
		}
		// A load killed half-way: Open rebuilds what is pending.
		s.db.ExecContext(ctx, `DROP INDEX records_title`)
		s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO pending_indexes (name, ddl) VALUES (?, ?)`), "records_title",
			`CREATE INDEX records_title ON records (tenant_id, kind, title, id)`)
		if err := s.rebuildPendingIndexes(ctx); err != nil || countIndexes() != before {
			t.Errorf("after rebuild: %d indexes, err %v", countIndexes(), err)
		}
		// With rows present, a bulk load leaves the indexes alone.
		s.BulkLoad(ctx, func() error { during = countIndexes(); return nil })
		if during != before {
			t.Errorf("indexes dropped on a non-empty table")
		}
	})
}

// A sync's first pull into an empty database is a bulk load only while
// the database has that one tenant: with another, whose first pull may
// run at the same moment, the shared indexes and search triggers stay,
// and the other's records written meanwhile are found by search.
func TestConformanceSyncBulkLoadBesideAnotherTenant(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		acme, globex := seedTenant(t, s, "acme"), seedTenant(t, s, "globex")
		var during int
		err := acme.BulkLoad(ctx, func() error {
			if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+s.d.recordIndexesQuery()+`) x`).Scan(&during); err != nil {
				return err
			}
			if err := globex.PutRecords(ctx, []records.Record{testRecord("project", 1, "Meanwhile", "Active")}); err != nil {
				return err
			}
			return acme.PutRecords(ctx, []records.Record{testRecord("project", 1, "Loaded", "Active")})
		})
		if err != nil || during < 6 {
			t.Fatalf("indexes during acme's load: %d (err %v)", during, err)
		}
		if got := candidateIDs(t, globex, "meanwhile", "project"); len(got) != 1 {
			t.Errorf("globex's record written during acme's load is not found: %v", got)
		}
		if got := candidateIDs(t, acme, "loaded", "project"); len(got) != 1 {
			t.Errorf("acme's loaded record is not found: %v", got)
		}
	})
}

// On SQLite a record's document is stored as JSONB by every write (a pull,
// its merge into a stored record, a note), and read back as JSON text.
func TestSQLiteDocumentsAreJSONB(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t)
	ten := seedTenant(t, s, "acme")
	stored := func(kind string, id int64) string {
		t.Helper()
		var typ string
		if err := s.db.QueryRowContext(ctx, `SELECT typeof(fields) FROM records WHERE tenant_id = 'acme' AND kind = ? AND id = ?`, kind, id).Scan(&typ); err != nil {
			t.Fatal(err)
		}
		return typ
	}
	in := testRecord("customer", 41, "Acme Water", "Active")
	in.Fields = json.RawMessage(`{"companyname": "Acme Water", "email": "ops@acme.test", "notes": []}`)
	if err := ten.PutRecords(ctx, []records.Record{in}); err != nil {
		t.Fatal(err)
	}
	if typ := stored("customer", 41); typ != "blob" {
		t.Fatalf("a pulled document is stored as %s, want JSONB (a blob)", typ)
	}
	in.Fields, in.ModifiedAt = json.RawMessage(`{"phone": "555-0100"}`), in.ModifiedAt.Add(time.Second)
	if err := ten.PutRecords(ctx, []records.Record{in}); err != nil {
		t.Fatal(err)
	}
	if err := ten.AddNote(ctx, noteWrite(41, "Call back on Monday.", time.Now())); err != nil {
		t.Fatal(err)
	}
	if typ := stored("customer", 41); typ != "blob" {
		t.Fatalf("a merged and noted document is stored as %s, want JSONB", typ)
	}
	got, err := ten.Record(ctx, "customer", 41)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(got.Fields, &doc); err != nil {
		t.Fatalf("the document reads back as %q: %v", got.Fields, err)
	}
	if doc["email"] != "ops@acme.test" || doc["phone"] != "555-0100" || len(doc["notes"].([]any)) != 1 {
		t.Errorf("document: %s", got.Fields)
	}
}
