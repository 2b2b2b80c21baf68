package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
)

var _ session.Store = (*Tenant)(nil)

var (
	insertSession = scope(`INSERT INTO sessions (tenant_id, id, user_id, created_at, expires_at) VALUES (:tenant, ?, ?, ?, ?)`)
	insertRefresh = scope(`INSERT INTO refresh_tokens (tenant_id, hash, session_id, expires_at) VALUES (:tenant, ?, ?, ?)`)
	getSession    = scope(`SELECT id, user_id, created_at, expires_at, revoked_at FROM sessions WHERE tenant_id = :tenant AND id = ?`)
	getRefresh    = scope(`SELECT r.session_id, r.expires_at, r.used_at, r.successor, s.user_id, s.created_at, s.expires_at, s.revoked_at
		FROM refresh_tokens r JOIN sessions s ON s.tenant_id = r.tenant_id AND s.id = r.session_id
		WHERE r.tenant_id = :tenant AND r.hash = ?`)
	useRefresh    = scope(`UPDATE refresh_tokens SET used_at = ?, successor = ? WHERE tenant_id = :tenant AND hash = ? AND used_at IS NULL`)
	revokeSession = scope(`UPDATE sessions SET revoked_at = ? WHERE tenant_id = :tenant AND id = ? AND revoked_at IS NULL`)
	dropRefreshes = scope(`DELETE FROM refresh_tokens WHERE tenant_id = :tenant AND session_id = ?`)
	sessionOwner  = scope(`SELECT user_id FROM sessions WHERE tenant_id = :tenant AND id = ?`)
	// anyLiveSession is 1 when the tenant has a session neither revoked nor expired at ?, else 0.
	anyLiveSession = scope(`SELECT COUNT(*) FROM (SELECT 1 FROM sessions
		WHERE tenant_id = :tenant AND revoked_at IS NULL AND expires_at > ? LIMIT 1) live`)
	// revokeLockedOut ends the sessions of users who may not sign in: disabled, or holding no role.
	revokeLockedOut = scope(`UPDATE sessions SET revoked_at = ? WHERE tenant_id = :tenant AND revoked_at IS NULL AND user_id IN (
		SELECT u.id FROM users u WHERE u.tenant_id = :tenant AND (u.disabled = ? OR NOT EXISTS (
			SELECT 1 FROM user_roles ur WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id)))`)
	dropRevokedRefreshes = scope(`DELETE FROM refresh_tokens WHERE tenant_id = :tenant AND session_id IN (
		SELECT id FROM sessions WHERE tenant_id = :tenant AND revoked_at = ?)`)
)

// CreateSession stores a session with its first refresh token.
func (t *Tenant) CreateSession(ctx context.Context, s session.Session, refreshHash string, refreshExpires time.Time) error {
	return t.inTx(ctx, func(tx *Tenant) error {
		if _, err := tx.exec(ctx, insertSession, s.ID, s.UserID, s.CreatedAt.UnixMilli(), s.ExpiresAt.UnixMilli()); err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		_, err := tx.exec(ctx, insertRefresh, refreshHash, s.ID, refreshExpires.UnixMilli())
		return err
	})
}

// Session returns a session or a not-found error.
func (t *Tenant) Session(ctx context.Context, id string) (session.Session, error) {
	var s session.Session
	var created, expires int64
	var revoked sql.NullInt64
	err := t.queryRow(ctx, getSession, id).Scan(&s.ID, &s.UserID, &created, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return s, portal.Errorf(portal.CodeNotFound, "No such session.")
	}
	if err != nil {
		return s, err
	}
	s.CreatedAt, s.ExpiresAt = time.UnixMilli(created), time.UnixMilli(expires)
	if revoked.Valid {
		s.RevokedAt = time.UnixMilli(revoked.Int64)
	}
	return s, nil
}

// RefreshToken returns a refresh token's record and its session, or a
// not-found error.
func (t *Tenant) RefreshToken(ctx context.Context, hash string) (session.RefreshToken, session.Session, error) {
	rt := session.RefreshToken{Hash: hash}
	var s session.Session
	var expires, created, sessionExpires int64
	var used, revoked sql.NullInt64
	var successor sql.NullString
	err := t.queryRow(ctx, getRefresh, hash).Scan(&rt.SessionID, &expires, &used, &successor,
		&s.UserID, &created, &sessionExpires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return rt, s, portal.Errorf(portal.CodeNotFound, "No such token.")
	}
	if err != nil {
		return rt, s, err
	}
	rt.ExpiresAt, rt.Successor = time.UnixMilli(expires), successor.String
	if used.Valid {
		rt.UsedAt = time.UnixMilli(used.Int64)
	}
	s.ID, s.CreatedAt, s.ExpiresAt = rt.SessionID, time.UnixMilli(created), time.UnixMilli(sessionExpires)
	if revoked.Valid {
		s.RevokedAt = time.UnixMilli(revoked.Int64)
	}
	return rt, s, nil
}

// UseRefresh records the first use of the token oldHash and stores its
// successor next, in one transaction; false, with nothing stored, when the
// token is gone or used already. Concurrent uses of one token serialise on
// its row: one marks it, the others find it marked.
func (t *Tenant) UseRefresh(ctx context.Context, oldHash string, next session.RefreshToken, now time.Time) (bool, error) {
	used := false
	err := t.inTx(ctx, func(tx *Tenant) error {
		res, err := tx.exec(ctx, useRefresh, now.UnixMilli(), next.Hash, oldHash)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n != 1 {
			return nil // gone, or a concurrent use marked it first
		}
		if _, err := tx.exec(ctx, insertRefresh, next.Hash, next.SessionID, next.ExpiresAt.UnixMilli()); err != nil {
			return fmt.Errorf("store refresh successor: %w", err)
		}
		used = true
		return nil
	})
	return used && err == nil, err
}

// RevokeSession ends a session and deletes its refresh tokens. Ending a
// session that was live also logs a session event for its user (see
// logSessionChange), so their open event streams end at once on every
// instance.
func (t *Tenant) RevokeSession(ctx context.Context, id string, now time.Time) error {
	var announce bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		user, ended, err := tx.revoke(ctx, id, now)
		if err == nil && ended {
			announce, err = tx.logSessionChange(ctx, user, now)
		}
		return err
	})
	t.announce(ctx, err == nil && announce)
	return err
}

// RevokeReused ends the session of a reused refresh token and writes the
// reuse to the audit log, in one transaction; like RevokeSession it ends
// the user's event streams.
func (t *Tenant) RevokeReused(ctx context.Context, r session.Reuse) error {
	var announce bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		_, ended, err := tx.revoke(ctx, r.SessionID, r.At)
		if err != nil {
			return err
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: r.At, Event: "refresh_reuse", UserID: r.UserID, IP: r.Client.IP,
			Detail: map[string]any{"session": r.SessionID, "userAgent": r.Client.UserAgent}}); err != nil {
			return err
		}
		if ended {
			announce, err = tx.logSessionChange(ctx, r.UserID, r.At)
		}
		return err
	})
	t.announce(ctx, err == nil && announce)
	return err
}

// revoke ends session id and drops its refresh tokens; ended says it was
// live until now, and user is whose it is.
func (t *Tenant) revoke(ctx context.Context, id string, now time.Time) (user int64, ended bool, err error) {
	res, err := t.exec(ctx, revokeSession, now.UnixMilli(), id)
	if err != nil {
		return 0, false, err
	}
	if _, err := t.exec(ctx, dropRefreshes, id); err != nil {
		return 0, false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, false, err
	}
	err = t.queryRow(ctx, sessionOwner, id).Scan(&user)
	return user, err == nil, err
}

// revokeLockedOut ends, inside an access import's transaction, every
// session of a user who may not sign in (disabled, or holding no role):
// taking access away ends the sessions it granted, and giving it back
// later does not revive them.
func (t *Tenant) revokeLockedOut(ctx context.Context, now time.Time) error {
	if _, err := t.exec(ctx, revokeLockedOut, now.UnixMilli(), true); err != nil {
		return fmt.Errorf("revoke sessions of users without access: %w", err)
	}
	_, err := t.exec(ctx, dropRevokedRefreshes, now.UnixMilli())
	return err
}
