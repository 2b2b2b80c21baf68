package erpsync_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/sqlstore"
)

// The child process of TestKilledMidSyncResumes: a full pull into the
// SQLite file at PORTICO_CRASH_DB from the account at PORTICO_CRASH_URL,
// until the parent kills it.
func crashChild(t *testing.T) {
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, "sqlite:"+os.Getenv("PORTICO_CRASH_DB"), "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := netsuite.New(netsuite.Config{Account: account, BaseURL: os.Getenv("PORTICO_CRASH_URL"), PageSize: 25,
		Auth: netsuite.TBA{Account: account, ConsumerKey: "consumer-key", ConsumerSecret: "consumer-secret",
			TokenID: "token-id", TokenSecret: "token-secret"}})
	if err != nil {
		t.Fatal(err)
	}
	erpsync.New(c, tenant(t, s), erpsync.Options{Lease: 500 * time.Millisecond}).Pull(ctx, nil, true)
	os.Exit(3) // the parent should have killed us before the end
}

func TestKilledMidSyncResumes(t *testing.T) {
	if os.Getenv("PORTICO_CRASH_DB") != "" {
		crashChild(t)
		return
	}
	if testing.Short() {
		t.Skip("spawns a process")
	}
	a := newAccount(t, 60)
	a.clock = nil // the fake runs on the real clock: the child signs with it
	fake, err := netsuitetest.New(netsuitetest.Config{Concurrency: 5,
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(account), Lookup: func(ck, tid string) (string, string, bool) {
			return "consumer-secret", "token-secret", ck == "consumer-key" && tid == "token-id"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range a.m.Kinds {
		for _, r := range a.fake.All(k.RecordType) {
			if _, err := fake.Put(k.RecordType, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	fake.SetFaults(netsuitetest.Faults{Slow: 1, Latency: 15 * time.Millisecond})
	srv := newServer(t, fake)
	a.fake, a.url = fake, srv

	db := filepath.Join(t.TempDir(), "portico.db")
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "sqlite:"+db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ten := tenant(t, store)

	child := exec.Command(os.Args[0], "-test.run=^TestKilledMidSyncResumes$")
	child.Env = append(os.Environ(), "PORTICO_CRASH_DB="+db, "PORTICO_CRASH_URL="+srv)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it (SIGKILL: no cleanup of any kind) once it is well into the pull.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pulled int64
		if states, err := ten.SyncStates(ctx); err == nil {
			for _, st := range states {
				pulled += st.PulledTotal
			}
		}
		if pulled >= 200 {
			break
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			t.Fatal("the child never got going")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	var stored, total int64
	states, _ := ten.SyncStates(ctx)
	for _, st := range states {
		stored += st.PulledTotal
	}
	for _, k := range a.m.Kinds {
		total += int64(fake.Count(k.RecordType))
	}
	if stored >= total {
		t.Fatalf("the child stored all %d records before it was killed: nothing was resumed", total)
	}
	t.Logf("killed after %d of %d records", stored, total)

	// Restarted: once the dead process's lease expires, an incremental
	// pull from the checkpoints converges.
	fake.SetFaults(netsuitetest.Faults{})
	eng := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{})
	err = erpsync.ErrBusy
	for tries := 0; errors.Is(err, erpsync.ErrBusy) && tries < 50; tries++ {
		time.Sleep(50 * time.Millisecond)
		err = eng.Pull(ctx, nil, false)
	}
	if err != nil {
		t.Fatal(err)
	}
	sameData(t, a, ten)
}
