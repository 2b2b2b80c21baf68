package events

import (
	"context"
	"encoding/json"
	"slices"
)

// Seer tells what a stream's listener may see (records.Guard, the one
// place that decides it).
type Seer interface {
	// Seen returns, of the records named by kind and id, those the
	// listener may see, as a set per kind.
	Seen(ctx context.Context, byKind map[string][]int64) (map[string]map[int64]bool, error)
	// SeesAll reports whether the listener sees every record of kind.
	SeesAll(ctx context.Context, kind string) (bool, error)
}

// SeenBy is e as the listener s decides for may be told of it: a record
// event's ids cut down to the records they may see, a presence event on
// a record they may not see dropped (nil), others as they are. An event
// left naming no record is dropped too: a stream never names a record its
// listener may not see. A record event that counts its records rather
// than naming them (as a release before RecordChanges logged a change of
// more than MaxIDs) goes only to a listener who sees every record of its
// kind: its count would tell others of records they may not see.
func (e *Event) SeenBy(ctx context.Context, s Seer) (*Event, error) {
	switch e.Type {
	case TypeRecord:
		var d RecordData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return e, err
		}
		if len(d.IDs) == 0 {
			all, err := s.SeesAll(ctx, d.Kind)
			if err != nil || !all {
				return nil, err
			}
			return e, nil
		}
		seen, err := s.Seen(ctx, map[string][]int64{d.Kind: d.IDs})
		if err != nil {
			return nil, err
		}
		n := len(d.IDs)
		d.IDs = slices.DeleteFunc(d.IDs, func(id int64) bool { return !seen[d.Kind][id] })
		switch len(d.IDs) {
		case n:
			return e, nil
		case 0:
			return nil, nil
		}
		out := *e
		out.Data, err = json.Marshal(d)
		return &out, err
	case TypeEditing:
		var d EditingData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		seen, err := s.Seen(ctx, map[string][]int64{d.Kind: {d.ID}})
		if err != nil || !seen[d.Kind][d.ID] {
			return nil, err
		}
	}
	return e, nil
}
