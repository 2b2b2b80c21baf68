package main

import (
	"database/sql"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/secretbox"
)

// Instances share the companies' syncs: the first takes every company's
// lease, each one started later gets its share (companies ÷ instances)
// from those that hold more, and the leases of one that stops pass to
// those still running.
func TestInstancesShareTheCompaniesSyncs(t *testing.T) {
	base := testPostgres(t)
	t.Parallel()
	mainURL := scratchPostgres(t, base)
	env := map[string]string{"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn", "PORTICO_DATABASE_URL": mainURL,
		"PORTICO_SECRET_KEYS": secretbox.NewKey(), "PORTICO_SYNC_INTERVAL": "1s",
		"PORTICO_IDENTITY_PROJECT_ID": "demo-portal", "PORTICO_IDENTITY_EMULATOR_HOST": "127.0.0.1:1"}
	with := func(more map[string]string) map[string]string { return withEnv(env, more) }
	mustRun(t, env, "migrate")
	var companies []string
	for i := range 6 {
		c := fmt.Sprintf("company-%d", i+1)
		mustRun(t, env, "tenants", "add", c, "-name", fmt.Sprintf("Company %d", i+1), "-host", c+".localhost")
		companies = append(companies, c)
	}
	for _, c := range companies {
		_, account := fakeNetSuiteConfig(t, netsuitetest.Config{}, 2)
		delete(account, "PORTICO_DATA_DIR")
		mustRun(t, with(account), "netsuite", "connect", "-tenant", c)
	}

	db, err := sql.Open("pgx", mainURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// held counts the live leases by instance (an engine's owner is its
	// instance's name and a suffix).
	held := func() map[string]int {
		rows, err := db.Query(`SELECT owner FROM sync_leases WHERE until > $1`, time.Now().UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		by := map[string]int{}
		for rows.Next() {
			var owner string
			if err := rows.Scan(&owner); err != nil {
				t.Fatal(err)
			}
			by[owner[:strings.IndexByte(owner, '-')]]++
		}
		return by
	}
	spread := func(want map[string]int) {
		t.Helper()
		eventually(t, 30*time.Second, fmt.Sprintf("leases held %v", want), func() bool { return maps.Equal(held(), want) })
	}
	startServe(t, with(map[string]string{"PORTICO_INSTANCE": "a"}), io.Discard)
	spread(map[string]int{"a": 6})
	startServe(t, with(map[string]string{"PORTICO_INSTANCE": "b"}), io.Discard)
	spread(map[string]int{"a": 3, "b": 3})
	_, stopC := startServe(t, with(map[string]string{"PORTICO_INSTANCE": "c"}), io.Discard)
	spread(map[string]int{"a": 2, "b": 2, "c": 2})
	if err := stopC(); err != nil {
		t.Fatal(err)
	}
	spread(map[string]int{"a": 3, "b": 3})
}
