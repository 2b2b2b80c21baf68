package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/shortlist"
)

// shortlistTenant seeds tenant id with users 1 and 2 and n projects
// (ids 1..n, named "Project <id>").
func shortlistTenant(t *testing.T, s *Store, id portal.TenantID, n int) *Tenant {
	t.Helper()
	ctx := context.Background()
	ten := seedTenant(t, s, id)
	if err := ten.ImportAccess(ctx, access.File{
		Roles: []access.Role{{Key: "pm", ID: 10, Name: "PM", Type: "staff"}},
		Users: []access.FileUser{
			{ID: 1, Email: "ada@" + string(id) + ".test", FullName: "Ada", Roles: []int64{10}},
			{ID: 2, Email: "lou@" + string(id) + ".test", FullName: "Lou", Roles: []int64{10}},
		},
	}); err != nil {
		t.Fatal(err)
	}
	rs := make([]records.Record, n)
	for i := range rs {
		rs[i] = testRecord("project", int64(i+1), fmt.Sprintf("Project %d", i+1), "Active")
	}
	if err := ten.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	return ten
}

// shelfIDs is the record ids on a user's shelf, newest first.
func shelfIDs(t *testing.T, ten *Tenant, user int64, shelf shortlist.Shelf) []int64 {
	t.Helper()
	es, err := ten.Shortlist(context.Background(), user, shelf)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

func TestConformanceRecentRecords(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		acme := shortlistTenant(t, s, "acme", 30)
		other := shortlistTenant(t, s, "other", 3)
		at := time.UnixMilli(1_800_000_000_000).UTC()
		for id := int64(1); id <= 25; id++ {
			if err := acme.ShortlistAdd(ctx, 1, shortlist.Recent, "project", id, at.Add(time.Duration(id)*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		// The 20 newest, newest first, named by the record.
		got, err := acme.Shortlist(ctx, 1, shortlist.Recent)
		if err != nil || len(got) != shortlist.RecentKeep {
			t.Fatalf("recent: %d entries, %v", len(got), err)
		}
		if e := got[0]; e.ID != 25 || e.Kind != "project" || e.Name != "Project 25" || e.Code != "C-0025" ||
			e.Status != "Active" || !e.At.Equal(at.Add(25*time.Second)) {
			t.Fatalf("newest: %+v", e)
		}
		if got[19].ID != 6 {
			t.Fatalf("oldest kept: %+v", got[19])
		}
		// Opening one again moves it to the front, without a second entry.
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Recent, "project", 10, at.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		ids := shelfIDs(t, acme, 1, shortlist.Recent)
		if len(ids) != 20 || ids[0] != 10 || ids[1] != 25 || ids[19] != 6 {
			t.Fatalf("after reopening 10: %v", ids)
		}
		// A deleted record is not answered, and the next write forgets it.
		if _, err := acme.exec(ctx, deleteRecord, "project", 25); err != nil {
			t.Fatal(err)
		}
		if ids := shelfIDs(t, acme, 1, shortlist.Recent); len(ids) != 19 || ids[1] != 24 {
			t.Fatalf("after deleting 25: %v", ids)
		}
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Recent, "project", 1, at.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		var stored int
		acme.queryRow(ctx, scope(`SELECT COUNT(*) FROM shortlists WHERE tenant_id = :tenant AND user_id = 1 AND record_id = 25`)).Scan(&stored)
		if ids := shelfIDs(t, acme, 1, shortlist.Recent); stored != 0 || len(ids) != 20 || ids[0] != 1 || ids[19] != 6 {
			t.Fatalf("after opening 1: %v (deleted entry stored %d times)", ids, stored)
		}
		// A record that does not exist is not found; nothing changes.
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Recent, "project", 999, at); !portal.IsNotFound(err) {
			t.Fatalf("missing record: %v", err)
		}
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Recent, "customer", 1, at); !portal.IsNotFound(err) {
			t.Fatalf("project 1 as a client: %v", err)
		}
		// Another user, another tenant (whose user 1 is someone else): none of it.
		if ids := shelfIDs(t, acme, 2, shortlist.Recent); len(ids) != 0 {
			t.Fatalf("user 2 sees %v", ids)
		}
		if ids := shelfIDs(t, other, 1, shortlist.Recent); len(ids) != 0 {
			t.Fatalf("the other tenant's user 1 sees %v", ids)
		}
		if ids := shelfIDs(t, acme, 1, shortlist.Favourites); len(ids) != 0 {
			t.Fatalf("favourites hold recent records: %v", ids)
		}
	})
}

func TestConformanceFavourites(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		max := shortlist.FavouritesMax
		acme := shortlistTenant(t, s, "acme", max+5)
		at := time.UnixMilli(1_800_000_000_000).UTC()
		for id := int64(1); id <= int64(max); id++ {
			if err := acme.ShortlistAdd(ctx, 1, shortlist.Favourites, "project", id, at); err != nil {
				t.Fatal(err)
			}
		}
		// Full: another is refused and none is dropped; one already
		// there may be starred again.
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Favourites, "project", int64(max+1), at); !errors.Is(err, shortlist.ErrFull) {
			t.Fatalf("one over the bound: %v", err)
		}
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Favourites, "project", 7, at.Add(time.Hour)); err != nil {
			t.Fatalf("starring a favourite again: %v", err)
		}
		ids := shelfIDs(t, acme, 1, shortlist.Favourites)
		if len(ids) != max || ids[0] != 7 {
			t.Fatalf("%d favourites, newest %v", len(ids), ids[:1])
		}
		// Removing one (twice: the second changes nothing) makes room.
		for range 2 {
			if err := acme.ShortlistRemove(ctx, 1, shortlist.Favourites, "project", 7); err != nil {
				t.Fatal(err)
			}
		}
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Favourites, "project", int64(max+1), at); err != nil {
			t.Fatalf("after removing one: %v", err)
		}
		// So does a favourite whose record was deleted.
		if _, err := acme.exec(ctx, deleteRecord, "project", 8); err != nil {
			t.Fatal(err)
		}
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Favourites, "project", int64(max+2), at); err != nil {
			t.Fatalf("after deleting a favourite's record: %v", err)
		}
		if ids := shelfIDs(t, acme, 1, shortlist.Favourites); len(ids) != max || ids[0] != int64(max+2) {
			t.Fatalf("%d favourites, newest %v", len(ids), ids[:1])
		}
		// Favourites and recent records are separate shelves.
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Recent, "project", 1, at); err != nil {
			t.Fatal(err)
		}
		if err := acme.ShortlistRemove(ctx, 1, shortlist.Recent, "project", 1); err != nil {
			t.Fatal(err)
		}
		if ids := shelfIDs(t, acme, 1, shortlist.Favourites); len(ids) != max {
			t.Fatalf("removing a recent record changed favourites: %d", len(ids))
		}
	})
}

// Many writes of one user at once, through two store handles (two
// instances on PostgreSQL): the shelves' limits hold exactly, and another
// user's writes are not held up by or mixed with them.
func TestConformanceShortlistConcurrentWriters(t *testing.T) {
	instances(t, 2, func(t *testing.T, ss []*Store) {
		ctx := context.Background()
		max := shortlist.FavouritesMax
		shortlistTenant(t, ss[0], "acme", max+50)
		handles := []*Tenant{ss[0].Tenant("acme"), ss[1].Tenant("acme")}
		at := time.UnixMilli(1_800_000_000_000).UTC()

		const visits = 60
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, visits)
		for i := range visits {
			wg.Go(func() {
				<-start
				errs[i] = handles[i%2].ShortlistAdd(ctx, 1, shortlist.Recent, "project", int64(i+1), at)
			})
		}
		// User 2 stars more records than fit, at the same time.
		starred := make([]error, max+50)
		for i := range starred {
			wg.Go(func() {
				<-start
				starred[i] = handles[i%2].ShortlistAdd(ctx, 2, shortlist.Favourites, "project", int64(i+1), at)
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("visit %d: %v", i, err)
			}
		}
		full := 0
		for i, err := range starred {
			switch {
			case errors.Is(err, shortlist.ErrFull):
				full++
			case err != nil:
				t.Fatalf("star %d: %v", i, err)
			}
		}
		if full != 50 {
			t.Fatalf("%d stars refused, want 50", full)
		}
		var rows int
		handles[1].queryRow(ctx, scope(`SELECT COUNT(*) FROM shortlists WHERE tenant_id = :tenant AND user_id = 1`)).Scan(&rows)
		recent := shelfIDs(t, handles[1], 1, shortlist.Recent)
		if rows != shortlist.RecentKeep || len(recent) != shortlist.RecentKeep {
			t.Fatalf("user 1 keeps %d rows, %d recent records; want %d", rows, len(recent), shortlist.RecentKeep)
		}
		handles[0].queryRow(ctx, scope(`SELECT COUNT(*) FROM shortlists WHERE tenant_id = :tenant AND user_id = 2`)).Scan(&rows)
		if favs := shelfIDs(t, handles[0], 2, shortlist.Favourites); rows != max || len(favs) != max {
			t.Fatalf("user 2 keeps %d rows, %d favourites; want %d", rows, len(favs), max)
		}
		// The writes took turns: every kept entry has its own number.
		var distinct int
		handles[0].queryRow(ctx, scope(`SELECT COUNT(DISTINCT seq) FROM shortlists WHERE tenant_id = :tenant AND user_id = 1`)).Scan(&distinct)
		if distinct != shortlist.RecentKeep {
			t.Fatalf("%d distinct numbers among user 1's entries", distinct)
		}
	})
}
