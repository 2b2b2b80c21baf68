package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
)

const feedbackColumns = `f.id, f.at, f.user_id, COALESCE(u.full_name, ''), f.role_id, f.category, f.message, f.page,
	f.file_name, f.file_type, f.file_size, f.erp_state, f.erp_error`

var (
	insertFeedback = scope(`INSERT INTO feedback (tenant_id, at, user_id, role_id, category, message, page,
		file_name, file_type, file_size, file, erp_state, erp_error) VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING row_id`)
	// The tenant's own number of a submission, given by a trigger (see
	// migration 0013): SQLite's RETURNING does not see what a trigger set.
	feedbackNumber = scope(`SELECT id FROM feedback WHERE tenant_id = :tenant AND row_id = ?`)
	listFeedback   = scope(`SELECT ` + feedbackColumns + ` FROM feedback f
		LEFT JOIN users u ON u.tenant_id = f.tenant_id AND u.id = f.user_id
		WHERE f.tenant_id = :tenant ORDER BY f.id DESC LIMIT ?`)
	getFeedbackFile = scope(`SELECT file_name, file_type, file FROM feedback WHERE tenant_id = :tenant AND id = ? AND file IS NOT NULL`)
)

// PutFeedback stores a submission and returns its id, the tenant's own
// number for it (1, 2, 3, ...: nothing about other tenants' feedback).
func (t *Tenant) PutFeedback(ctx context.Context, s feedback.Submission) (int64, error) {
	var row, id int64
	var file any
	if s.File != nil {
		file = s.File
	}
	err := t.inTx(ctx, func(tx *Tenant) error {
		if err := tx.queryRow(ctx, insertFeedback, s.At.UnixMilli(), s.UserID, s.RoleID, s.Category, s.Message, s.Page,
			s.FileName, s.FileType, s.FileSize, file, s.ERPState, s.ERPError).Scan(&row); err != nil {
			return err
		}
		return tx.queryRow(ctx, feedbackNumber, row).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("store feedback: %w", err)
	}
	return id, nil
}

// Feedback returns the newest submissions first (without attachments).
func (t *Tenant) Feedback(ctx context.Context, limit int) ([]feedback.Submission, error) {
	rows, err := t.query(ctx, listFeedback, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []feedback.Submission{}
	for rows.Next() {
		var s feedback.Submission
		var at int64
		if err := rows.Scan(&s.ID, &at, &s.UserID, &s.User, &s.RoleID, &s.Category, &s.Message, &s.Page,
			&s.FileName, &s.FileType, &s.FileSize, &s.ERPState, &s.ERPError); err != nil {
			return nil, err
		}
		s.At = time.UnixMilli(at).UTC()
		out = append(out, s)
	}
	return out, rows.Err()
}

// FeedbackFile returns a submission's attachment: name, type, bytes.
func (t *Tenant) FeedbackFile(ctx context.Context, id int64) (feedback.Submission, error) {
	var s feedback.Submission
	err := t.queryRow(ctx, getFeedbackFile, id).Scan(&s.FileName, &s.FileType, &s.File)
	if errors.Is(err, sql.ErrNoRows) {
		return s, portal.Errorf(portal.CodeNotFound, "No such attachment.")
	}
	s.ID, s.FileSize = id, int64(len(s.File))
	return s, err
}
