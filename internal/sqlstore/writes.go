package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
	insertRecordAudit = scope(`INSERT INTO audit_log (tenant_id, at, event, user_id, role_id, ip, kind, record_id, detail)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?)`)
)

// SaveRecord implements records.WriteStore: in one transaction, it stores
// w.Record (a new id when w.Record.ID is 0; else only if the stored record
// is still at w.Base, or a conflict error) and its audit entry.
func (t *Tenant) SaveRecord(ctx context.Context, w records.Write) (records.Record, error) {
	r := w.Record
	err := t.inTx(ctx, func(tx *Tenant) error {
		event := "record_edit"
		if r.ID == 0 {
			event = "record_create"
			if err := tx.queryRow(ctx, nextRecordID, r.Kind).Scan(&r.ID); err != nil {
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
		detail, _ := json.Marshal(map[string]any{"changes": w.Changes, "result": w.Result})
		_, err := tx.exec(ctx, insertRecordAudit, r.ModifiedAt.UnixMilli(), event, nullID(w.By.UserID), nullID(w.By.RoleID),
			w.By.IP, r.Kind, r.ID, string(detail))
		return err
	})
	if err != nil {
		if errors.Is(err, records.ErrChanged) {
			return r, err
		}
		return r, fmt.Errorf("save record: %w", err)
	}
	return r, nil
}

var listRecordHistory = scope(`SELECT a.at, a.event, COALESCE(u.full_name, ''), COALESCE(r.name, ''), a.detail
	FROM audit_log a
	LEFT JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
	LEFT JOIN roles r ON r.tenant_id = a.tenant_id AND r.id = a.role_id
	WHERE a.tenant_id = :tenant AND a.kind = ? AND a.record_id = ? ORDER BY a.id DESC LIMIT ?`)

// RecordHistory returns a record's audit entries (creates and edits),
// newest first, at most limit.
func (t *Tenant) RecordHistory(ctx context.Context, kind string, id int64, limit int) ([]records.HistoryEntry, error) {
	rows, err := t.query(ctx, listRecordHistory, kind, id, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []records.HistoryEntry{}
	for rows.Next() {
		var h records.HistoryEntry
		var at int64
		var detail []byte
		if err := rows.Scan(&at, &h.Event, &h.User, &h.Role, &detail); err != nil {
			return nil, err
		}
		h.At = time.UnixMilli(at).UTC()
		var d struct {
			Changes map[string]records.Change
			Result  string
		}
		json.Unmarshal(detail, &d)
		h.Changes, h.Result = d.Changes, d.Result
		out = append(out, h)
	}
	return out, rows.Err()
}
