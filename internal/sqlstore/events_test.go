package sqlstore

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/records"
)

func recordData(t *testing.T, e *events.Event) events.RecordData {
	t.Helper()
	var d events.RecordData
	if err := json.Unmarshal(e.Data, &d); err != nil {
		t.Fatalf("event %d: %v: %s", e.ID, err, e.Data)
	}
	return d
}

func TestConformanceEventLog(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		other := seedTenant(t, s, "other")
		sig := NewSignals(s, nil)
		t.Cleanup(func() { sig.Close() })
		s.AnnounceEvents(sig)
		wake, err := sig.Subscribe(ctx, events.Channel("acme"))
		if err != nil {
			t.Fatal(err)
		}

		if _, last, err := ten.EventBounds(ctx); err != nil || last != 0 {
			t.Fatalf("bounds of an empty log: %d %v", last, err)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		rec, err := create(ctx, ten, 3, "Initech", "", now)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case m, ok := <-wake:
			if !ok || m != events.Wake {
				t.Fatalf("no wake-up after the commit: %q %v", m, ok)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no wake-up within 5s of the commit")
		}
		edit := rec
		edit.Title, edit.ModifiedAt = "Initech Ltd", now.Add(time.Second)
		if _, err := ten.SaveRecord(ctx, records.Write{Record: edit, Base: rec.ModifiedAt, By: records.Author{UserID: 3}}); err != nil {
			t.Fatal(err)
		}
		// A conflicting edit logs nothing.
		if _, err := ten.SaveRecord(ctx, records.Write{Record: edit, Base: rec.ModifiedAt, By: records.Author{UserID: 3}}); err == nil {
			t.Fatal("a stale edit was saved")
		}
		many := make([]records.Record, events.MaxIDs+1)
		for i := range many {
			many[i] = testRecord("customer", int64(1000+i), "Pulled", "Active")
		}
		if err := ten.ApplyPull(ctx, "customer", many, nil, erpsync.State{Kind: "customer"}); err != nil {
			t.Fatal(err)
		}
		// The overlap's re-reads and deletions of what is not stored are no
		// change: one re-read changed, one not; one deletion of a stored
		// record, one of an unknown id.
		changed := many[0]
		changed.ModifiedAt = changed.ModifiedAt.Add(time.Minute)
		if err := ten.ApplyPull(ctx, "customer", []records.Record{changed, many[1]}, []int64{many[2].ID, 99999},
			erpsync.State{Kind: "customer"}); err != nil {
			t.Fatal(err)
		}
		for _, pull := range []struct {
			recs    []records.Record
			deleted []int64
		}{{nil, nil}, {many[3:5], nil}, {nil, []int64{99999}}} {
			if err := ten.ApplyPull(ctx, "customer", pull.recs, pull.deleted, erpsync.State{Kind: "customer"}); err != nil {
				t.Fatal(err)
			}
		}

		evs, err := ten.EventsAfter(ctx, 0, 100)
		if err != nil || len(evs) != 5 {
			t.Fatalf("events: %d %v", len(evs), err)
		}
		for i, e := range evs {
			if e.ID != int64(i+1) || e.Type != events.TypeRecord || e.Kind != "customer" {
				t.Errorf("event %d: %+v", i, e)
			}
		}
		if d := recordData(t, evs[0]); d.Action != events.ActionCreate || len(d.IDs) != 1 || d.IDs[0] != rec.ID ||
			d.ByUserID != 3 || !d.At.Equal(now) {
			t.Errorf("create: %s", evs[0].Data)
		}
		if d := recordData(t, evs[1]); d.Action != events.ActionEdit || d.IDs[0] != rec.ID {
			t.Errorf("edit: %s", evs[1].Data)
		}
		// A large pull names every record, MaxIDs an event.
		if d := recordData(t, evs[2]); d.Action != events.ActionSync || len(d.IDs) != events.MaxIDs || d.Count != 0 || d.ByUserID != 0 {
			t.Errorf("a large pull: %s", evs[2].Data)
		}
		if d := recordData(t, evs[3]); d.Action != events.ActionSync || len(d.IDs) != 1 || d.IDs[0] != many[events.MaxIDs].ID {
			t.Errorf("a large pull's last: %s", evs[3].Data)
		}
		if d := recordData(t, evs[4]); len(d.IDs) != 2 || d.IDs[0] != changed.ID || d.IDs[1] != many[2].ID || d.Count != 0 {
			t.Errorf("a small pull: %s", evs[4].Data)
		}
		if evs, _ := ten.EventsAfter(ctx, 2, 1); len(evs) != 1 || evs[0].ID != 3 {
			t.Errorf("after 2, limit 1: %+v", evs)
		}
		if oldest, last, err := ten.EventBounds(ctx); oldest != 1 || last != 5 || err != nil {
			t.Errorf("bounds: %d %d %v", oldest, last, err)
		}
		// Another tenant's log is its own.
		if evs, _ := other.EventsAfter(ctx, 0, 100); len(evs) != 0 {
			t.Errorf("another tenant sees %d events", len(evs))
		}
		if oldest, last, _ := other.EventBounds(ctx); oldest != 0 || last != 0 {
			t.Errorf("another tenant's bounds: %d %d", oldest, last)
		}

		// A list shared with a role is logged for that role.
		l := records.ListConfig{ID: "l1", Kind: "customer", Name: "Mine", Columns: []string{"companyname"},
			Sort: records.SortSpec{Field: "companyname", Dir: "asc"}, Visibility: records.SharedRole, RoleID: 10, OwnerID: 3, UpdatedAt: now}
		if err := ten.PutList(ctx, l); err != nil {
			t.Fatal(err)
		}
		l.ID, l.Visibility, l.RoleID = "l2", records.Private, 0
		if err := ten.PutList(ctx, l); err != nil {
			t.Fatal(err)
		}
		evs, _ = ten.EventsAfter(ctx, 5, 100)
		if len(evs) != 1 || evs[0].Type != events.TypeList || evs[0].RoleID != 10 || string(evs[0].Data) != `{"type":"list","kind":"customer"}` {
			t.Errorf("list events: %+v", evs)
		}

		// Pruning: events older than a day go, a bounded batch at a time.
		old := now.Add(-events.Keep - time.Hour)
		err = ten.inTx(ctx, func(tx *Tenant) error {
			for range 2 * pruneEvery {
				if _, err := tx.logEvents(ctx, events.RecordChange("customer", events.ActionEdit, []int64{1}, 0, old, "")); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Ids 7..38 are old; logging 39..48 at now prunes at id 48.
		err = ten.inTx(ctx, func(tx *Tenant) error {
			for range 48 - 38 {
				if _, err := tx.logEvents(ctx, events.RecordChange("customer", events.ActionEdit, []int64{1}, 0, now, "")); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		oldest, last, err := ten.EventBounds(ctx)
		if err != nil || oldest != 1 || last != 48 {
			t.Fatalf("bounds after pruning: %d %d %v", oldest, last, err)
		}
		evs, _ = ten.EventsAfter(ctx, 0, 100)
		for _, e := range evs {
			if e.ID >= 7 && e.ID <= 38 {
				t.Fatalf("event %d outlived its day", e.ID)
			}
		}
	})
}
