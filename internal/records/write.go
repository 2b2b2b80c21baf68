package records

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

// ErrChanged is the store's answer when the record changed since the
// version an edit was based on.
var ErrChanged = portal.Errorf(portal.CodeConflict,
	"Someone changed this record since you opened it. Your changes are kept: compare them with the current values and save again.")

// Author is who makes a write: the user, their current role, their address.
type Author struct {
	UserID int64
	RoleID int64
	IP     string
}

// Write is one create or edit as the store keeps it: the record as it
// should be (ID 0 for a new one), the version the edit was based on, the
// changed fields and the ERP's result, for the audit log.
type Write struct {
	Record Record
	// Patch, on an edit, is the document members the edit sets: the
	// store merges it into the stored document rather than writing
	// Record.Fields over it, so a note added meanwhile is kept. Nil
	// means Record.Fields.
	Patch   json.RawMessage
	Base    time.Time
	Changes map[string]Change
	Result  string
	By      Author
	// Outbound, when set, is the write to send to the ERP: the store
	// queues it in the same transaction as the record, and a create gets
	// a provisional id (from ProvisionalBase) until the ERP gives its own.
	Outbound *Outbound
	// Idempotency, when set, makes the write land once (see
	// Idempotency).
	Idempotency *Idempotency
	// NumberLike, on a create whose code the system assigns (a ReadOnly
	// code field, in Standalone mode), asks the store for a code: the
	// new id in the format of the kind's newest code (PRJ-000123).
	NumberLike bool
}

// Idempotency is a write's Idempotency-Key and the fingerprint of what
// was sent with it. The store keeps the key, per tenant and user, for
// IdempotencyTTL beside the record the write made or changed, in the
// write's own transaction; a later write with the same key and fingerprint
// stores nothing and fails with *Replayed naming that record (a repeat
// arriving while the first is still being stored waits for it), and one
// with the same key and another fingerprint fails with ErrKeyReused. A
// write that fails keeps no key, so its repeat is tried afresh.
type Idempotency struct {
	Key         string
	Fingerprint string
}

// IdempotencyTTL is how long a create's Idempotency-Key is remembered.
const IdempotencyTTL = 24 * time.Hour

// Replayed is the store's answer to a write whose Idempotency-Key made or
// changed record ID already.
type Replayed struct{ ID int64 }

func (r *Replayed) Error() string { return fmt.Sprintf("records: create already made record %d", r.ID) }

// ErrKeyReused answers a write whose Idempotency-Key was used for a
// different request.
var ErrKeyReused = portal.Errorf(portal.CodeUnprocessable,
	"This Idempotency-Key was already used for a different request. Send a new key for a new request.")

// Outbound is a create or edit on its way to the ERP: the fields to send
// (the submitted values of the changed fields, as submitted) and the
// idempotency key that makes its delivery land once.
type Outbound struct {
	Op     string // OpCreate or OpUpdate
	Fields json.RawMessage
	Key    string
}

// The outbound operations: a record's create or edit, and a note or a file
// added to it (the record itself unchanged).
const (
	OpCreate = "create"
	OpUpdate = "update"
	OpNote   = "note"
	OpFile   = "file"
)

// ChangesFields reports whether op changes the record's fields (a create or
// an edit), as opposed to adding a note or a file to it.
func ChangesFields(op string) bool { return op == OpCreate || op == OpUpdate }

// The audit events of a queued write's end, in the record's history.
const (
	EventSynced  = "record_synced"  // the ERP took the write
	EventRefused = "record_refused" // the ERP refused it
)

// ProvisionalBase is where the ids of records created in the portal start
// while the ERP has not yet given them theirs: far above any ERP internal
// id, and still exact in a JavaScript number (< 2^53).
const ProvisionalBase int64 = 1 << 52

// Mode says who keeps the records: the portal's own store (Standalone;
// a write is done when stored) or an ERP (Queued; a write is stored as
// pending and sent through the outbox).
type Mode int

// The modes.
const (
	Standalone Mode = iota
	Queued
)

// HistoryEntry is one audited write of a record, for its history.
type HistoryEntry struct {
	At      time.Time         `json:"at"`
	Event   string            `json:"event"` // record_create, record_edit
	User    string            `json:"user"`
	Role    string            `json:"role"`
	Changes map[string]Change `json:"changes"`
	Result  string            `json:"result"`
}

// WriteStore is what a create or edit needs from the store.
type WriteStore interface {
	Record(ctx context.Context, kind string, id int64) (Record, error)
	RecordSummary(ctx context.Context, kind string, id int64) (Record, error)
	SaveRecord(ctx context.Context, w Write) (Record, error)
	// KeptKey is the Idempotency-Key userID sent with a write in the last
	// IdempotencyTTL: its fingerprint and the record the write made or
	// changed; a portal NotFound error when the user has no such key.
	KeptKey(ctx context.Context, userID int64, key string) (Idempotency, int64, error)
}

// Edit is a create (ID 0) or an edit of an existing record, as submitted.
type Edit struct {
	ID     int64
	Fields map[string]json.RawMessage
	// Version is the record's modifiedAt when the form was opened (edits).
	Version time.Time
	// IdempotencyKey is the client's Idempotency-Key: a repeat with the
	// same key and fields answers the record the first write made or
	// changed (as it is now) instead of writing again. Keys are per user,
	// so an edit's key names its record (see BulkEdit).
	IdempotencyKey string
}

// Saved is the answer of Save: the record as stored, and whether the edit
// changed nothing (then nothing was written: no new version, audit entry,
// event or outbox entry, and Record is the record as it is).
type Saved struct {
	Record
	Unchanged bool
}

// Save validates e against the kind's form and stores it: field errors
// are one 422; a reference to a record that does not exist is a field
// error. An edit whose values are those the record has now changes
// nothing and writes nothing (Saved.Unchanged). An edit of a record
// changed since e.Version is a conflict whose Current holds the record as
// it is now, so the user's input can be kept and compared. The standalone
// store is the system of record, so the write is in sync as soon as it is
// stored in Standalone mode; in Queued mode it is stored pending and
// queued for the ERP with the changed fields.
func (k *Kind) Save(ctx context.Context, st WriteStore, e Edit, by Author, now time.Time, mode Mode) (Saved, error) {
	creating := e.ID == 0
	in, errs := k.ParseInput(e.Fields, creating)
	names := map[string]string{}
	for field, kind := range k.Refs(in) {
		ref, err := st.RecordSummary(ctx, kind, in[field].(int64))
		if portal.IsNotFound(err) {
			f, _ := k.FieldNamed(field)
			errs = append(errs, portal.FieldError{Field: field, Message: "No such " + strings.ToLower(refLabel(f)) + "."})
			continue
		}
		if err != nil {
			return Saved{}, err
		}
		names[field] = ref.Title
	}
	if len(errs) > 0 {
		return Saved{}, &portal.Error{Code: portal.CodeUnprocessable, Message: "Please correct the highlighted fields.", Fields: errs}
	}
	base := Record{Kind: k.Name}
	if !creating {
		var err error
		if base, err = st.Record(ctx, k.Name, e.ID); err != nil {
			return Saved{}, err
		}
	}
	rec, patch, err := k.Apply(base, in, names)
	if err != nil {
		return Saved{}, err
	}
	changes := k.Diff(base, rec)
	if !creating && len(changes) == 0 {
		// Nothing to write, whatever version the form was opened at:
		// the record already holds these values — unless the write with
		// this key put them there, and this is its repeat.
		if e.IdempotencyKey != "" {
			if repeat, err := k.isRepeat(ctx, st, e, by); repeat || err != nil {
				return Saved{Record: base}, err
			}
		}
		return Saved{Record: base, Unchanged: true}, nil
	}
	if !creating && !base.ModifiedAt.Equal(e.Version) {
		// A repeat of an edit that landed (its answer was lost) finds
		// the record past the version it was sent with: it gets the
		// record as it is, not a conflict with itself.
		if e.IdempotencyKey != "" {
			if repeat, err := k.isRepeat(ctx, st, e, by); repeat || err != nil {
				return Saved{Record: base}, err
			}
		}
		return Saved{}, k.conflict(base)
	}
	// Milliseconds, strictly after the version it replaces: the version
	// check compares them.
	rec.ModifiedAt = now.UTC().Truncate(time.Millisecond)
	if !rec.ModifiedAt.After(base.ModifiedAt) {
		rec.ModifiedAt = base.ModifiedAt.Add(time.Millisecond)
	}
	rec.Write = WriteState{State: WriteSynced}
	w := Write{Record: rec, Patch: patch, Base: base.ModifiedAt, Changes: changes, Result: "saved", By: by}
	if e.IdempotencyKey != "" {
		w.Idempotency = &Idempotency{Key: e.IdempotencyKey, Fingerprint: k.fingerprint(e.Fields)}
	}
	if mode == Queued {
		if w.Outbound, err = outbound(e, changes, creating); err != nil {
			return Saved{}, err
		}
		w.Record.Write, w.Result = WriteState{State: WritePending}, "queued for the ERP"
	} else if f, ok := k.Field(ColCode); creating && ok && f.ReadOnly {
		w.NumberLike = true
	}
	saved, err := st.SaveRecord(ctx, w)
	var replayed *Replayed
	if errors.As(err, &replayed) {
		rec, err := st.Record(ctx, k.Name, replayed.ID)
		return Saved{Record: rec}, err
	}
	if err == ErrChanged {
		if current, cerr := st.Record(ctx, k.Name, e.ID); cerr == nil {
			return Saved{}, k.conflict(current)
		}
	}
	return Saved{Record: saved}, err
}

// isRepeat tells whether e repeats a write its Idempotency-Key made on
// this record: then it gets that write's answer again. The key kept for
// another request (other fields or another record) is ErrKeyReused; no key
// kept means e is new.
func (k *Kind) isRepeat(ctx context.Context, st WriteStore, e Edit, by Author) (bool, error) {
	kept, id, err := st.KeptKey(ctx, by.UserID, e.IdempotencyKey)
	switch {
	case portal.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, err
	case kept.Fingerprint != k.fingerprint(e.Fields) || id != e.ID:
		return false, ErrKeyReused
	}
	return true, nil
}

// newKey is a fresh random idempotency key for an outbound write.
func newKey() string {
	key := make([]byte, 16)
	rand.Read(key)
	return hex.EncodeToString(key)
}

// fingerprint identifies a write's request for its Idempotency-Key: the
// kind and the submitted fields, in a canonical form (keys sorted, values
// compacted), so the same request sent again matches byte for byte.
func (k *Kind) fingerprint(fields map[string]json.RawMessage) string {
	b, _ := json.Marshal(fields) // sorts the keys and compacts each value
	sum := sha256.Sum256(append([]byte(k.Name+"\n"), b...))
	return hex.EncodeToString(sum[:])
}

// outbound is the ERP's part of a write: the submitted values of the
// fields that changed (all submitted fields of a create), and a fresh
// idempotency key.
func outbound(e Edit, changes map[string]Change, creating bool) (*Outbound, error) {
	send := map[string]json.RawMessage{}
	for name, v := range e.Fields {
		if _, changed := changes[name]; changed || creating {
			send[name] = v
		}
	}
	fields, err := json.Marshal(send)
	if err != nil {
		return nil, err
	}
	op := OpUpdate
	if creating {
		op = OpCreate
	}
	return &Outbound{Op: op, Fields: fields, Key: newKey()}, nil
}

// conflict is ErrChanged carrying the record's current field values.
func (k *Kind) conflict(current Record) error {
	e := *ErrChanged
	e.Current = k.Row(current, k.Columns(fieldNames(k.AllFields())))
	e.Current["version"] = current.ModifiedAt
	return &e
}

// HistoryColumns and HistoryRows render a record's history as a tab's
// table: when, what, who in which role, and the changed fields as
// "Label: before → after".
var HistoryColumns = []ColumnInfo{
	{Name: "at", Label: "When", Type: TypeText}, {Name: "action", Label: "Action", Type: TypeText},
	{Name: "user", Label: "By", Type: TypeText}, {Name: "role", Label: "Role", Type: TypeText},
	{Name: "changes", Label: "Changes", Type: TypeText}, {Name: "result", Label: "ERP result", Type: TypeText},
}

// HistoryRows renders history entries for HistoryColumns.
func (k *Kind) HistoryRows(hs []HistoryEntry) []Row {
	actions := map[string]string{"record_create": "Created", "record_edit": "Edited",
		EventNote: "Added a note", EventFile: "Attached a file",
		EventSynced: "Reached NetSuite", EventRefused: "Refused by NetSuite"}
	rows := make([]Row, 0, len(hs))
	for i, h := range hs {
		var parts []string
		switch h.Event {
		case EventNote, EventFile:
			// The addition's one change: the note's text, the file's name.
			for _, c := range h.Changes {
				parts = append(parts, clip(shown(c.After), 120))
			}
		default:
			for _, f := range k.AllFields() {
				if c, ok := h.Changes[f.Name]; ok {
					parts = append(parts, f.Label+": "+shown(c.Before)+" → "+shown(c.After))
				}
			}
		}
		rows = append(rows, Row{"id": i + 1, "at": h.At.Format(time.RFC3339), "action": actions[h.Event], "user": h.User,
			"role": h.Role, "changes": strings.Join(parts, "; "), "result": h.Result})
	}
	return rows
}

// clip shortens s to at most n characters, ending it with "…" when cut.
func clip(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}

// shown is a changed value as a person reads it.
func shown(v any) string {
	switch v := v.(type) {
	case nil:
		return "(empty)"
	case string:
		if v == "" {
			return "(empty)"
		}
		return v
	case map[string]any: // a reference read back from JSON
		if name, ok := v["refName"].(string); ok {
			return name
		}
	case Ref:
		return v.RefName
	}
	b, _ := json.Marshal(v)
	return string(b)
}
