package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

const listColumns = `id, kind, name, columns, filter, sort_field, sort_dir, visibility, role_id, owner_id, updated_at, report`

var (
	visibleLists = scope(`SELECT ` + listColumns + ` FROM list_configs WHERE tenant_id = :tenant AND kind = ? AND report IS NULL
		AND ((visibility = 'private' AND owner_id = ?) OR (visibility = 'role' AND role_id = ?)) ORDER BY name, id`)
	visibleReports = scope(`SELECT ` + listColumns + ` FROM list_configs WHERE tenant_id = :tenant AND report IS NOT NULL
		AND ((visibility = 'private' AND owner_id = ?) OR (visibility = 'role' AND role_id = ?)) ORDER BY name, id`)
	getList    = scope(`SELECT ` + listColumns + ` FROM list_configs WHERE tenant_id = :tenant AND id = ?`)
	upsertList = scope(`INSERT INTO list_configs (tenant_id, ` + listColumns + `) VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, id) DO UPDATE SET name = excluded.name, columns = excluded.columns, filter = excluded.filter,
		sort_field = excluded.sort_field, sort_dir = excluded.sort_dir, visibility = excluded.visibility,
		role_id = excluded.role_id, updated_at = excluded.updated_at, report = excluded.report`)
	deleteList = scope(`DELETE FROM list_configs WHERE tenant_id = :tenant AND id = ?`)
)

// VisibleLists returns the saved lists of a kind that a user working in a
// role may see: their private lists and those shared with the role.
func (t *Tenant) VisibleLists(ctx context.Context, kind string, userID, roleID int64) ([]records.ListConfig, error) {
	return t.lists(ctx, visibleLists, kind, userID, roleID)
}

// VisibleReports returns the reports (of every kind) that a user working
// in a role may see: their private ones and those shared with the role.
func (t *Tenant) VisibleReports(ctx context.Context, userID, roleID int64) ([]records.ListConfig, error) {
	return t.lists(ctx, visibleReports, userID, roleID)
}

func (t *Tenant) lists(ctx context.Context, st scoped, args ...any) ([]records.ListConfig, error) {
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("list configurations: %w", err)
	}
	defer rows.Close()
	var out []records.ListConfig
	for rows.Next() {
		l, err := scanList(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// List returns one saved list, or a not-found error.
func (t *Tenant) List(ctx context.Context, id string) (records.ListConfig, error) {
	l, err := scanList(t.queryRow(ctx, getList, id))
	if errors.Is(err, sql.ErrNoRows) {
		return l, portal.Errorf(portal.CodeNotFound, "No such saved list.")
	}
	return l, err
}

// PutList creates or replaces a saved list (owner and kind never change).
func (t *Tenant) PutList(ctx context.Context, l records.ListConfig) error {
	cols, _ := json.Marshal(l.Columns)
	var role any
	if l.Visibility == records.SharedRole {
		role = l.RoleID
	}
	var report any
	if l.Report != nil {
		b, _ := json.Marshal(l.Report)
		report = string(b)
	}
	if l.Visibility != records.SharedRole {
		_, err := t.exec(ctx, upsertList, l.ID, l.Kind, l.Name, string(cols), l.Filter, l.Sort.Field, l.Sort.Dir,
			string(l.Visibility), role, l.OwnerID, l.UpdatedAt.UnixMilli(), report)
		return err
	}
	// Shared with a role: that role's open streams are told (event log).
	var logged bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		if _, err := tx.exec(ctx, upsertList, l.ID, l.Kind, l.Name, string(cols), l.Filter, l.Sort.Field, l.Sort.Dir,
			string(l.Visibility), role, l.OwnerID, l.UpdatedAt.UnixMilli(), report); err != nil {
			return err
		}
		var err error
		logged, err = tx.logEvents(ctx, events.ListChange(l.Kind, l.Report != nil, l.RoleID, l.OwnerID, l.UpdatedAt))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}

// DeleteList removes a saved list.
func (t *Tenant) DeleteList(ctx context.Context, id string) error {
	_, err := t.exec(ctx, deleteList, id)
	return err
}

func scanList(s rowScanner) (records.ListConfig, error) {
	var l records.ListConfig
	var cols, vis string
	var role sql.NullInt64
	var updated int64
	var report sql.NullString
	err := s.Scan(&l.ID, &l.Kind, &l.Name, &cols, &l.Filter, &l.Sort.Field, &l.Sort.Dir, &vis, &role, &l.OwnerID, &updated, &report)
	if err != nil {
		return l, err
	}
	if report.Valid {
		l.Report = &records.ReportSpec{}
		if err := json.Unmarshal([]byte(report.String), l.Report); err != nil {
			return l, fmt.Errorf("report %s: %w", l.ID, err)
		}
	}
	l.Visibility, l.RoleID, l.UpdatedAt = records.Visibility(vis), role.Int64, time.UnixMilli(updated)
	return l, json.Unmarshal([]byte(cols), &l.Columns)
}
