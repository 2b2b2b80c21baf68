package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
)

var insertAudit = scope(`INSERT INTO audit_log (tenant_id, at, event, user_id, role_id, ip, kind, record_id, detail)
	VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?)`)

// Audit appends an event to the tenant's audit log. Its id is the tenant's
// own next number, given by the database (migration 0013), never a count
// shared with other tenants. On PostgreSQL numbering locks the tenant's
// counter until the transaction ends, so a transaction writes its audit
// event last.
func (t *Tenant) Audit(ctx context.Context, e access.AuditEvent) error {
	detail, _ := json.Marshal(e.Detail)
	if e.Detail == nil {
		detail = []byte("{}")
	}
	_, err := t.exec(ctx, insertAudit, e.At.UnixMilli(), e.Event, nullID(e.UserID), nullID(e.RoleID), e.IP,
		nullString(e.Kind), nullID(e.RecordID), string(detail))
	return err
}

// AuditEvents returns the events f selects, newest first, with the names
// of their user and role.
func (t *Tenant) AuditEvents(ctx context.Context, f access.AuditFilter) ([]access.AuditEvent, error) {
	where, args := []string{"a.tenant_id = :tenant"}, []any{}
	if f.Event != "" {
		where, args = append(where, "a.event = ?"), append(args, f.Event)
	}
	if f.UserID != 0 {
		where, args = append(where, "a.user_id = ?"), append(args, f.UserID)
	}
	if f.Kind != "" {
		where, args = append(where, "a.kind = ?"), append(args, f.Kind)
	}
	if f.RecordID != 0 {
		where, args = append(where, "a.record_id = ?"), append(args, f.RecordID)
	}
	if f.Before != 0 {
		where, args = append(where, "a.id < ?"), append(args, f.Before)
	}
	if f.Limit < 1 || f.Limit > 500 {
		f.Limit = 500
	}
	st := scope(fmt.Sprintf(`SELECT a.id, a.at, a.event, a.user_id, a.role_id, a.ip, a.kind, a.record_id, a.detail,
		COALESCE(u.full_name, ''), COALESCE(r.name, '')
		FROM audit_log a
		LEFT JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
		LEFT JOIN roles r ON r.tenant_id = a.tenant_id AND r.id = a.role_id
		WHERE %s ORDER BY a.id DESC LIMIT %d`, strings.Join(where, " AND "), f.Limit))
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []access.AuditEvent{}
	for rows.Next() {
		var e access.AuditEvent
		var at int64
		var user, role, record sql.NullInt64
		var kind sql.NullString
		var detail []byte
		if err := rows.Scan(&e.ID, &at, &e.Event, &user, &role, &e.IP, &kind, &record, &detail, &e.User, &e.Role); err != nil {
			return nil, err
		}
		e.At, e.UserID, e.RoleID, e.Kind, e.RecordID = time.UnixMilli(at), user.Int64, role.Int64, kind.String, record.Int64
		json.Unmarshal(detail, &e.Detail)
		out = append(out, e)
	}
	return out, rows.Err()
}
