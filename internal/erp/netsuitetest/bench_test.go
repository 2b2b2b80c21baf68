package netsuitetest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/records"
)

// projectsOnly passes the demo generator's projects to the fake and
// drops the rest, so a million-project account costs only the projects'
// memory.
type projectsOnly struct{ *netsuitetest.Server }

func (p projectsOnly) PutRecords(ctx context.Context, rs []records.Record) error {
	if rs[0].Kind != "project" {
		return nil
	}
	return p.Server.PutRecords(ctx, rs)
}

func (projectsOnly) PutFiles(context.Context, []records.File) error { return nil }

// BenchmarkKeysetPage reads 1000-row pages of an incremental sync
// (the connector's query: a keyset from a random checkpoint, ordered by
// (lastmodifieddate, id)) from an account of 1,000,000 projects, in
// process and over loopback HTTP with a bearer token.
func BenchmarkKeysetPage(b *testing.B) {
	const projects = 1_000_000
	var fake *netsuitetest.Server
	srv, auth := m2mServer(b, func(cfg netsuitetest.Config) *netsuitetest.Server {
		var err error
		if fake, err = netsuitetest.New(cfg); err != nil {
			b.Fatal(err)
		}
		return fake
	})
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	if _, err := demo.Generate(context.Background(), projectsOnly{fake}, demo.Options{Projects: projects, PerKind: 1, Now: now}); err != nil {
		b.Fatal(err)
	}
	if n := fake.Count("job"); n != projects {
		b.Fatalf("%d projects", n)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	query := func() string {
		// Checkpoints anywhere in the six years of data, most pages full.
		from := now.AddDate(-6, 0, 0).Add(time.Duration(rng.Int64N(int64(5 * 365 * 24 * time.Hour))))
		return projectColumns + fmt.Sprintf(` WHERE lastmodifieddate > %[1]s OR (lastmodifieddate = %[1]s AND id > %[2]d) ORDER BY lastmodifieddate, id`,
			ts(from), rng.Int64N(projects))
	}
	if _, err := fake.RunQuery(query(), 1000, 0); err != nil { // sorts the index
		b.Fatal(err)
	}
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			out, err := fake.RunQuery(query(), 1000, 0)
			if err != nil || !strings.Contains(string(out), `"count":1000`) {
				b.Fatalf("%v %.300s", err, out)
			}
		}
	})
	b.Run("http", func(b *testing.B) {
		for b.Loop() {
			body, _ := json.Marshal(map[string]string{"q": query()})
			req, _ := http.NewRequest("POST", srv.URL+netsuitetest.SuiteQLPath+"?limit=1000&offset=0", bytes.NewReader(body))
			req.Header.Set("Prefer", "transient")
			if err := auth.Authorize(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"count":1000`) {
				b.Fatalf("%d %.300s", resp.StatusCode, body)
			}
		}
	})
}
