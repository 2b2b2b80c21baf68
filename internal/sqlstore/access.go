package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/session"
)

var _ access.Store = (*Tenant)(nil)

// userWithRoles reads a user and their roles in one round trip (one row
// per role, or one row of NULL role columns for a user without roles): it
// runs on every authenticated request.
const (
	userColumns = `u.id, u.uid, u.email, u.full_name, u.disabled,
		r.id, r.key, r.name, r.type, r.layout_id, r.permissions, r.rules`
	userJoins = `LEFT JOIN user_roles ur ON ur.tenant_id = u.tenant_id AND ur.user_id = u.id
	LEFT JOIN roles r ON r.tenant_id = ur.tenant_id AND r.id = ur.role_id`
	userWithRoles = `SELECT ` + userColumns + ` FROM users u ` + userJoins + ` WHERE u.tenant_id = :tenant AND `
)

var (
	userByUID   = scope(userWithRoles + `u.uid = ? ORDER BY ur.position`)
	userByEmail = scope(userWithRoles + `u.email = ? ORDER BY ur.position`)
	userByID    = scope(userWithRoles + `u.id = ? ORDER BY ur.position`)
	// sessionUser is the request guard's one round trip: the session and
	// its user with roles.
	sessionUser = scope(`SELECT s.id, s.user_id, s.created_at, s.expires_at, s.revoked_at, ` + userColumns + `
	FROM sessions s JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id ` + userJoins + `
	WHERE s.tenant_id = :tenant AND s.id = ? ORDER BY ur.position`)
	setUserUID = scope(`UPDATE users SET uid = ? WHERE tenant_id = :tenant AND id = ? AND uid IS NULL`)
	getLayout  = scope(`SELECT id, name, items FROM layouts WHERE tenant_id = :tenant AND id = ?`)
)

// UserByUID returns the user linked to an identity uid, with roles.
func (t *Tenant) UserByUID(ctx context.Context, uid string) (access.User, error) {
	return t.user(ctx, userByUID, uid)
}

// UserByEmail returns the user with a (lower-case) email, with roles.
func (t *Tenant) UserByEmail(ctx context.Context, email string) (access.User, error) {
	return t.user(ctx, userByEmail, strings.ToLower(email))
}

// UserByID returns a user with roles.
func (t *Tenant) UserByID(ctx context.Context, id int64) (access.User, error) {
	return t.user(ctx, userByID, id)
}

func (t *Tenant) user(ctx context.Context, st scoped, arg any) (access.User, error) {
	u, _, err := t.userRows(ctx, st, arg, false)
	return u, err
}

// SessionUser returns a session and its user with roles, in one query; a
// not-found error when either is gone.
func (t *Tenant) SessionUser(ctx context.Context, sessionID string) (session.Session, access.User, error) {
	u, s, err := t.userRows(ctx, sessionUser, sessionID, true)
	return s, u, err
}

// userRows scans a user-with-roles query, whose rows lead with the
// session's columns when withSession.
func (t *Tenant) userRows(ctx context.Context, st scoped, arg any, withSession bool) (access.User, session.Session, error) {
	var u access.User
	var s session.Session
	rows, err := t.query(ctx, st, arg)
	if err != nil {
		return u, s, fmt.Errorf("load user: %w", err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		found = true
		var uid, key, name, typ, layout, perms, rules sql.NullString
		var roleID sql.NullInt64
		dest := []any{&u.ID, &uid, &u.Email, &u.FullName, &u.Disabled, &roleID, &key, &name, &typ, &layout, &perms, &rules}
		var created, expires int64
		var revoked sql.NullInt64
		if withSession {
			dest = append([]any{&s.ID, &s.UserID, &created, &expires, &revoked}, dest...)
		}
		if err := rows.Scan(dest...); err != nil {
			return u, s, err
		}
		s.CreatedAt, s.ExpiresAt = time.UnixMilli(created), time.UnixMilli(expires)
		if revoked.Valid {
			s.RevokedAt = time.UnixMilli(revoked.Int64)
		}
		u.UID = uid.String
		if !roleID.Valid {
			continue
		}
		r := access.Role{ID: roleID.Int64, Key: key.String, Name: name.String, Type: typ.String, Layout: layout.String}
		if err := json.Unmarshal([]byte(perms.String), &r.Permissions); err != nil {
			return u, s, fmt.Errorf("role %d permissions: %w", r.ID, err)
		}
		if err := unmarshalRules(rules.String, &r); err != nil {
			return u, s, err
		}
		u.Roles = append(u.Roles, r)
	}
	if err := rows.Err(); err != nil {
		return u, s, err
	}
	if !found {
		return u, s, portal.Errorf(portal.CodeNotFound, "No such user.")
	}
	return u, s, nil
}

// unmarshalRules reads a role's rules column into r.Rules (nil when it
// has none).
func unmarshalRules(text string, r *access.Role) error {
	if text == "" || text == "{}" {
		return nil
	}
	if err := json.Unmarshal([]byte(text), &r.Rules); err != nil {
		return fmt.Errorf("role %d rules: %w", r.ID, err)
	}
	return nil
}

// SetUserUID links a user to an identity uid, once: a user already linked
// keeps their uid.
func (t *Tenant) SetUserUID(ctx context.Context, userID int64, uid string) error {
	_, err := t.exec(ctx, setUserUID, uid, userID)
	return err
}

// Layout returns a layout, or a not-found error.
func (t *Tenant) Layout(ctx context.Context, id string) (access.Layout, error) {
	var l access.Layout
	var items []byte
	err := t.queryRow(ctx, getLayout, id).Scan(&l.ID, &l.Name, &items)
	if errors.Is(err, sql.ErrNoRows) {
		return l, portal.Errorf(portal.CodeNotFound, "No such layout.")
	}
	if err != nil {
		return l, err
	}
	return l, json.Unmarshal(items, &l.Items)
}

var (
	clearUserRoles = scope(`DELETE FROM user_roles WHERE tenant_id = :tenant`)
	clearRoles     = scope(`DELETE FROM roles WHERE tenant_id = :tenant`)
	clearLayouts   = scope(`DELETE FROM layouts WHERE tenant_id = :tenant`)
	insertLayout   = scope(`INSERT INTO layouts (tenant_id, id, name, items) VALUES (:tenant, ?, ?, ?)`)
	insertRole     = scope(`INSERT INTO roles (tenant_id, id, key, name, type, layout_id, permissions, rules) VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?)`)
	upsertUser     = scope(`INSERT INTO users (tenant_id, id, email, full_name, disabled) VALUES (:tenant, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, id) DO UPDATE SET email = excluded.email, full_name = excluded.full_name, disabled = excluded.disabled`)
	userIDByEmail  = scope(`SELECT id FROM users WHERE tenant_id = :tenant AND email = ? AND id <> ?`)
	insertUserRole = scope(`INSERT INTO user_roles (tenant_id, user_id, role_id, position) VALUES (:tenant, ?, ?, ?)`)
	tenantName     = scope(`SELECT name FROM tenants WHERE id = :tenant`)
	allLayouts     = scope(`SELECT id, name, items FROM layouts WHERE tenant_id = :tenant ORDER BY id`)
	allRoles       = scope(`SELECT id, key, name, type, layout_id, permissions, rules FROM roles WHERE tenant_id = :tenant ORDER BY id`)
	allUsers       = scope(`SELECT id, email, full_name, disabled FROM users WHERE tenant_id = :tenant ORDER BY id`)
	allUserRoles   = scope(`SELECT user_id, role_id FROM user_roles WHERE tenant_id = :tenant ORDER BY user_id, position`)
)

// ImportAccess replaces the tenant's layouts, roles and role grants with
// those of f, in one transaction, and creates or updates its users. Users
// missing from the file are kept (their uid links and audit history stay
// meaningful) but lose every role. A user the import disables or leaves
// without a role has their sessions revoked in the same transaction, so
// they end at once and stay ended should access be given back. When
// anyone is signed in, the import also logs a session event for every
// user (see logSessionChange):
// every open event stream of the tenant, on every instance, checks its
// session again at once, and those of users it disabled, locked out or
// took the stream's role from end.
func (t *Tenant) ImportAccess(ctx context.Context, f access.File) error {
	if err := f.Validate(); err != nil {
		return portal.Wrap(portal.CodeInvalid, err, err.Error())
	}
	if err := records.CheckRules(f.Roles); err != nil {
		return err
	}
	var announce bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		var err error
		announce, err = tx.importAccess(ctx, f)
		return err
	})
	t.announce(ctx, err == nil && announce)
	return err
}

// lockAccess takes the tenant's row for the transaction: the imports of
// one tenant run one after the other (PostgreSQL; SQLite's one writer
// does so anyway).
var lockAccess = scope(`UPDATE tenants SET name = name WHERE id = :tenant`)

// ReplaceAccess is ImportAccess provided the tenant's setup is still the
// one of version (access.Version of its export) once the transaction
// holds the tenant's row: else access.ErrStale and no change. Two
// administrators saving at once: the second waits for the first, then
// finds its version gone.
func (t *Tenant) ReplaceAccess(ctx context.Context, f access.File, version string) (before, after access.File, err error) {
	if err := f.Validate(); err != nil {
		return before, after, portal.Wrap(portal.CodeInvalid, err, err.Error())
	}
	if err := records.CheckRules(f.Roles); err != nil {
		return before, after, err
	}
	var announce bool
	err = t.inTx(ctx, func(tx *Tenant) error {
		if _, err := tx.exec(ctx, lockAccess); err != nil {
			return err
		}
		var err error
		if before, err = tx.ExportAccess(ctx); err != nil {
			return err
		}
		if access.Version(before) != version {
			return access.ErrStale
		}
		if announce, err = tx.importAccess(ctx, f); err != nil {
			return err
		}
		after, err = tx.ExportAccess(ctx)
		return err
	})
	t.announce(ctx, err == nil && announce)
	return before, after, err
}

// importAccess is ImportAccess's transaction: whether to announce a
// session event once committed.
func (t *Tenant) importAccess(ctx context.Context, f access.File) (announce bool, err error) {
	tx := t
	now := time.Now()
	var live int64 // whether anyone is signed in: else no stream is open
	if err := tx.queryRow(ctx, anyLiveSession, now.UnixMilli()).Scan(&live); err != nil {
		return false, err
	}
	for _, st := range []scoped{clearUserRoles, clearRoles, clearLayouts} {
		if _, err := tx.exec(ctx, st); err != nil {
			return false, err
		}
	}
	for _, l := range f.Layouts {
		items, _ := json.Marshal(nonNil(l.Items))
		if _, err := tx.exec(ctx, insertLayout, l.ID, l.Name, string(items)); err != nil {
			return false, fmt.Errorf("layout %s: %w", l.ID, err)
		}
	}
	for _, r := range f.Roles {
		perms, _ := json.Marshal(nonNil(r.Permissions))
		rules := []byte("{}")
		if len(r.Rules) > 0 {
			rules, _ = json.Marshal(r.Rules)
		}
		if _, err := tx.exec(ctx, insertRole, r.ID, r.Key, r.Name, r.Type, nullString(r.Layout), string(perms), string(rules)); err != nil {
			return false, fmt.Errorf("role %d: %w", r.ID, err)
		}
	}
	inFile := make(map[int64]bool, len(f.Users))
	for _, u := range f.Users {
		inFile[u.ID] = true
	}
	for i, u := range f.Users {
		// An address held by a user the file leaves out (kept, with no
		// role) is the user's mistake, not the database's.
		var other int64
		err := tx.queryRow(ctx, userIDByEmail, strings.ToLower(u.Email), u.ID).Scan(&other)
		if err == nil && !inFile[other] {
			msg := fmt.Sprintf("%s already belongs to user %d, who is not in the file: give that user's entry this address, or use another", u.Email, other)
			return false, portal.Invalid(msg, portal.FieldError{Field: fmt.Sprintf("users[%d].email", i), Message: msg})
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
		if _, err := tx.exec(ctx, upsertUser, u.ID, strings.ToLower(u.Email), u.FullName, u.Disabled); err != nil {
			return false, fmt.Errorf("user %s: %w", u.Email, err)
		}
		for i, r := range u.Roles {
			if _, err := tx.exec(ctx, insertUserRole, u.ID, r, i); err != nil {
				return false, fmt.Errorf("user %s role %d: %w", u.Email, r, err)
			}
		}
	}
	if err := tx.revokeLockedOut(ctx, now); err != nil || live == 0 {
		return false, err
	}
	return tx.logSessionChange(ctx, 0, now)
}

// ExportAccess returns the tenant's access setup as a File.
func (t *Tenant) ExportAccess(ctx context.Context) (access.File, error) {
	f := access.File{Tenant: string(t.id)}
	if err := t.queryRow(ctx, tenantName).Scan(&f.Name); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return f, err
	}
	rows, err := t.query(ctx, allLayouts)
	if err != nil {
		return f, err
	}
	for rows.Next() {
		var l access.Layout
		var items []byte
		if err := rows.Scan(&l.ID, &l.Name, &items); err != nil {
			rows.Close()
			return f, err
		}
		if err := json.Unmarshal(items, &l.Items); err != nil {
			rows.Close()
			return f, err
		}
		f.Layouts = append(f.Layouts, l)
	}
	rows.Close()
	if rows, err = t.query(ctx, allRoles); err != nil {
		return f, err
	}
	for rows.Next() {
		var r access.Role
		var layout sql.NullString
		var perms, rules string
		if err := rows.Scan(&r.ID, &r.Key, &r.Name, &r.Type, &layout, &perms, &rules); err != nil {
			rows.Close()
			return f, err
		}
		r.Layout = layout.String
		json.Unmarshal([]byte(perms), &r.Permissions)
		if err := unmarshalRules(rules, &r); err != nil {
			rows.Close()
			return f, err
		}
		f.Roles = append(f.Roles, r)
	}
	rows.Close()
	if rows, err = t.query(ctx, allUsers); err != nil {
		return f, err
	}
	index := map[int64]int{}
	for rows.Next() {
		var u access.FileUser
		if err := rows.Scan(&u.ID, &u.Email, &u.FullName, &u.Disabled); err != nil {
			rows.Close()
			return f, err
		}
		u.Roles = []int64{}
		index[u.ID] = len(f.Users)
		f.Users = append(f.Users, u)
	}
	rows.Close()
	if rows, err = t.query(ctx, allUserRoles); err != nil {
		return f, err
	}
	defer rows.Close()
	for rows.Next() {
		var uid, rid int64
		if err := rows.Scan(&uid, &rid); err != nil {
			return f, err
		}
		if i, ok := index[uid]; ok {
			f.Users[i].Roles = append(f.Users[i].Roles, rid)
		}
	}
	return f, rows.Err()
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
