package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
)

var _ session.Store = (*Tenant)(nil)

var (
	insertSession = scope(`INSERT INTO sessions (tenant_id, id, user_id, created_at, expires_at) VALUES (:tenant, ?, ?, ?, ?)`)
	insertRefresh = scope(`INSERT INTO refresh_tokens (tenant_id, hash, session_id, expires_at) VALUES (:tenant, ?, ?, ?)`)
	getSession    = scope(`SELECT id, user_id, created_at, expires_at, revoked_at FROM sessions WHERE tenant_id = :tenant AND id = ?`)
	getRefresh    = scope(`SELECT session_id, expires_at, used_at FROM refresh_tokens WHERE tenant_id = :tenant AND hash = ?`)
	useRefresh    = scope(`UPDATE refresh_tokens SET used_at = ? WHERE tenant_id = :tenant AND hash = ? AND used_at IS NULL`)
	revokeSession = scope(`UPDATE sessions SET revoked_at = ? WHERE tenant_id = :tenant AND id = ? AND revoked_at IS NULL`)
	dropRefreshes = scope(`DELETE FROM refresh_tokens WHERE tenant_id = :tenant AND session_id = ?`)
)

var errSessionEnded = portal.Errorf(portal.CodeUnauthenticated, "Your session has ended. Please sign in again.")

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

// SessionOfRefresh returns the session of a refresh token.
func (t *Tenant) SessionOfRefresh(ctx context.Context, hash string) (session.Session, error) {
	var sid string
	var expires int64
	var used sql.NullInt64
	err := t.queryRow(ctx, getRefresh, hash).Scan(&sid, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return session.Session{}, portal.Errorf(portal.CodeNotFound, "No such token.")
	}
	if err != nil {
		return session.Session{}, err
	}
	return t.Session(ctx, sid)
}

// RotateRefresh implements session.Store: one use per refresh token; a
// second use revokes the family (it means the token was stolen, or the
// legitimate holder lost a race with a thief — either way, sign in again).
// Within session.ReuseGrace of the first use, a second use rotates again
// instead: that is a client whose answer to the first was lost.
func (t *Tenant) RotateRefresh(ctx context.Context, oldHash, newHash string, newExpires, now time.Time) (session.Session, error) {
	var out session.Session
	reused := false
	err := t.inTx(ctx, func(tx *Tenant) error {
		var sid string
		var expires int64
		var used sql.NullInt64
		err := tx.queryRow(ctx, getRefresh, oldHash).Scan(&sid, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) {
			return errSessionEnded
		}
		if err != nil {
			return err
		}
		s, err := tx.Session(ctx, sid)
		if err != nil {
			return err
		}
		if used.Valid && now.Sub(time.UnixMilli(used.Int64)) > session.ReuseGrace {
			reused = true
			if err := tx.revoke(ctx, sid, now); err != nil {
				return err
			}
			return nil
		}
		if !s.RevokedAt.IsZero() || now.UnixMilli() >= expires || !now.Before(s.ExpiresAt) {
			return errSessionEnded
		}
		if !used.Valid {
			res, err := tx.exec(ctx, useRefresh, now.UnixMilli(), oldHash)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return errSessionEnded // a concurrent rotation won
			}
		}
		if newExpires.After(s.ExpiresAt) {
			newExpires = s.ExpiresAt
		}
		if _, err := tx.exec(ctx, insertRefresh, newHash, sid, newExpires.UnixMilli()); err != nil {
			return err
		}
		out = s
		return nil
	})
	if err == nil && reused {
		// Committed the revocation; now refuse.
		return out, portal.Wrap(portal.CodeUnauthenticated, session.ErrReused, errSessionEnded.Message)
	}
	return out, err
}

// RevokeSession ends a session and deletes its refresh tokens.
func (t *Tenant) RevokeSession(ctx context.Context, id string, now time.Time) error {
	return t.inTx(ctx, func(tx *Tenant) error { return tx.revoke(ctx, id, now) })
}

func (t *Tenant) revoke(ctx context.Context, id string, now time.Time) error {
	if _, err := t.exec(ctx, revokeSession, now.UnixMilli(), id); err != nil {
		return err
	}
	_, err := t.exec(ctx, dropRefreshes, id)
	return err
}
