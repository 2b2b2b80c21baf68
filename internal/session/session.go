// Package session issues, checks, rotates and revokes Portico's own session
// tokens, which the app holds after exchanging an identity token at sign-in.
//
// The access token is short-lived and self-contained (HMAC-signed), but
// every check also confirms its session is not revoked, so logout and
// refresh-token reuse take effect at once. The refresh token is opaque,
// stored only as a SHA-256 hash, and rotated on every use; presenting a
// used one again revokes the whole session (the token family).
package session

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Session is one sign-in: the family its refresh tokens belong to.
type Session struct {
	ID        string
	UserID    int64
	CreatedAt time.Time
	ExpiresAt time.Time // absolute end of the family
	RevokedAt time.Time // zero while active
}

// Store is what sessions need from the database, inside one tenant.
type Store interface {
	// CreateSession stores s with its first refresh token.
	CreateSession(ctx context.Context, s Session, refreshHash string, refreshExpires time.Time) error
	// RotateRefresh marks the token with oldHash used and stores newHash in
	// its family, atomically, returning the family. A token already used
	// revokes the family and returns a CodeUnauthenticated error; so does an
	// unknown, expired or revoked one.
	// Within ReuseGrace of the first use, a second use rotates again.
	RotateRefresh(ctx context.Context, oldHash, newHash string, newExpires, now time.Time) (Session, error)
	// Session returns a session, revoked or not, or a not-found error.
	Session(ctx context.Context, id string) (Session, error)
	// SessionOfRefresh returns the session a refresh token belongs to, or a
	// not-found error.
	SessionOfRefresh(ctx context.Context, hash string) (Session, error)
	// RevokeSession ends a session and all its refresh tokens.
	RevokeSession(ctx context.Context, id string, now time.Time) error
}

// Tokens is the pair the app holds.
type Tokens struct {
	Access         string
	AccessExpires  time.Time
	Refresh        string
	RefreshExpires time.Time
}

// Claims is what a valid access token says.
type Claims struct {
	Tenant    portal.TenantID `json:"t"`
	SessionID string          `json:"s"`
	UserID    int64           `json:"u"`
	Expires   int64           `json:"e"` // unix seconds
}

// Manager issues and checks tokens. Stores maps a tenant to its Store.
type Manager struct {
	key        []byte
	stores     func(portal.TenantID) Store
	accessTTL  time.Duration
	refreshTTL time.Duration
	maxAge     time.Duration
	now        func() time.Time
}

// Options configure a Manager.
type Options struct {
	Key        []byte        // HMAC key, at least 32 bytes, shared by every instance
	AccessTTL  time.Duration // life of an access token (minutes)
	RefreshTTL time.Duration // life of one refresh token (days); rotation renews it
	MaxAge     time.Duration // absolute life of a session, however often refreshed
	Now        func() time.Time
}

// NewManager builds a Manager.
func NewManager(stores func(portal.TenantID) Store, o Options) *Manager {
	if len(o.Key) < 32 {
		panic("session: the signing key must be at least 32 bytes")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Manager{key: o.Key, stores: stores, accessTTL: o.AccessTTL, refreshTTL: o.RefreshTTL, maxAge: o.MaxAge, now: o.Now}
}

var errExpired = portal.Errorf(portal.CodeUnauthenticated, "Your session has ended. Please sign in again.")

// Issue starts a session for a user and returns its first token pair.
func (m *Manager) Issue(ctx context.Context, tenant portal.TenantID, userID int64) (Tokens, Claims, error) {
	now := m.now()
	s := Session{ID: randomToken(16), UserID: userID, CreatedAt: now, ExpiresAt: now.Add(m.maxAge)}
	refresh, hash := m.newRefresh(tenant)
	refreshExp := minTime(now.Add(m.refreshTTL), s.ExpiresAt)
	if err := m.stores(tenant).CreateSession(ctx, s, hash, refreshExp); err != nil {
		return Tokens{}, Claims{}, err
	}
	c := Claims{Tenant: tenant, SessionID: s.ID, UserID: userID}
	return m.pair(c, refresh, refreshExp, s.ExpiresAt), c, nil
}

// Refresh rotates a refresh token into a new pair.
func (m *Manager) Refresh(ctx context.Context, refresh string) (Tokens, Claims, error) {
	tenant, ok := refreshTenant(refresh)
	if !ok {
		return Tokens{}, Claims{}, errExpired
	}
	now := m.now()
	next, nextHash := m.newRefresh(tenant)
	s, err := m.stores(tenant).RotateRefresh(ctx, hashToken(refresh), nextHash, now.Add(m.refreshTTL), now)
	if err != nil {
		return Tokens{}, Claims{}, err
	}
	c := Claims{Tenant: tenant, SessionID: s.ID, UserID: s.UserID}
	// The new refresh token's life is capped by the family's absolute end;
	// RotateRefresh stored the uncapped time, which the family check bounds.
	return m.pair(c, next, minTime(now.Add(m.refreshTTL), s.ExpiresAt), s.ExpiresAt), c, nil
}

// Authenticate checks an access token: signature, expiry, and that its
// session is still active. Any failure is CodeUnauthenticated (511).
func (m *Manager) Authenticate(ctx context.Context, access string) (Claims, error) {
	c, err := m.Verify(access)
	if err != nil {
		return Claims{}, err
	}
	s, err := m.stores(c.Tenant).Session(ctx, c.SessionID)
	if portal.IsNotFound(err) {
		return Claims{}, errExpired
	}
	if err != nil {
		return Claims{}, err
	}
	return c, m.Check(c, s)
}

// Verify checks an access token's signature and expiry, without the
// database; Check then takes its session, which a caller may have read
// together with other data (the request guard reads it with the user).
func (m *Manager) Verify(access string) (Claims, error) {
	c, ok := m.parse(access)
	if !ok || m.now().Unix() >= c.Expires {
		return Claims{}, errExpired
	}
	return c, nil
}

// Check accepts the session s of verified claims c when it is that
// session, still active, and the claims' user's; else CodeUnauthenticated.
func (m *Manager) Check(c Claims, s Session) error {
	if s.ID != c.SessionID || !s.RevokedAt.IsZero() || !m.now().Before(s.ExpiresAt) || s.UserID != c.UserID {
		return errExpired
	}
	return nil
}

// Revoke ends the session of c, and with it every token of its family.
func (m *Manager) Revoke(ctx context.Context, c Claims) error {
	return m.stores(c.Tenant).RevokeSession(ctx, c.SessionID, m.now())
}

// ClaimsOfRefresh finds the session of a refresh token without using it,
// so logout can end a session whose access token already expired.
func (m *Manager) ClaimsOfRefresh(ctx context.Context, refresh string) (Claims, bool) {
	tenant, ok := refreshTenant(refresh)
	if !ok {
		return Claims{}, false
	}
	sess, err := m.stores(tenant).SessionOfRefresh(ctx, hashToken(refresh))
	if err != nil {
		return Claims{}, false
	}
	return Claims{Tenant: tenant, SessionID: sess.ID, UserID: sess.UserID}, true
}

func (m *Manager) pair(c Claims, refresh string, refreshExp, sessionEnd time.Time) Tokens {
	exp := minTime(m.now().Add(m.accessTTL), sessionEnd)
	c.Expires = exp.Unix()
	return Tokens{Access: m.sign(c), AccessExpires: exp, Refresh: refresh, RefreshExpires: refreshExp}
}

// Access tokens are "pa1.<payload>.<mac>", base64url without padding.
const accessPrefix = "pa1."

func (m *Manager) sign(c Claims) string {
	payload, _ := json.Marshal(c)
	p := base64.RawURLEncoding.EncodeToString(payload)
	return accessPrefix + p + "." + base64.RawURLEncoding.EncodeToString(m.mac(p))
}

func (m *Manager) mac(payload string) []byte {
	h := hmac.New(sha256.New, m.key)
	h.Write([]byte(accessPrefix + payload))
	return h.Sum(nil)
}

func (m *Manager) parse(token string) (Claims, bool) {
	rest, ok := strings.CutPrefix(token, accessPrefix)
	if !ok || len(token) > 1024 {
		return Claims{}, false
	}
	p, sig, ok := strings.Cut(rest, ".")
	if !ok {
		return Claims{}, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, m.mac(p)) {
		return Claims{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(p)
	var c Claims
	if err != nil || json.Unmarshal(raw, &c) != nil || c.SessionID == "" || c.UserID <= 0 {
		return Claims{}, false
	}
	if _, err := portal.ParseTenantID(string(c.Tenant)); err != nil {
		return Claims{}, false
	}
	return c, true
}

// Refresh tokens are "pr1.<tenant>.<random>": the tenant is not secret and
// tells the server where to look; the random part is the secret.
const refreshPrefix = "pr1."

func (m *Manager) newRefresh(t portal.TenantID) (token, hash string) {
	token = refreshPrefix + string(t) + "." + randomToken(32)
	return token, hashToken(token)
}

func refreshTenant(token string) (portal.TenantID, bool) {
	rest, ok := strings.CutPrefix(token, refreshPrefix)
	if !ok || len(token) > 256 {
		return "", false
	}
	t, secret, ok := strings.Cut(rest, ".")
	if !ok || len(secret) < 32 {
		return "", false
	}
	id, err := portal.ParseTenantID(t)
	return id, err == nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// ReuseGrace is how long after its first use a refresh token may be used
// again without revoking its family: long enough for a client whose first
// answer was lost (a reload, a dropped connection) to retry, short enough
// that a token stolen later is still detected.
const ReuseGrace = 10 * time.Second

// ErrReused is the cause (logged, never shown) when a used refresh token is
// presented again and its family is revoked.
var ErrReused = errors.New("refresh token reused; session revoked")
