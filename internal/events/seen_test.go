package events

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// seesOdd sees the records of odd id.
type seesOdd struct{}

func (seesOdd) Seen(_ context.Context, byKind map[string][]int64) (map[string]map[int64]bool, error) {
	out := map[string]map[int64]bool{}
	for kind, ids := range byKind {
		out[kind] = map[int64]bool{}
		for _, id := range ids {
			out[kind][id] = id%2 == 1
		}
	}
	return out, nil
}

// SeesAll: every client, some invoices.
func (seesOdd) SeesAll(_ context.Context, kind string) (bool, error) { return kind == "customer", nil }

func TestSeenBy(t *testing.T) {
	ctx := context.Background()
	event := func(c Change) *Event { return &Event{ID: 1, Type: c.Type, Kind: c.Kind, Data: c.Data} }
	mixed, err := event(RecordChange("invoice", ActionSync, []int64{1, 2, 3}, 0, time.Now(), "")).SeenBy(ctx, seesOdd{})
	var d RecordData
	if err != nil || mixed == nil || json.Unmarshal(mixed.Data, &d) != nil || !slices.Equal(d.IDs, []int64{1, 3}) {
		t.Errorf("mixed: %+v %v", mixed, err)
	}
	whole := event(RecordChange("invoice", ActionEdit, []int64{5}, 0, time.Now(), ""))
	if e, err := whole.SeenBy(ctx, seesOdd{}); e != whole || err != nil {
		t.Errorf("all seen: %+v %v, want the event itself", e, err)
	}
	if e, err := event(RecordChange("invoice", ActionEdit, []int64{2, 4}, 0, time.Now(), "")).SeenBy(ctx, seesOdd{}); e != nil || err != nil {
		t.Errorf("none seen: %+v %v", e, err)
	}
	// An event that counts its records (an older release's) reaches only
	// a listener who sees every record of its kind.
	for kind, seen := range map[string]bool{"customer": true, "invoice": false} {
		data, _ := json.Marshal(RecordData{Kind: kind, Count: 250, Action: ActionSync})
		if e, err := (&Event{Type: TypeRecord, Kind: kind, Data: data}).SeenBy(ctx, seesOdd{}); (e != nil) != seen || err != nil {
			t.Errorf("a count of %ss: %+v %v", kind, e, err)
		}
	}
	for id, seen := range map[int64]bool{7: true, 8: false} {
		data, _ := json.Marshal(EditingData{Kind: "project", ID: id, UserID: 1, Until: time.Now()})
		if e, err := (&Event{Type: TypeEditing, Kind: "project", Data: data}).SeenBy(ctx, seesOdd{}); (e != nil) != seen || err != nil {
			t.Errorf("presence on %d: %+v %v", id, e, err)
		}
	}
}

// A change of any number of records is logged as events that each name at
// most MaxIDs of them, all of them in order.
func TestRecordChangesNameEveryRecord(t *testing.T) {
	ids := make([]int64, 2*MaxIDs+1)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	var named []int64
	changes := RecordChanges("invoice", ActionSync, ids, 0, time.Now(), "")
	for _, c := range changes {
		var d RecordData
		if err := json.Unmarshal(c.Data, &d); err != nil || d.Count != 0 || len(d.IDs) > MaxIDs {
			t.Fatalf("event %s: %v", c.Data, err)
		}
		named = append(named, d.IDs...)
	}
	if len(changes) != 3 || !slices.Equal(named, ids) {
		t.Errorf("%d events naming %d records, want 3 naming all %d", len(changes), len(named), len(ids))
	}
}
