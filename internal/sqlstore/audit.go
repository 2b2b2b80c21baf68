package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/portico/portico/internal/access"
)

var (
	insertAudit = scope(`INSERT INTO audit_log (tenant_id, at, event, user_id, ip, detail) VALUES (:tenant, ?, ?, ?, ?, ?)`)
	listAudit   = scope(`SELECT at, event, user_id, ip, detail FROM audit_log WHERE tenant_id = :tenant ORDER BY id DESC LIMIT ?`)
)

// Audit appends an event to the tenant's audit log.
func (t *Tenant) Audit(ctx context.Context, e access.AuditEvent) error {
	detail, _ := json.Marshal(e.Detail)
	if e.Detail == nil {
		detail = []byte("{}")
	}
	_, err := t.exec(ctx, insertAudit, e.At.UnixMilli(), e.Event, nullID(e.UserID), e.IP, string(detail))
	return err
}

// AuditLog returns the newest events first.
func (t *Tenant) AuditLog(ctx context.Context, limit int) ([]access.AuditEvent, error) {
	rows, err := t.query(ctx, listAudit, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []access.AuditEvent
	for rows.Next() {
		var e access.AuditEvent
		var at int64
		var user *int64
		var detail []byte
		if err := rows.Scan(&at, &e.Event, &user, &e.IP, &detail); err != nil {
			return nil, err
		}
		e.At = time.UnixMilli(at)
		if user != nil {
			e.UserID = *user
		}
		json.Unmarshal(detail, &e.Detail)
		out = append(out, e)
	}
	return out, rows.Err()
}
