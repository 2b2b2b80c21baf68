//go:build driverbench

// The SQLite driver comparison behind the choice in docs/performance.md. It needs cgo (for
// mattn/go-sqlite3), so it sits behind a build tag: make bench-drivers.

package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers "sqlite3" (cgo)

	"github.com/portico/portico/internal/records"
)

// benchDB builds (once per process) a SQLite file with n projects spread
// over five statuses, through the production store.
var benchPath string

func benchDB(b *testing.B) string {
	if benchPath != "" {
		return benchPath
	}
	n, _ := strconv.Atoi(os.Getenv("PORTICO_BENCH_ROWS"))
	if n <= 0 {
		n = 200_000
	}
	dir, err := os.MkdirTemp("", "portico-driverbench")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s, err := Open(ctx, "", dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	s.EnsureTenant(ctx, "bench", "bench")
	t := s.Tenant("bench")
	statuses := []string{"Proposed", "Planning", "Active", "Monitoring", "Closed"}
	batch := make([]records.Record, 0, 5000)
	for i := 1; i <= n; i++ {
		title := fmt.Sprintf("%s Creek Restoration %07d", []string{"Cedar", "Willow", "Heron", "Otter", "Maple"}[i*7%5], (i*7919)%n)
		if i%16 == 0 { // a common word, met every 16th name or so along the name order
			title += " Wetland"
		}
		doc := fmt.Sprintf(`{"companyname":%q,"entityid":"PRJ-%06d","custentity_notes":"lorem ipsum dolor sit amet"}`, title, i)
		batch = append(batch, records.Record{Kind: "project", ID: int64(i), Title: title, Code: fmt.Sprintf("PRJ-%06d", i),
			Status: statuses[i%5], ModifiedAt: time.UnixMilli(int64(i)), Fields: []byte(doc)})
		if len(batch) == cap(batch) || i == n {
			if err := t.PutRecords(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	benchPath = filepath.Join(dir, "portico.db")
	return benchPath
}

// BenchmarkListPage is the list query that matters most: a project list
// page of 50, filtered by status and sorted by name, first page and a page
// deep in the list (keyset cursor); and a list's text filter on a common
// word (a page of 10, which walks the name index checking each name), through
// each driver. mattn needs the sqlite_fts5 tag for the search index.
func BenchmarkListPage(b *testing.B) {
	path := benchDB(b)
	defer os.RemoveAll(filepath.Dir(path))
	drivers := []struct{ name, driver, dsn string }{
		{"modernc", "sqlite", sqliteReadDSN(sqliteDSN(path, DefaultWALLimit))},
		{"mattn", "sqlite3", "file:" + path + "?_busy_timeout=10000&_journal_mode=WAL&_synchronous=NORMAL&_query_only=1"},
	}
	active := parse(b, "entitystatus eq Active")
	for _, d := range drivers {
		db, err := sql.Open(d.driver, d.dsn)
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(8)
		ten := (&Store{db: db, rdb: db, d: sqlite}).Tenant("bench")
		deep := &records.Cursor{Values: []string{"Maple Creek Restoration 0100000"}}
		for _, c := range []struct {
			name string
			q    records.ListQuery
		}{
			{"first", records.ListQuery{Kind: "project", Filter: active, Limit: 50}},
			{"deep", records.ListQuery{Kind: "project", Filter: active, Limit: 50, After: deep}},
			{"common-word", records.ListQuery{Kind: "project", Text: "wetland", Limit: 10}},
		} {
			b.Run(d.name+"/"+c.name+"/serial", func(b *testing.B) {
				for b.Loop() {
					if p, err := ten.ListRecords(context.Background(), c.q); err != nil || len(p.Records) != c.q.Limit {
						b.Fatal(err, len(p.Records))
					}
				}
			})
			b.Run(d.name+"/"+c.name+"/parallel", func(b *testing.B) {
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, err := ten.ListRecords(context.Background(), c.q); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
		db.Close()
	}
}
