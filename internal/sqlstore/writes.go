package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/records"
)

var (
	nextRecordID = scope(`SELECT COALESCE(MAX(id), 0) + 1 FROM records WHERE tenant_id = :tenant AND kind = ?`)
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
	err := t.inTx(ctx, func(tx *Tenant) error {
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
			} else if err := tx.queryRow(ctx, nextRecordID, r.Kind).Scan(&r.ID); err != nil {
				return err
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
		return tx.Audit(ctx, access.AuditEvent{At: r.ModifiedAt, Event: event, UserID: w.By.UserID, RoleID: w.By.RoleID,
			IP: w.By.IP, Kind: r.Kind, RecordID: r.ID, Detail: map[string]any{"changes": w.Changes, "result": w.Result}})
	})
	if err != nil {
		if errors.Is(err, records.ErrChanged) {
			return r, err
		}
		return r, fmt.Errorf("save record: %w", err)
	}
	return r, nil
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
