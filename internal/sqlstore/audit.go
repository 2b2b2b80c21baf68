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

var (
	auditUsers = scope(`SELECT id, full_name, email FROM users WHERE tenant_id = :tenant ORDER BY full_name, id`)
	roleNames  = scope(`SELECT id, name FROM roles WHERE tenant_id = :tenant`)
)

// AuditUsers returns the tenant's users, by name: whom the audit log can
// be narrowed to.
func (t *Tenant) AuditUsers(ctx context.Context) ([]access.User, error) {
	rows, err := t.query(ctx, auditUsers)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []access.User{}
	for rows.Next() {
		var u access.User
		if err := rows.Scan(&u.ID, &u.FullName, &u.Email); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// AuditEvents returns the events f selects, newest first, with the names
// of their user and role, of the record they are about (as the replica
// has it now), and of the roles their detail names by id (a sign-in's
// role, a role switch's from and to).
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
		COALESCE(u.full_name, ''), COALESCE(r.name, ''), COALESCE(rec.title, '')
		FROM audit_log a
		LEFT JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
		LEFT JOIN roles r ON r.tenant_id = a.tenant_id AND r.id = a.role_id
		LEFT JOIN records rec ON rec.tenant_id = a.tenant_id AND rec.kind = a.kind AND rec.id = a.record_id
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
		if err := rows.Scan(&e.ID, &at, &e.Event, &user, &role, &e.IP, &kind, &record, &detail, &e.User, &e.Role, &e.Record); err != nil {
			return nil, err
		}
		e.At, e.UserID, e.RoleID, e.Kind, e.RecordID = time.UnixMilli(at), user.Int64, role.Int64, kind.String, record.Int64
		json.Unmarshal(detail, &e.Detail)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, t.nameDetailRoles(ctx, out)
}

// nameDetailRoles fills DetailNames of the events whose detail names
// roles by id, from one read of the tenant's roles (a short table), and
// only when some event does.
func (t *Tenant) nameDetailRoles(ctx context.Context, events []access.AuditEvent) error {
	var names map[int64]string
	for i, e := range events {
		for _, key := range access.DetailRoleKeys {
			id, ok := e.Detail[key].(float64) // a JSON number
			if !ok || id <= 0 {
				continue
			}
			if names == nil {
				var err error
				if names, err = t.roleNames(ctx); err != nil {
					return err
				}
			}
			if name, ok := names[int64(id)]; ok {
				if events[i].DetailNames == nil {
					events[i].DetailNames = map[string]string{}
				}
				events[i].DetailNames[key] = name
			}
		}
	}
	return nil
}

func (t *Tenant) roleNames(ctx context.Context) (map[int64]string, error) {
	rows, err := t.query(ctx, roleNames)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		out[id] = name
	}
	return out, rows.Err()
}
