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
	for id, seen := range map[int64]bool{7: true, 8: false} {
		data, _ := json.Marshal(EditingData{Kind: "project", ID: id, UserID: 1, Until: time.Now()})
		if e, err := (&Event{Type: TypeEditing, Kind: "project", Data: data}).SeenBy(ctx, seesOdd{}); (e != nil) != seen || err != nil {
			t.Errorf("presence on %d: %+v %v", id, e, err)
		}
	}
}
