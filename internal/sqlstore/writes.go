package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

var (
	// nextRecordID takes the next id of a kind from tenant_sequences, and
	// holds that row's lock until the transaction ends, so concurrent
	// creates (on any instance) never take the same id. It starts above
	// the kind's highest id, which covers records stored without it (the
	// demo seed, a sync), and it never gives an id twice.
	nextRecordID = scope(`INSERT INTO tenant_sequences AS s (tenant_id, name, last)
		VALUES (:tenant, ?, (SELECT COALESCE(MAX(id), 0) + 1 FROM records WHERE tenant_id = :tenant AND kind = ? AND id < ?))
		ON CONFLICT (tenant_id, name) DO UPDATE
		SET last = CASE WHEN s.last + 1 > excluded.last THEN s.last + 1 ELSE excluded.last END
		RETURNING last`)
	// claimKey stores a create's Idempotency-Key, unless the user has it
	// already from the last IdempotencyTTL (then no row changes). An
	// older row is taken over.
	claimKey = scope(`INSERT INTO idempotency_keys AS k (tenant_id, user_id, key, fingerprint, kind, record_id, created_at)
		VALUES (:tenant, ?, ?, ?, ?, 0, ?)
		ON CONFLICT (tenant_id, user_id, key) DO UPDATE
		SET fingerprint = excluded.fingerprint, kind = excluded.kind, record_id = 0, created_at = excluded.created_at
		WHERE k.created_at < ?`)
	keptKey      = scope(`SELECT fingerprint, record_id FROM idempotency_keys WHERE tenant_id = :tenant AND user_id = ? AND key = ? AND created_at >= ?`)
	keyRecord    = scope(`UPDATE idempotency_keys SET record_id = ? WHERE tenant_id = :tenant AND user_id = ? AND key = ?`)
	expireKeys   = scope(`DELETE FROM idempotency_keys WHERE tenant_id = :tenant AND created_at < ?`)
	insertRecord = scope(`INSERT INTO records (tenant_id, ` + recordColumns + `, write_state, write_error)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, :doc, ?, ?)`)
	// updateRecord merges the edit's patch into the stored document
	// (jsonb_patch: SQLite's own, a function of ours on PostgreSQL), so
	// members others changed meanwhile without a new version (a note
	// appended to the notes sublist) stay.
	updateRecord = scope(`UPDATE records SET title = ?, code = ?, status = ?, parent_id = ?, parent_name = ?,
		project_id = ?, project_name = ?, amount = ?, occurred_on = ?, modified_at = ?, fields = jsonb_patch(fields, :doc),
		write_state = ?, write_error = ?
		WHERE tenant_id = :tenant AND kind = ? AND id = ? AND modified_at = ?`)
)

// SaveRecord implements records.WriteStore: in one transaction, it stores
// w.Record (a new id when w.Record.ID is 0; else only if the stored record
// is still at w.Base, or a conflict error), its audit entry and, when
// w.Outbound is set, its outbox entry.
func (t *Tenant) SaveRecord(ctx context.Context, w records.Write) (records.Record, error) {
	r := w.Record
	var logged bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		if w.Idempotency != nil {
			// First, so a repeat of this write waits here for this
			// transaction, and nothing else is written for a repeat.
			if err := tx.claimKey(ctx, w.By.UserID, r.Kind, w.Idempotency, r.ModifiedAt); err != nil {
				return err
			}
			if r.ID != 0 { // an edit's key names its record now; a create's below
				if _, err := tx.exec(ctx, keyRecord, r.ID, w.By.UserID, w.Idempotency.Key); err != nil {
					return err
				}
			}
		}
		event := "record_edit"
		var outboxID int64
		if w.Outbound != nil {
			var err error
			if outboxID, err = tx.enqueue(ctx, r.Kind, r.ID, r.ModifiedAt, w.Outbound); err != nil {
				return err
			}
		}
		if r.ID == 0 {
			event = "record_create"
			if w.Outbound != nil {
				// Provisional until the ERP gives its id: unique across
				// kinds, so references to it can be rewritten by id alone.
				r.ID = records.ProvisionalBase + outboxID
				if _, err := tx.exec(ctx, setOutboxRecord, r.ID, outboxID); err != nil {
					return err
				}
			} else if err := tx.queryRow(ctx, nextRecordID, "record:"+r.Kind, r.Kind, records.ProvisionalBase).Scan(&r.ID); err != nil {
				return err
			}
			if w.Idempotency != nil { // the record the key made, for a repeat
				if _, err := tx.exec(ctx, keyRecord, r.ID, w.By.UserID, w.Idempotency.Key); err != nil {
					return err
				}
			}
			if _, err := tx.exec(ctx, insertRecord, r.Kind, r.ID, nullString(r.ExternalID), r.Title, r.Code, r.Status,
				nullID(r.ParentID), r.ParentName, nullID(r.ProjectID), r.ProjectName, r.Amount, r.Date,
				r.ModifiedAt.UnixMilli(), r.Currency, string(r.Fields), r.Write.State, r.Write.Error); err != nil {
				return err
			}
			if w.NumberLike && r.Code == "" {
				if err := tx.numberLike(ctx, &r); err != nil {
					return err
				}
			}
		} else {
			patch := w.Patch
			if patch == nil {
				patch = r.Fields
			}
			res, err := tx.exec(ctx, updateRecord, r.Title, r.Code, r.Status, nullID(r.ParentID), r.ParentName,
				nullID(r.ProjectID), r.ProjectName, r.Amount, r.Date, r.ModifiedAt.UnixMilli(), string(patch),
				r.Write.State, r.Write.Error, r.Kind, r.ID, w.Base.UnixMilli())
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return records.ErrChanged
			}
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: r.ModifiedAt, Event: event, UserID: w.By.UserID, RoleID: w.By.RoleID,
			IP: w.By.IP, Kind: r.Kind, RecordID: r.ID, Detail: map[string]any{"changes": w.Changes, "result": w.Result}}); err != nil {
			return err
		}
		action := events.ActionEdit
		if event == "record_create" {
			action = events.ActionCreate
		}
		var err error
		logged, err = tx.logEvents(ctx, events.RecordChange(r.Kind, action, []int64{r.ID}, w.By.UserID, r.ModifiedAt, ""))
		return err
	})
	t.announce(ctx, err == nil && logged)
	if err != nil {
		var replayed *records.Replayed
		if errors.Is(err, records.ErrChanged) || errors.Is(err, records.ErrKeyReused) || errors.As(err, &replayed) {
			return r, err
		}
		return r, fmt.Errorf("save record: %w", err)
	}
	return r, nil
}

// claimKey keeps a write's Idempotency-Key for user, or fails with
// *records.Replayed when the user sent it with the same request in the
// last IdempotencyTTL, or with ErrKeyReused when with another. It also
// forgets the tenant's keys older than that.
func (t *Tenant) claimKey(ctx context.Context, user int64, kind string, k *records.Idempotency, now time.Time) error {
	cutoff := now.Add(-records.IdempotencyTTL).UnixMilli()
	if _, err := t.exec(ctx, expireKeys, cutoff); err != nil {
		return err
	}
	res, err := t.exec(ctx, claimKey, user, k.Key, k.Fingerprint, kind, now.UnixMilli(), cutoff)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	var fingerprint string
	var id int64
	if err := t.queryRow(ctx, keptKey, user, k.Key, cutoff).Scan(&fingerprint, &id); err != nil {
		return err
	}
	if fingerprint != k.Fingerprint {
		return records.ErrKeyReused
	}
	return &records.Replayed{ID: id}
}

// KeptKey implements records.WriteStore.
func (t *Tenant) KeptKey(ctx context.Context, userID int64, key string) (records.Idempotency, int64, error) {
	k := records.Idempotency{Key: key}
	var id int64
	cutoff := time.Now().Add(-records.IdempotencyTTL).UnixMilli()
	err := t.queryRow(ctx, keptKey, userID, key, cutoff).Scan(&k.Fingerprint, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return k, 0, portal.Errorf(portal.CodeNotFound, "No such Idempotency-Key.")
	}
	return k, id, err
}

// RecordHistory returns a record's audit entries (creates and edits),
// newest first, at most limit.
func (t *Tenant) RecordHistory(ctx context.Context, kind string, id int64, limit int) ([]records.HistoryEntry, error) {
	events, err := t.AuditEvents(ctx, access.AuditFilter{Kind: kind, RecordID: id, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]records.HistoryEntry, 0, len(events))
	for _, e := range events {
		h := records.HistoryEntry{At: e.At.UTC(), Event: e.Event, User: e.User, Role: e.Role}
		// The detail went through JSON; read it back into its types.
		b, _ := json.Marshal(e.Detail)
		var d struct {
			Changes map[string]records.Change
			Result  string
		}
		json.Unmarshal(b, &d)
		h.Changes, h.Result = d.Changes, d.Result
		out = append(out, h)
	}
	return out, nil
}

var (
	// newestCode is the code of a kind's newest record made with an id
	// of its own (not a provisional one), for numbering a create alike.
	newestCode = scope(`SELECT id, code FROM records WHERE tenant_id = :tenant AND kind = ? AND id < ? AND id <> ? AND code <> ''
		ORDER BY id DESC LIMIT 1`)
	setCode = scope(`UPDATE records SET code = ? WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
)

// numberLike gives record r (just inserted) a code in the format of the
// kind's newest code: its prefix, and its number moved on by as much as
// the id (PRJ-000123 for id 123, INV-100123 when invoices count from
// 100,000), zero-padded to the same width. A kind whose codes end in no
// number gets none.
func (t *Tenant) numberLike(ctx context.Context, r *records.Record) error {
	var prevID int64
	var prev string
	err := t.queryRow(ctx, newestCode, r.Kind, records.ProvisionalBase, r.ID).Scan(&prevID, &prev)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	i := len(prev)
	for i > 0 && prev[i-1] >= '0' && prev[i-1] <= '9' {
		i--
	}
	n, err := strconv.ParseInt(prev[i:], 10, 64)
	if err != nil {
		return nil // no number (or one too long) to follow
	}
	next := n + r.ID - prevID
	if next <= 0 {
		return nil
	}
	width := len(prev) - i
	r.Code = fmt.Sprintf("%s%0*d", prev[:i], width, next)
	_, err = t.exec(ctx, setCode, r.Code, r.Kind, r.ID)
	return err
}

var recordExists = scope(`SELECT 1 FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)

// AddNote implements records.AttachmentStore.
func (t *Tenant) AddNote(ctx context.Context, w records.NoteWrite) error {
	entry, err := json.Marshal(w.Entry)
	if err != nil {
		return err
	}
	var logged bool
	err = t.inTx(ctx, func(tx *Tenant) error {
		if w.Idempotency != nil {
			if err := tx.claimKey(ctx, w.By.UserID, records.OpNote+":"+w.Kind, w.Idempotency, w.At); err != nil {
				return err
			}
			if _, err := tx.exec(ctx, keyRecord, w.RecordID, w.By.UserID, w.Idempotency.Key); err != nil {
				return err
			}
		}
		res, err := tx.exec(ctx, tx.d.appendNote, string(entry), w.Kind, w.RecordID)
		if err != nil {
			return fmt.Errorf("add note: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return portal.Errorf(portal.CodeNotFound, "No such record.")
		}
		state, result := records.WriteSynced, "saved"
		if w.Outbound != nil {
			if _, err := tx.enqueue(ctx, w.Kind, w.RecordID, w.At, w.Outbound); err != nil {
				return err
			}
			state, result = records.WritePending, "queued for the ERP"
			if _, err := tx.exec(ctx, setWriteState, state, "", w.Kind, w.RecordID); err != nil {
				return err
			}
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: w.At, Event: records.EventNote, UserID: w.By.UserID, RoleID: w.By.RoleID,
			IP: w.By.IP, Kind: w.Kind, RecordID: w.RecordID,
			Detail: map[string]any{"changes": map[string]records.Change{"note": {After: w.Entry.Text}}, "result": result}}); err != nil {
			return err
		}
		logged, err = tx.logEvents(ctx, events.RecordChange(w.Kind, events.ActionNote, []int64{w.RecordID}, w.By.UserID, w.At, state))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return keepTyped(err, "add note")
}

// keepTyped passes the errors callers tell apart (a replay, a reused key,
// a portal error) as they are, and wraps the others with what failed.
func keepTyped(err error, what string) error {
	var replayed *records.Replayed
	var perr *portal.Error
	if err == nil || errors.As(err, &replayed) || errors.As(err, &perr) {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

// nextFileID takes the next id of a file added in the portal (standalone
// mode), as nextRecordID does for records: above the tenant's highest
// file id, never given twice.
var nextFileID = scope(`INSERT INTO tenant_sequences AS s (tenant_id, name, last)
	VALUES (:tenant, 'file', (SELECT COALESCE(MAX(id), 0) + 1 FROM files WHERE tenant_id = :tenant AND id < ?))
	ON CONFLICT (tenant_id, name) DO UPDATE
	SET last = CASE WHEN s.last + 1 > excluded.last THEN s.last + 1 ELSE excluded.last END
	RETURNING last`)

var (
	insertFile = scope(`INSERT INTO files (tenant_id, id, kind, record_id, name, content_type, size, modified_at, content, write_state)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	setOutboxFields = scope(`UPDATE outbox SET fields = ? WHERE tenant_id = :tenant AND id = ?`)
)

// AddFile implements records.AttachmentStore: the file gets the next file
// id, or in ERP mode (w.Outbound set) a provisional one (ProvisionalBase
// plus its outbox entry's id, so it never meets an id of the ERP's), and
// waits in the outbox behind the record's earlier writes.
func (t *Tenant) AddFile(ctx context.Context, w records.FileWrite) (records.File, error) {
	f := w.File
	f.Size = int64(len(f.Content))
	var logged bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		if w.Idempotency != nil {
			if err := tx.claimKey(ctx, w.By.UserID, records.OpFile+":"+f.Kind, w.Idempotency, f.ModifiedAt); err != nil {
				return err
			}
		}
		var one int
		if err := tx.queryRow(ctx, recordExists, f.Kind, f.RecordID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
			return portal.Errorf(portal.CodeNotFound, "No such record.")
		} else if err != nil {
			return err
		}
		result := "saved"
		if w.Outbound != nil {
			outboxID, err := tx.enqueue(ctx, f.Kind, f.RecordID, f.ModifiedAt, w.Outbound)
			if err != nil {
				return err
			}
			f.ID = records.ProvisionalBase + outboxID
			if _, err := tx.exec(ctx, setOutboxFields, string(records.FileOutbound(f.ID)), outboxID); err != nil {
				return err
			}
			if _, err := tx.exec(ctx, setWriteState, records.WritePending, "", f.Kind, f.RecordID); err != nil {
				return err
			}
			f.Write, result = records.WriteState{State: records.WritePending}, "queued for the ERP"
		} else if err := tx.queryRow(ctx, nextFileID, records.ProvisionalBase).Scan(&f.ID); err != nil {
			return err
		}
		if w.Idempotency != nil {
			if _, err := tx.exec(ctx, keyRecord, f.ID, w.By.UserID, w.Idempotency.Key); err != nil {
				return err
			}
		}
		if _, err := tx.exec(ctx, insertFile, f.ID, f.Kind, f.RecordID, f.Name, f.ContentType, f.Size,
			f.ModifiedAt.UnixMilli(), f.Content, f.Write.State); err != nil {
			return err
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: f.ModifiedAt, Event: records.EventFile, UserID: w.By.UserID, RoleID: w.By.RoleID,
			IP: w.By.IP, Kind: f.Kind, RecordID: f.RecordID,
			Detail: map[string]any{"changes": map[string]records.Change{"file": {After: f.Name}}, "result": result}}); err != nil {
			return err
		}
		var err error
		logged, err = tx.logEvents(ctx, events.RecordChange(f.Kind, events.ActionFile, []int64{f.RecordID}, w.By.UserID, f.ModifiedAt, f.Write.State))
		return err
	})
	t.announce(ctx, err == nil && logged)
	f.Content = nil
	return f, keepTyped(err, "add file")
}
