package erpsync

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// pushBatch bounds the entries one Push reads at a time.
const pushBatch = 50

// Push sends every due outbox entry and returns how many it handled. It
// returns ErrBusy, sending nothing, when another instance holds the
// lease, and ErrLeaseLost, sending nothing more, when another instance
// took the lease over meanwhile.
func (e *Engine) Push(ctx context.Context) (int, error) {
	done := 0
	err := e.hold(ctx, func(ctx context.Context, l Lease) error {
		w := e.store.Fence(l)
		for {
			due, err := e.store.DueOutbox(ctx, e.opt.Now(), pushBatch)
			if err != nil || len(due) == 0 {
				return err
			}
			for _, en := range due {
				// Renewed before every send: an instance that lost the
				// lease (paused, cut off) must not send an entry its
				// successor may be sending too.
				if err := e.renew(ctx, l); err != nil {
					return err
				}
				if err := e.send(ctx, w, en); err != nil {
					return err
				}
				done++
			}
			if len(due) < pushBatch {
				return nil
			}
		}
	})
	return done, err
}

// waitForRef is how long an entry waits when it refers to a record whose
// own create has not reached the ERP yet.
const waitForRef = 5 * time.Second

// send delivers one entry. It returns an error only when the store fails;
// ERP failures are recorded on the entry.
func (e *Engine) send(ctx context.Context, w LeasedWrites, en Entry) error {
	k, ok := e.store.Kinds().Lookup(en.Kind)
	if !ok {
		return w.FailOutbox(ctx, en, "This kind of record is no longer synced.", e.opt.Now())
	}
	if !records.ChangesFields(en.Op) {
		return e.sendAttachment(ctx, w, en, k)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(en.Fields, &raw); err != nil {
		return w.FailOutbox(ctx, en, "The queued change is unreadable.", e.opt.Now())
	}
	in, errs := k.ParseInput(raw, en.Op == records.OpCreate)
	if len(errs) > 0 {
		return w.FailOutbox(ctx, en, errs[0].Message, e.opt.Now())
	}
	// References to records created in the portal go out with the ids
	// the ERP gave them: this entry waits while such a create is on its
	// way, and fails if it never will arrive.
	for field, kind := range k.Refs(in) {
		id := in[field].(int64)
		if id < records.ProvisionalBase {
			continue
		}
		erpID, state, err := e.store.CreatedID(ctx, kind, id)
		if err != nil {
			return err
		}
		switch state {
		case EntrySynced:
			in[field] = erpID
		case EntryPending:
			return w.DeferOutbox(ctx, en.ID, en.Attempts, e.opt.Now().Add(waitForRef), "Waiting for a record it refers to.", e.opt.Now())
		default:
			f, _ := k.FieldNamed(field)
			return w.FailOutbox(ctx, en, f.Label+" refers to a new record that NetSuite does not have: correct or send that one first.", e.opt.Now())
		}
	}
	write := erp.Write{Fields: in, Key: en.Key}
	id := en.RecordID
	var err error
	if en.Op == records.OpCreate {
		id, err = e.conn.Create(ctx, k, write)
	} else {
		err = e.conn.Update(ctx, k, id, write)
	}
	if err != nil {
		return e.failed(ctx, w, en, err)
	}
	rec, err := e.conn.Fetch(ctx, k, id)
	if err != nil {
		// The write landed; the next pull brings the ERP's values.
		e.log.Warn("read back after write", "kind", k.Name, "id", id, "err", err)
		if rec, err = e.unread(ctx, k, en.RecordID, id); err != nil {
			return err
		}
	}
	e.m.PushSynced.Add(1)
	return w.CompleteOutbox(ctx, en, rec, e.opt.Now())
}

// unread is what a write whose record could not be read back from the
// ERP stores: the portal's own version (local, its currency as stored)
// under the ERP's id, dated so that the ERP's version wins at the next
// pull: no later than where that pull starts reading, the kind's
// checkpoint less the overlap (zero before the kind's first pull). The
// portal's clock is not in the connector's time base: with the ERP's
// times read behind it (a NetSuite mapping's zone wrong west of UTC), a
// version dated by it would refuse the ERP's for as many hours.
func (e *Engine) unread(ctx context.Context, k *records.Kind, local, id int64) (records.Record, error) {
	rec, err := e.store.Record(ctx, k.Name, local)
	if err != nil {
		return rec, err
	}
	st, err := e.state(ctx, k.Name)
	if err != nil {
		return rec, err
	}
	var from time.Time
	if !st.Checkpoint.IsZero() {
		from = st.Checkpoint.Modified.Add(-e.opt.Overlap)
	}
	rec.ID = id
	if rec.ModifiedAt.After(from) {
		rec.ModifiedAt = from
	}
	return rec, nil
}

// sendAttachment delivers a note or a file added to a record: through the
// connector's Attachments, to the record's ERP id (the entry waited for
// the record's own create, which gave it that id).
func (e *Engine) sendAttachment(ctx context.Context, w LeasedWrites, en Entry, k *records.Kind) error {
	now := e.opt.Now()
	ac, ok := e.conn.(erp.Attachments)
	switch {
	case !ok:
		return w.FailOutbox(ctx, en, "This ERP connection cannot add notes or files.", now)
	case en.RecordID >= records.ProvisionalBase:
		return w.FailOutbox(ctx, en, "The record is not in NetSuite: send or discard its creation first.", now)
	}
	var (
		id  int64
		err error
	)
	switch en.Op {
	case records.OpNote:
		var nf records.NoteFields
		if json.Unmarshal(en.Fields, &nf) != nil || nf.Text == "" {
			return w.FailOutbox(ctx, en, "The queued note is unreadable.", now)
		}
		id, err = ac.AddNote(ctx, k, en.RecordID, erp.Note{Author: nf.Author, Text: nf.Text, Key: en.Key})
	case records.OpFile:
		var ff records.FileFields
		if json.Unmarshal(en.Fields, &ff) != nil {
			return w.FailOutbox(ctx, en, "The queued file is unreadable.", now)
		}
		f, ferr := e.store.File(ctx, k.Name, en.RecordID, ff.FileID)
		if portal.IsNotFound(ferr) {
			return w.FailOutbox(ctx, en, "The file to send is no longer stored: attach it again.", now)
		}
		if ferr != nil {
			return ferr
		}
		id, err = ac.AddFile(ctx, k, en.RecordID, f, en.Key)
	default:
		return w.FailOutbox(ctx, en, "The queued change is of an unknown kind.", now)
	}
	if err != nil {
		return e.failed(ctx, w, en, err)
	}
	// Read back, as a field write is: an edit that landed while this was
	// still on its way kept the portal's version of the record until now
	// (and the ERP's notes and files list this one).
	var rec *records.Record
	if r, err := e.conn.Fetch(ctx, k, en.RecordID); err == nil {
		rec = &r
	} else {
		e.log.Warn("read back after a note or file", "kind", k.Name, "id", en.RecordID, "err", err)
	}
	e.m.PushSynced.Add(1)
	return w.CompleteAttachment(ctx, en, id, rec, e.opt.Now())
}

// failed records an ERP failure: the ERP's refusal ends the entry failed
// with its message; a transient failure is retried with back-off until
// MaxAttempts.
func (e *Engine) failed(ctx context.Context, w LeasedWrites, en Entry, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	attempts := en.Attempts + 1
	if erp.IsPermanent(err) || attempts >= e.opt.MaxAttempts {
		e.m.PushFailed.Add(1)
		e.log.Warn("write refused", "kind", en.Kind, "record", en.RecordID, "err", err)
		return w.FailOutbox(ctx, en, userMessage(err), e.opt.Now())
	}
	e.m.PushRetries.Add(1)
	delay := erp.Backoff(time.Second, attempts, 15*time.Minute)
	e.log.Info("write deferred", "kind", en.Kind, "record", en.RecordID, "attempt", attempts, "retry_in", delay, "err", err)
	return w.DeferOutbox(ctx, en.ID, attempts, e.opt.Now().Add(delay), errorText(err), e.opt.Now())
}

// userMessage is what the record shows about a failed write: the ERP's
// words for a validation error (the user's to fix), a plain sentence
// otherwise (the details are in the log).
func userMessage(err error) string {
	if ee, ok := errors.AsType[*erp.Error](err); ok && ee.Permanent && ee.Detail != "" {
		if ee.Path != "" {
			return ee.Detail + " (field " + ee.Path + ")"
		}
		return ee.Detail
	}
	return "No answer after several attempts. Try again later."
}

// RetryRecord sends a record's refused change again, soon.
func (e *Engine) RetryRecord(ctx context.Context, kind string, id int64) error {
	en, err := e.store.FailedEntry(ctx, kind, id)
	if err != nil {
		return err
	}
	if err := e.store.RetryOutbox(ctx, en.ID, e.opt.Now()); err != nil {
		return err
	}
	e.Notify()
	return nil
}

// DiscardRecord drops a record's refused change and the changes queued
// after it: a create that never reached the ERP disappears, an edited
// record goes back to the ERP's version (or away, when the ERP deleted
// it meanwhile). Only a refused change can be discarded: one still on its
// way may be landing.
func (e *Engine) DiscardRecord(ctx context.Context, kind string, id int64) error {
	en, err := e.store.FailedEntry(ctx, kind, id)
	if err != nil {
		return err
	}
	k, ok := e.store.Kinds().Lookup(kind)
	if !ok {
		return portal.Errorf(portal.CodeNotFound, "No such kind.")
	}
	if en.Op == records.OpCreate {
		return e.store.DiscardOutbox(ctx, en, nil, e.opt.Now())
	}
	rec, err := e.conn.Fetch(ctx, k, en.RecordID)
	if portal.IsNotFound(err) {
		// Deleted in the ERP meanwhile (which is likely why the edit
		// failed): the record goes here too.
		return e.store.DiscardOutbox(ctx, en, nil, e.opt.Now())
	}
	if err != nil {
		return err
	}
	return e.store.DiscardOutbox(ctx, en, &rec, e.opt.Now())
}
