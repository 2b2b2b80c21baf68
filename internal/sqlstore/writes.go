package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/events"
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
	keptKey      = scope(`SELECT fingerprint, record_id FROM idempotency_keys WHERE tenant_id = :tenant AND user_id = ? AND key = ?`)
	keyRecord    = scope(`UPDATE idempotency_keys SET record_id = ? WHERE tenant_id = :tenant AND user_id = ? AND key = ?`)
	expireKeys   = scope(`DELETE FROM idempotency_keys WHERE tenant_id = :tenant AND created_at < ?`)
	insertRecord = scope(`INSERT INTO records (tenant_id, ` + recordColumns + `, write_state, write_error)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	updateRecord = scope(`UPDATE records SET title = ?, code = ?, status = ?, parent_id = ?, parent_name = ?,
		project_id = ?, project_name = ?, amount = ?, occurred_on = ?, modified_at = ?, fields = ?,
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
			if outboxID, err = tx.enqueue(ctx, r, w.Outbound); err != nil {
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
				r.ModifiedAt.UnixMilli(), string(r.Fields), r.Write.State, r.Write.Error); err != nil {
				return err
			}
		} else {
			res, err := tx.exec(ctx, updateRecord, r.Title, r.Code, r.Status, nullID(r.ParentID), r.ParentName,
				nullID(r.ProjectID), r.ProjectName, r.Amount, r.Date, r.ModifiedAt.UnixMilli(), string(r.Fields),
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
	if err := t.queryRow(ctx, keptKey, user, k.Key).Scan(&fingerprint, &id); err != nil {
		return err
	}
	if fingerprint != k.Fingerprint {
		return records.ErrKeyReused
	}
	return &records.Replayed{ID: id}
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
