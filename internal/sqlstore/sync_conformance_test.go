package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

func TestConformanceApplyPull(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		other := seedTenant(t, s, "other")
		mod := time.UnixMilli(1_800_000_000_000).UTC()
		st := erpsync.State{Kind: "customer", Checkpoint: erp.Checkpoint{Modified: mod, ID: 2}, PulledTotal: 2}
		if err := ten.ApplyPull(ctx, "customer", []records.Record{testRecord("customer", 1, "One", "Active"),
			testRecord("customer", 2, "Two", "Active")}, nil, st); err != nil {
			t.Fatal(err)
		}
		got, err := ten.SyncStates(ctx)
		if err != nil || len(got) != 1 || !got[0].Checkpoint.Modified.Equal(mod) || got[0].Checkpoint.ID != 2 || got[0].PulledTotal != 2 {
			t.Fatalf("state: %+v %v", got, err)
		}
		if theirs, _ := other.SyncStates(ctx); len(theirs) != 0 {
			t.Fatalf("another tenant sees the state: %+v", theirs)
		}
		// A record with a pending write of its own is neither replaced
		// nor deleted by a pull; an older version never replaces a newer.
		if _, err := ten.exec(ctx, setWriteState, records.WritePending, "", "customer", 1); err != nil {
			t.Fatal(err)
		}
		newer := testRecord("customer", 1, "One from ERP", "Active")
		newer.ModifiedAt = mod
		older := testRecord("customer", 2, "Two, stale", "Active")
		older.ModifiedAt = older.ModifiedAt.Add(-time.Hour)
		if err := ten.ApplyPull(ctx, "customer", []records.Record{newer, older}, []int64{1}, st); err != nil {
			t.Fatal(err)
		}
		if r, err := ten.Record(ctx, "customer", 1); err != nil || r.Title != "One" {
			t.Fatalf("pending record replaced or deleted: %+v %v", r, err)
		}
		if r, _ := ten.Record(ctx, "customer", 2); r.Title != "Two" {
			t.Fatalf("older version replaced a newer: %+v", r)
		}
		if err := ten.ApplyPull(ctx, "customer", nil, []int64{2}, st); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.Record(ctx, "customer", 2); err == nil {
			t.Fatal("deleted record still there")
		}
	})
}

func TestConformanceLease(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		now := time.UnixMilli(1_800_000_000_000)
		acquire := func(owner string, at, until time.Time) (int64, bool) {
			t.Helper()
			token, ok, err := ten.AcquireLease(ctx, "sync", owner, at, until)
			if err != nil {
				t.Fatal(err)
			}
			return token, ok
		}
		first, ok := acquire("a", now, now.Add(time.Minute))
		if !ok {
			t.Fatal("first claim refused")
		}
		if _, ok := acquire("b", now.Add(time.Second), now.Add(time.Minute)); ok {
			t.Fatal("b took a held lease")
		}
		if renewed, ok := acquire("a", now.Add(time.Second), now.Add(2*time.Minute)); !ok || renewed != first {
			t.Fatalf("a's renewal: %v, token %d then %d (a renewal keeps the token)", ok, first, renewed)
		}
		second, ok := acquire("b", now.Add(3*time.Minute), now.Add(4*time.Minute))
		if !ok || second <= first {
			t.Fatalf("b taking an expired lease: %v, token %d after %d", ok, second, first)
		}
		if err := ten.ReleaseLease(ctx, "sync", "b"); err != nil {
			t.Fatal(err)
		}
		third, ok := acquire("a", now.Add(3*time.Minute), now.Add(4*time.Minute))
		if !ok || third <= second {
			t.Fatalf("a taking a released lease: %v, token %d after %d (a release keeps the token)", ok, third, second)
		}
	})
}

// The writes made on behalf of a lease are refused, whole, once the lease
// changed hands: the old holder cannot overwrite the new one's work.
func TestConformanceLeaseFencesTheHoldersWrites(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		other := seedTenant(t, s, "other")
		now := time.UnixMilli(1_800_000_000_000).UTC()
		take := func(ten *Tenant, owner string, at time.Time) erpsync.Lease {
			t.Helper()
			token, ok, err := ten.AcquireLease(ctx, "erp-sync", owner, at, at.Add(10*time.Second))
			if !ok || err != nil {
				t.Fatalf("%s could not take the lease: %v", owner, err)
			}
			return erpsync.Lease{Name: "erp-sync", Owner: owner, Token: token}
		}
		old := take(ten, "old", now)
		take(other, "other-tenant", now) // another tenant's lease is another lease
		st := erpsync.State{Kind: "customer", Checkpoint: erp.Checkpoint{Modified: now, ID: 1}, PulledTotal: 1}
		if err := ten.Fence(old).ApplyPull(ctx, "customer", []records.Record{testRecord("customer", 1, "One", "Active")}, nil, st); err != nil {
			t.Fatal(err)
		}
		fields, _ := json.Marshal(map[string]string{"companyname": "Queued"})
		queued := testRecord("customer", 1, "Queued", "Active")
		queued.ModifiedAt, queued.Write = now, records.WriteState{State: records.WritePending}
		cur, _ := ten.Record(ctx, "customer", 1)
		if _, err := ten.SaveRecord(ctx, records.Write{Record: queued, Base: cur.ModifiedAt, Result: "queued",
			Outbound: &records.Outbound{Op: records.OpUpdate, Fields: fields, Key: "fence-1"}}); err != nil {
			t.Fatal(err)
		}
		due, err := ten.DueOutbox(ctx, now.Add(time.Minute), 10)
		if err != nil || len(due) != 1 {
			t.Fatalf("due: %+v %v", due, err)
		}

		// The old holder stalls past its lease; another takes over.
		current := take(ten, "new", now.Add(11*time.Second))
		stale := ten.Fence(old)
		later := st
		later.Checkpoint.ID, later.PulledTotal = 2, 2
		for name, write := range map[string]func() error{
			"ApplyPull": func() error {
				return stale.ApplyPull(ctx, "customer", []records.Record{testRecord("customer", 2, "Two", "Active")}, []int64{1}, later)
			},
			"SaveSyncState": func() error { return stale.SaveSyncState(ctx, later) },
			"CompleteOutbox": func() error {
				return stale.CompleteOutbox(ctx, due[0], testRecord("customer", 1, "Stale", "Active"), now)
			},
			"FailOutbox":  func() error { return stale.FailOutbox(ctx, due[0], "stale", now) },
			"DeferOutbox": func() error { return stale.DeferOutbox(ctx, due[0].ID, 1, now.Add(time.Hour), "stale", now) },
		} {
			if err := write(); !errors.Is(err, erpsync.ErrLeaseLost) {
				t.Errorf("%s by the old holder: %v, want ErrLeaseLost", name, err)
			}
		}
		if _, err := ten.Record(ctx, "customer", 2); !portal.IsNotFound(err) {
			t.Fatalf("the old holder's batch was stored: %v", err)
		}
		if states, _ := ten.SyncStates(ctx); len(states) != 1 || states[0].PulledTotal != 1 {
			t.Fatalf("the old holder's checkpoint was stored: %+v", states)
		}
		if d, _ := ten.DueOutbox(ctx, now.Add(time.Minute), 10); len(d) != 1 || d[0].Attempts != 0 || d[0].Error != "" {
			t.Fatalf("the old holder changed the outbox: %+v", d)
		}
		// The new holder's writes go through.
		w := ten.Fence(current)
		if err := w.ApplyPull(ctx, "customer", []records.Record{testRecord("customer", 2, "Two", "Active")}, nil, later); err != nil {
			t.Fatal(err)
		}
		if err := w.CompleteOutbox(ctx, due[0], testRecord("customer", 1, "Queued", "Active"), now); err != nil {
			t.Fatal(err)
		}
		if r, _ := ten.Record(ctx, "customer", 1); r.Write.State != records.WriteSynced {
			t.Fatalf("the new holder's completion: %+v", r.Write)
		}
	})
}

// Claims at once: of one lease by many instances, exactly one wins; by
// one owner's loops (its lease loop, a pull, a push), every one holds it,
// with one token.
func TestConformanceLeaseClaimsAtOnce(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now()
		for round := range 5 {
			claims := func(ten *Tenant, owner func(i int) string) (won int, tokens map[int64]bool) {
				t.Helper()
				var mu sync.Mutex
				var wg sync.WaitGroup
				tokens = map[int64]bool{}
				for i := range 8 {
					wg.Go(func() {
						token, ok, err := ten.AcquireLease(ctx, "erp-sync", owner(i), now, now.Add(10*time.Second))
						if err != nil {
							t.Error(err)
						}
						mu.Lock()
						defer mu.Unlock()
						if ok {
							won++
							tokens[token] = true
						}
					})
				}
				wg.Wait()
				return won, tokens
			}
			race := seedTenant(t, s, portal.TenantID(fmt.Sprintf("race-%d", round)))
			if won, _ := claims(race, func(i int) string { return fmt.Sprintf("instance-%d", i) }); won != 1 {
				t.Fatalf("round %d: %d instances won one free lease", round, won)
			}
			own := seedTenant(t, s, portal.TenantID(fmt.Sprintf("own-%d", round)))
			if won, tokens := claims(own, func(int) string { return "one" }); won != 8 || len(tokens) != 1 {
				t.Fatalf("round %d: one owner's 8 claims at once: %d held it, tokens %v", round, won, tokens)
			}
		}
	})
}

// A holder's fenced write keeps its lease from changing hands, yet holds
// neither the holder's own renewal nor another instance's claim: the
// renewal goes through, the claim finds the lease not takeable and
// returns at once. (Before, a renewal waited behind the write, and with
// many tenants' writes the lease lapsed while its holder was working.)
// On SQLite a write transaction excludes every other anyway.
func TestConformanceLeaseRenewsBesideAFencedWrite(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		if s.d.embedded {
			t.Skip("one write transaction at a time")
		}
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		now := time.UnixMilli(1_800_000_000_000).UTC()
		claim := func(owner string, at time.Time) (int64, bool) {
			t.Helper()
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			token, ok, err := ten.AcquireLease(ctx, "erp-sync", owner, at, at.Add(10*time.Second))
			if err != nil {
				t.Fatalf("%s's claim: %v (it waited for the fenced write?)", owner, err)
			}
			return token, ok
		}
		token, _ := claim("old", now)
		old := erpsync.Lease{Name: "erp-sync", Owner: "old", Token: token}
		inside, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		var once sync.Once
		end := func() { once.Do(func() { close(release) }) }
		t.Cleanup(end) // a failure below must not leave the write open
		go func() {
			done <- ten.inFencedTx(ctx, &old, func(tx *Tenant) error {
				close(inside)
				<-release
				return nil
			})
		}()
		<-inside
		if _, ok := claim("new", now.Add(11*time.Second)); ok {
			t.Fatal("a lapsed lease changed hands while its holder's fenced write ran")
		}
		if renewed, ok := claim("old", now.Add(11*time.Second)); !ok || renewed != token {
			t.Fatalf("the holder's renewal beside its fenced write: %v, token %d, want %d", ok, renewed, token)
		}
		end()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if _, ok := claim("new", now.Add(12*time.Second)); ok {
			t.Fatal("a renewed lease changed hands")
		}
		taken, ok := claim("new", now.Add(22*time.Second))
		if !ok || taken <= token {
			t.Fatalf("taking the lapsed lease after the write: %v, token %d after %d", ok, taken, token)
		}
		if err := ten.Fence(old).SaveSyncState(ctx, erpsync.State{Kind: "customer"}); !errors.Is(err, erpsync.ErrLeaseLost) {
			t.Fatalf("the old holder's write after the takeover: %v, want ErrLeaseLost", err)
		}
	})
}

func TestConformanceOutbox(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		now := time.UnixMilli(1_800_000_000_000).UTC()
		by := records.Author{IP: "192.0.2.1"}
		queue := func(r records.Record, op string, base time.Time) records.Record {
			t.Helper()
			fields, _ := json.Marshal(map[string]string{"companyname": r.Title})
			r.Write = records.WriteState{State: records.WritePending}
			saved, err := ten.SaveRecord(ctx, records.Write{Record: r, Base: base, By: by, Result: "queued",
				Outbound: &records.Outbound{Op: op, Fields: fields, Key: op + r.Title}})
			if err != nil {
				t.Fatal(err)
			}
			return saved
		}
		client := testRecord("customer", 0, "New client", "Active")
		client.ModifiedAt = now
		created := queue(client, records.OpCreate, time.Time{})
		if created.ID <= records.ProvisionalBase {
			t.Fatalf("create got id %d, want a provisional one", created.ID)
		}
		// A project under the new client, and an edit of the client.
		proj := testRecord("project", 7, "Project", "Active")
		proj.ParentID = created.ID
		if err := ten.PutRecords(ctx, []records.Record{proj}); err != nil {
			t.Fatal(err)
		}
		edit := created
		edit.Title, edit.ModifiedAt = "Renamed client", now.Add(time.Second)
		queue(edit, records.OpUpdate, now)

		due, err := ten.DueOutbox(ctx, now.Add(time.Minute), 10)
		if err != nil || len(due) != 1 || due[0].Op != records.OpCreate {
			t.Fatalf("due: only the create may go first: %+v %v", due, err)
		}
		// The ERP took the create as 501.
		fromERP := testRecord("customer", 501, "New client", "Active")
		if err := ten.CompleteOutbox(ctx, due[0], fromERP, now); err != nil {
			t.Fatal(err)
		}
		if id, state, _ := ten.CreatedID(ctx, "customer", created.ID); state != erpsync.EntrySynced || id != 501 {
			t.Fatalf("created id: %d %v", id, state)
		}
		r, err := ten.Record(ctx, "customer", created.ID) // the old link still works
		if err != nil || r.ID != 501 || r.Write.State != records.WritePending {
			t.Fatalf("record after create: %+v %v (the edit is still pending)", r, err)
		}
		if p, _ := ten.Record(ctx, "project", 7); p.ParentID != 501 {
			t.Fatalf("reference not moved: %d", p.ParentID)
		}
		due, _ = ten.DueOutbox(ctx, now.Add(time.Minute), 10)
		if len(due) != 1 || due[0].Op != records.OpUpdate || due[0].RecordID != 501 {
			t.Fatalf("due after create: %+v", due)
		}
		// The edit is refused: the record shows why; a retry makes it due.
		if err := ten.FailOutbox(ctx, due[0], "NetSuite: bad name", now); err != nil {
			t.Fatal(err)
		}
		if r, _ := ten.Record(ctx, "customer", 501); r.Write.State != records.WriteFailed || r.Write.Error != "NetSuite: bad name" {
			t.Fatalf("failed state: %+v", r.Write)
		}
		if d, _ := ten.DueOutbox(ctx, now.Add(time.Minute), 10); len(d) != 0 {
			t.Fatalf("a failed entry is due: %+v", d)
		}
		if err := ten.RetryOutbox(ctx, due[0].ID, now); err != nil {
			t.Fatal(err)
		}
		if err := ten.RetryOutbox(ctx, due[0].ID, now); err == nil {
			t.Fatal("retried a pending entry")
		}
		due, _ = ten.DueOutbox(ctx, now.Add(time.Minute), 10)
		if len(due) != 1 {
			t.Fatalf("retried entry not due: %+v", due)
		}
		if err := ten.DeferOutbox(ctx, due[0].ID, 1, now.Add(time.Hour), "429", now); err != nil {
			t.Fatal(err)
		}
		if d, _ := ten.DueOutbox(ctx, now.Add(time.Minute), 10); len(d) != 0 {
			t.Fatalf("deferred entry due early: %+v", d)
		}
		renamed := testRecord("customer", 501, "Renamed client", "Active")
		renamed.ModifiedAt = now.Add(time.Minute)
		if err := ten.CompleteOutbox(ctx, due[0], renamed, now); err != nil {
			t.Fatal(err)
		}
		if r, _ := ten.Record(ctx, "customer", 501); r.Title != "Renamed client" || r.Write.State != records.WriteSynced {
			t.Fatalf("after edit synced: %+v", r)
		}
		counts, _ := ten.OutboxCounts(ctx)
		if counts[erpsync.EntrySynced] != 2 || counts[erpsync.EntryPending] != 0 {
			t.Fatalf("counts: %v", counts)
		}
		// Discarding a create that never landed removes the record.
		lost := testRecord("customer", 0, "Never sent", "Active")
		lost.ModifiedAt = now
		lostRec := queue(lost, records.OpCreate, time.Time{})
		e, _ := ten.DueOutbox(ctx, now.Add(time.Minute), 10)
		if err := ten.DiscardOutbox(ctx, e[0], nil, now); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.Record(ctx, "customer", lostRec.ID); err == nil {
			t.Fatal("discarded create still shown")
		}
	})
}

func TestConformancePutRecordsTwiceInOneBatch(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		first, second := testRecord("customer", 1, "First", "Active"), testRecord("customer", 1, "Second", "Active")
		if err := ten.PutRecords(ctx, []records.Record{first, second}); err != nil {
			t.Fatal(err)
		}
		if r, _ := ten.Record(ctx, "customer", 1); r.Title != "Second" {
			t.Fatalf("stored %q, want the last version", r.Title)
		}
	})
}

func TestConformancePullMergesDocuments(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		full := testRecord("customer", 1, "Full", "Active")
		full.Fields = json.RawMessage(`{"companyname": "Full", "email": "a@b.example", "notes": [{"text": "kept"}]}`)
		pulled := testRecord("customer", 1, "Pulled", "Active")
		pulled.ModifiedAt = full.ModifiedAt.Add(time.Second)
		pulled.Fields = json.RawMessage(`{"companyname": "Pulled", "email": "new@b.example"}`)
		if err := ten.PutRecords(ctx, []records.Record{full}); err != nil {
			t.Fatal(err)
		}
		if err := ten.PutRecords(ctx, []records.Record{pulled}); err != nil {
			t.Fatal(err)
		}
		r, _ := ten.Record(ctx, "customer", 1)
		var doc map[string]any
		json.Unmarshal(r.Fields, &doc)
		if r.Title != "Pulled" || doc["companyname"] != "Pulled" || doc["email"] != "new@b.example" || doc["notes"] == nil {
			t.Fatalf("merged document: %s", r.Fields)
		}
	})
}
