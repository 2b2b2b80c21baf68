package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

var putFile = scope(`INSERT INTO files (tenant_id, id, kind, record_id, name, content_type, size, modified_at, content)
	VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (tenant_id, id) DO UPDATE SET kind = excluded.kind, record_id = excluded.record_id,
	name = excluded.name, content_type = excluded.content_type, size = excluded.size,
	modified_at = excluded.modified_at, content = excluded.content`)

// PutFiles inserts or replaces attachments in one transaction. Size is taken
// from the content, never trusted from the caller.
func (t *Tenant) PutFiles(ctx context.Context, fs []records.File) error {
	return t.inTx(ctx, func(tx *Tenant) error {
		for _, f := range fs {
			if f.ID <= 0 || f.Name == "" || f.ContentType == "" {
				return portal.Errorf(portal.CodeInvalid, "file %d needs an id, a name and a content type", f.ID)
			}
			if _, err := tx.exec(ctx, putFile, f.ID, f.Kind, f.RecordID, f.Name, f.ContentType,
				int64(len(f.Content)), f.ModifiedAt.UnixMilli(), f.Content); err != nil {
				return fmt.Errorf("put file: %w", err)
			}
		}
		return nil
	})
}

var listFiles = scope(`SELECT id, kind, record_id, name, content_type, size, modified_at, write_state, write_error FROM files
	WHERE tenant_id = :tenant AND kind = ? AND record_id = ? ORDER BY name, id`)

// Files lists a record's attachments without their content, with the
// write state of those the portal added in ERP mode.
func (t *Tenant) Files(ctx context.Context, kind string, recordID int64) ([]records.File, error) {
	rows, err := t.query(ctx, listFiles, kind, recordID)
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	defer rows.Close()
	var out []records.File
	for rows.Next() {
		var f records.File
		var modified int64
		if err := rows.Scan(&f.ID, &f.Kind, &f.RecordID, &f.Name, &f.ContentType, &f.Size, &modified, &f.Write.State, &f.Write.Error); err != nil {
			return nil, err
		}
		f.ModifiedAt = time.UnixMilli(modified).UTC()
		out = append(out, f)
	}
	return out, rows.Err()
}

var getFile = scope(`SELECT id, kind, record_id, name, content_type, size, modified_at, content, write_state, write_error FROM files
	WHERE tenant_id = :tenant AND kind = ? AND record_id = ? AND id = ?`)

// File returns one attachment with its content, or a not-found error when
// the file does not belong to that record of this tenant.
func (t *Tenant) File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error) {
	var f records.File
	var modified int64
	err := t.queryRow(ctx, getFile, kind, recordID, fileID).
		Scan(&f.ID, &f.Kind, &f.RecordID, &f.Name, &f.ContentType, &f.Size, &modified, &f.Content, &f.Write.State, &f.Write.Error)
	if errors.Is(err, sql.ErrNoRows) {
		return f, portal.Errorf(portal.CodeNotFound, "No such file.")
	}
	f.ModifiedAt = time.UnixMilli(modified).UTC()
	return f, err
}

var countRecords = scope(`SELECT COUNT(*) FROM records WHERE tenant_id = :tenant AND kind = ?`)

// CountRecords returns how many records of a kind the tenant has. It scans
// an index: fine for seeding and tests, not for list pages.
func (t *Tenant) CountRecords(ctx context.Context, kind string) (int64, error) {
	var n int64
	err := t.queryRow(ctx, countRecords, kind).Scan(&n)
	return n, err
}
