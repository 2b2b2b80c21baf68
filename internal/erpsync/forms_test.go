package erpsync_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// A project's document fields edited in the portal (its manager, its %
// complete, its projected end) reach NetSuite as the record API takes
// them; an edit that changes nothing queues nothing.
func TestDocumentFieldsEditedReachNetSuite(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		proj := mustKind(t, "project")
		cur, err := ten.Record(ctx, "project", 4)
		if err != nil {
			t.Fatal(err)
		}
		fields := map[string]json.RawMessage{"projectmanager": json.RawMessage(`2`), "percentcomplete": json.RawMessage(`55.5`),
			"projectedenddate": json.RawMessage(`"2027-06-30"`)}
		saved, err := proj.Save(ctx, ten, records.Edit{ID: 4, Version: cur.ModifiedAt, Fields: fields}, records.Author{}, start, records.Queued)
		if err != nil || saved.Unchanged {
			t.Fatalf("edit: %+v %v", saved, err)
		}
		// The same values again change nothing: nothing more is queued.
		again, err := proj.Save(ctx, ten, records.Edit{ID: 4, Version: saved.ModifiedAt, Fields: fields}, records.Author{}, start, records.Queued)
		if err != nil || !again.Unchanged {
			t.Fatalf("same edit again: %+v %v", again, err)
		}
		if counts, _ := ten.OutboxCounts(ctx); counts["pending"] != 1 {
			t.Fatalf("outbox %v", counts)
		}
		a.clock.Advance(time.Second)
		if _, err := eng.Push(ctx); err != nil {
			t.Fatal(err)
		}
		if r, _ := ten.Record(ctx, "project", 4); r.Write.State != records.WriteSynced {
			t.Fatalf("write state %+v", r.Write)
		}
		ns, ok := a.fake.Get("job", 4)
		if !ok {
			t.Fatal("project 4 is not in NetSuite")
		}
		pm, _ := ns.Fields["projectManager"].(map[string]any)
		if pm["id"] != "2" || ns.Fields["percentComplete"] != 55.5 || ns.Fields["projectedEndDate"] != "2027-06-30" {
			t.Fatalf("NetSuite has manager %v, %% complete %v, end %v", ns.Fields["projectManager"], ns.Fields["percentComplete"], ns.Fields["projectedEndDate"])
		}
		got, _ := ten.Record(ctx, "project", 4)
		if got.Write.State != records.WriteSynced {
			t.Fatalf("write state %+v", got.Write)
		}
	})
}
