// Package events is the live-update hub behind GET /api/v1/events: what a
// tenant's open streams are sent when its records change, on whichever
// instance they changed.
//
// Contracts:
//
//   - An event worth keeping (a record written, pulled from the ERP or
//     changing write state; a list or report shared with a role) is a row
//     of the store's event log, written in the transaction of the change
//     it tells of and numbered by the tenant's own counter, so ids commit
//     in order and without gaps. After the commit the writer publishes
//     Wake on the tenant's Channel.
//   - Each instance's Hub subscribes once per tenant with open streams
//     (never once per stream) and, at every message, reads the log after
//     the last id it had and fans the new events out to its streams; the
//     event rows are read once per instance, not once per stream. A lost
//     message (Resync) costs nothing: the next read finds every row.
//   - A stream gets only the events its viewer may see (Viewer.May for
//     the event's kind; a list event only by its role). Another tenant's
//     events never reach it: hubs, channels and logs are per tenant.
//   - Presence ("someone is editing") is ephemeral: published on the same
//     channel with its data, never stored, never numbered, and not sent to
//     the user it is about.
//   - A stream that falls behind (its small buffer full) is sent no more
//     live events until it has caught up from the log itself.
//   - A session event (TypeSession: a user's session ended, or the
//     tenant's access changed) is logged in the transaction that ended it,
//     and reaches the streams it concerns in log order like any event, so
//     a stream is handed it before any event logged after it. It is never
//     sent to a client: the stream checks its session again, afresh, and
//     ends when the session has (see SessionChange).
package events

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Event types, the SSE "event:" field.
const (
	TypeRecord  = "record"
	TypeList    = "list"
	TypeEditing = "editing"
	TypeReset   = "reset"
	// TypeSession is a session event: never sent, it tells the streams of
	// Event.UserID (every stream of the tenant when 0) to check their
	// session again.
	TypeSession = "session"
)

// Record event actions.
const (
	ActionCreate     = "create"
	ActionEdit       = "edit"
	ActionNote       = "note"
	ActionFile       = "file"
	ActionSync       = "sync"
	ActionWriteState = "write-state"
)

// MaxIDs is how many record ids one event lists; a change of more is
// logged as several events (RecordChanges).
const MaxIDs = 200

// Keep is how long the log keeps an event for a stream to resume after.
const Keep = 24 * time.Hour

// Event is one event of a tenant, as sent. Events are shared between the
// streams they are sent to: never change one.
type Event struct {
	// ID is the tenant's event number; 0 for an ephemeral event
	// (presence, reset), sent without an "id:" line.
	ID   int64
	Type string
	// Kind is the record kind the event is about: a stream gets it only
	// when its viewer may see that kind.
	Kind string
	// RoleID, when not 0, is the one role the event is for (a list shared
	// with a role).
	RoleID int64
	// UserID is who caused it: presence is not sent to that user.
	UserID int64
	// Data is the "data:" line, JSON on one line.
	Data []byte
}

// RecordData is the data of a record event.
type RecordData struct {
	Kind string `json:"kind"`
	// IDs are the records changed, at most MaxIDs. An event of a release
	// before RecordChanges may have none, and Count instead.
	IDs        []int64   `json:"ids,omitempty"`
	Count      int       `json:"count,omitempty"`
	Action     string    `json:"action"`
	ByUserID   int64     `json:"byUserId"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
	WriteState string    `json:"writeState,omitempty"`
}

// ListData is the data of a list event.
type ListData struct {
	Type string `json:"type"` // "list" or "report"
	Kind string `json:"kind"`
}

// EditingData is the data of a presence event.
type EditingData struct {
	Kind   string    `json:"kind"`
	ID     int64     `json:"id"`
	UserID int64     `json:"userId"`
	User   string    `json:"user"`
	Until  time.Time `json:"until"`
}

// Change is a record event to log (see NewRecordChange).
type Change struct {
	Type   string
	Kind   string
	RoleID int64
	UserID int64
	At     time.Time
	// Data is the JSON stored: for a record event, RecordData without By
	// (the user's name is read with the event).
	Data []byte
}

// RecordChange is the record event to log for a change of a few records
// (at most MaxIDs: RecordChanges for any number).
func RecordChange(kind, action string, ids []int64, byUser int64, at time.Time, writeState string) Change {
	d := RecordData{Kind: kind, IDs: ids, Action: action, ByUserID: byUser, At: at.UTC().Truncate(time.Millisecond), WriteState: writeState}
	b, _ := json.Marshal(d)
	return Change{Type: TypeRecord, Kind: kind, UserID: byUser, At: at, Data: b}
}

// RecordChanges are the record events to log for a change of ids, one per
// MaxIDs of them: every event names its records, so a listener under a
// rule is told of its own and of nothing else (a count of them all would
// tell it of others').
func RecordChanges(kind, action string, ids []int64, byUser int64, at time.Time, writeState string) []Change {
	var out []Change
	for part := range slices.Chunk(ids, MaxIDs) {
		out = append(out, RecordChange(kind, action, part, byUser, at, writeState))
	}
	return out
}

// SessionChange is the session event to log when user's sessions end
// (a sign-out, a revoked refresh chain) or, with user 0, when the tenant's
// users, roles or grants change (an access import): the streams it
// concerns, on every instance, check their session again at once instead
// of at their next heartbeat, and end when it has ended, the user is
// disabled or no longer holds the stream's role.
func SessionChange(user int64, at time.Time) Change {
	return Change{Type: TypeSession, UserID: user, At: at, Data: []byte("{}")}
}

// ListChange is a list event to log: a saved list or report (report)
// shared with role.
func ListChange(kind string, report bool, role, byUser int64, at time.Time) Change {
	d := ListData{Type: "list", Kind: kind}
	if report {
		d.Type = "report"
	}
	b, _ := json.Marshal(d)
	return Change{Type: TypeList, Kind: kind, RoleID: role, UserID: byUser, At: at, Data: b}
}

// Log is a tenant's event log.
type Log interface {
	// EventsAfter returns the tenant's events with an id above after, in
	// id order, at most limit.
	EventsAfter(ctx context.Context, after int64, limit int) ([]*Event, error)
	// EventBounds returns the oldest id kept (0 when none is) and the
	// last id given (0 when none ever was).
	EventBounds(ctx context.Context) (oldest, last int64, err error)
}

// Signals carries wake-ups between instances (signals.Signals).
type Signals interface {
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channel string) (<-chan string, error)
}

// Channel is the tenant's signal channel.
func Channel(t portal.TenantID) string { return "events:" + string(t) }

// Wake is the message a writer publishes on Channel after committing
// events. Presence messages start with '{' instead.
const Wake = "e"
