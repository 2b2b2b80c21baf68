package main

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// TestATenantInItsOwnDatabase places one company in a database of its own
// (PORTICO_TENANT_DATABASES): the server finds its users, sessions and
// records there, a record created at its address is written there and
// nowhere else, and the other company is served from the main database as
// before.
func TestATenantInItsOwnDatabase(t *testing.T) {
	base := testPostgres(t)
	ctx := context.Background()
	mainURL := scratchPostgres(t, base)
	// The placed database: on a second PostgreSQL server when the test
	// is given one (pg_createcluster … --port 5433), else another schema
	// of the same one.
	second := os.Getenv("PORTICO_TEST_SECOND_DATABASE_URL")
	if second == "" {
		second = base
	}
	placedURL := scratchPostgres(t, second)
	env := map[string]string{"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn", "PORTICO_DATABASE_URL": mainURL,
		"PORTICO_IDENTITY_PROJECT_ID": "demo-portal", "PORTICO_IDENTITY_EMULATOR_HOST": "127.0.0.1:1"}
	in := func(more map[string]string) map[string]string { return withEnv(env, more) }
	mustRun(t, env, "seed", "-per-kind", "20")
	mustRun(t, env, "tenants", "add", "kestrel", "-name", "Kestrel Consulting", "-host", "kestrel.localhost")
	// Kestrel's data is made in its own database.
	mustRun(t, in(map[string]string{"PORTICO_DATABASE_URL": placedURL, "PORTICO_DEFAULT_TENANT": "kestrel"}), "seed", "-per-kind", "8")

	// A tenant placed but not in the main database's directory is refused.
	if _, err := runWith(t, in(map[string]string{"PORTICO_TENANT_DATABASES": "nobody=" + placedURL, "PORTICO_SYNC_INTERVAL": "1s"}), "sync", "-once"); err == nil {
		t.Error("a tenant placed but not added was accepted")
	}

	addr, _ := startServe(t, in(map[string]string{"PORTICO_TENANT_DATABASES": "kestrel=" + placedURL}), io.Discard)
	riverbend := signIn(t, addr, "", "portico-demo")
	kestrel := signIn(t, addr, "kestrel.localhost", "kestrel")
	count := func(c *client) int {
		var page struct {
			Data struct{ Rows []map[string]any }
		}
		if code := c.do("GET", "/api/v1/netsuite/portal-list?type=project&pageSize=100", nil, &page); code != 200 {
			t.Fatalf("%s's projects: %d", c.host, code)
		}
		return len(page.Data.Rows)
	}
	if n := count(riverbend); n != 20 {
		t.Errorf("riverbend lists %d projects, want its 20", n)
	}
	if n := count(kestrel); n != 8 {
		t.Errorf("kestrel lists %d projects, want its 8", n)
	}
	var saved struct{ Data struct{ ID int64 } }
	if code := kestrel.do("POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": map[string]any{"companyname": "Placed Water Co", "entitystatus": "Active"}}, &saved); code != 201 {
		t.Fatalf("create at kestrel: %d", code)
	}

	// Kestrel's data is in its database, none of it in the main one.
	placed, err := sqlstore.OpenExisting(ctx, placedURL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer placed.Close()
	mainStore, err := sqlstore.OpenExisting(ctx, mainURL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer mainStore.Close()
	if r, err := placed.Tenant("kestrel").Record(ctx, "customer", saved.Data.ID); err != nil || r.Title != "Placed Water Co" {
		t.Errorf("the created client in kestrel's database: %+v, %v", r, err)
	}
	for _, k := range []string{"project", "customer"} {
		if n, err := mainStore.Tenant("kestrel").CountMatching(ctx, records.ListQuery{Kind: k}); err != nil || n != 0 {
			t.Errorf("the main database holds %d of kestrel's %s records (%v)", n, k, err)
		}
	}
	if n, err := mainStore.Tenant("portico-demo").CountMatching(ctx, records.ListQuery{Kind: "project"}); err != nil || n != 20 {
		t.Errorf("riverbend's projects in the main database: %d, %v", n, err)
	}
}

// TestEveryDatabaseIsPinged: the health check answers for every database
// tenants live in, not the main one alone.
func TestEveryDatabaseIsPinged(t *testing.T) {
	ctx := context.Background()
	open := func() *sqlstore.Store {
		st, err := sqlstore.Open(ctx, "", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	main, placed := open(), open()
	defer main.Close()
	d := &databases{main: main, placed: map[portal.TenantID]*sqlstore.Store{"kestrel": placed}, all: []*sqlstore.Store{main, placed}}
	if err := d.Ping(ctx); err != nil || d.Engine() != "sqlite" {
		t.Fatalf("both answering: %v (%s)", err, d.Engine())
	}
	placed.Close()
	if err := d.Ping(ctx); err == nil {
		t.Error("the placed database is closed, and the ping answered")
	}
}
