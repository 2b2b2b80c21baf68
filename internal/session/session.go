// Package session issues, checks, rotates and revokes Portico's own session
// tokens, which the app holds after exchanging an identity token at sign-in.
//
// The access token is short-lived and self-contained (HMAC-signed), but
// every check also confirms its session is not revoked, so logout and
// refresh-token reuse take effect at once. The refresh token is opaque,
// stored only as a SHA-256 hash, and rotated on every use; presenting a
// used one again revokes the whole session (the token family).
//
// Every decision about a session is made here; the Store only records.
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
	"sync"
	"sync/atomic"
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

// RefreshToken is the record of one refresh token (never the token
// itself, only its hash).
type RefreshToken struct {
	Hash      string
	SessionID string
	ExpiresAt time.Time
	UsedAt    time.Time // zero until its first use
	Successor string    // hash of the token its first use issued; "" until used
}

// Reuse is a used refresh token presented again after the grace window:
// the client that presented it, for the audit log.
type Reuse struct {
	SessionID string
	UserID    int64
	At        time.Time
	Client    Client
}

// Client is who presents a refresh token: their address and user agent.
type Client struct {
	IP        string
	UserAgent string
}

// Store is what sessions need from the database, inside one tenant. It
// records; the Manager decides.
type Store interface {
	// CreateSession stores s with its first refresh token.
	CreateSession(ctx context.Context, s Session, refreshHash string, refreshExpires time.Time) error
	// RefreshToken returns the refresh token with the given hash and its
	// session, or a not-found error.
	RefreshToken(ctx context.Context, hash string) (RefreshToken, Session, error)
	// UseRefresh marks the token oldHash used at now with next as its
	// successor and stores next, atomically. It stores nothing and answers
	// false when that token is gone or was used already (a concurrent use
	// won).
	UseRefresh(ctx context.Context, oldHash string, next RefreshToken, now time.Time) (bool, error)
	// Session returns a session, revoked or not, or a not-found error.
	Session(ctx context.Context, id string) (Session, error)
	// RevokeSession ends a session and all its refresh tokens.
	RevokeSession(ctx context.Context, id string, now time.Time) error
	// RevokeReused ends the session r names, as RevokeSession does, and
	// writes r to the audit log (event refresh_reuse), atomically.
	RevokeReused(ctx context.Context, r Reuse) error
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
	// verified maps access tokens whose signature checked out to their
	// claims, in this process: every request presents its token, and a
	// token's claims depend only on it and the key, so each is parsed and
	// its HMAC computed once (4 % of a small list request's CPU). Expiry
	// is still checked on every use. At most verifiedMax are kept; when
	// more are, all are dropped. Only valid tokens are kept.
	verified  sync.Map // token -> Claims
	nverified atomic.Int64
}

const verifiedMax = 10_000

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

// Refresh rotates a refresh token into a new pair. Its first use issues
// the successor; a repeat within ReuseGrace of that (a client whose answer
// was lost, or concurrent refreshes from several tabs) answers the same
// successor, so a session never forks. A repeat after ReuseGrace means the
// token was copied: the whole family is revoked and the reuse audited with
// the client's address and user agent.
func (m *Manager) Refresh(ctx context.Context, refresh string, client Client) (Tokens, Claims, error) {
	tenant, ok := refreshTenant(refresh)
	if !ok {
		return Tokens{}, Claims{}, errExpired
	}
	store := m.stores(tenant)
	hash := hashToken(refresh)
	next := m.successor(refresh)
	nextHash := hashToken(next)
	// The second pass reads what a concurrent use that won recorded.
	for range 2 {
		rt, s, err := store.RefreshToken(ctx, hash)
		if portal.IsNotFound(err) {
			return Tokens{}, Claims{}, errExpired
		}
		if err != nil {
			return Tokens{}, Claims{}, err
		}
		now := m.now()
		c := Claims{Tenant: tenant, SessionID: s.ID, UserID: s.UserID}
		if !rt.UsedAt.IsZero() {
			if now.Sub(rt.UsedAt) > ReuseGrace {
				err := store.RevokeReused(ctx, Reuse{SessionID: s.ID, UserID: s.UserID, At: now, Client: client.bounded()})
				if err != nil {
					return Tokens{}, Claims{}, err
				}
				return Tokens{}, Claims{}, portal.Wrap(portal.CodeUnauthenticated, ErrReused, errExpired.Message)
			}
			// Within the grace window: the answer of the first use again.
			// A successor not derived from this token (none recorded) is
			// not one this client can be given.
			if rt.Successor != nextHash || !active(s, now) {
				return Tokens{}, Claims{}, errExpired
			}
			return m.pair(c, next, minTime(rt.UsedAt.Add(m.refreshTTL), s.ExpiresAt), s.ExpiresAt), c, nil
		}
		if !active(s, now) || !now.Before(rt.ExpiresAt) {
			return Tokens{}, Claims{}, errExpired
		}
		exp := minTime(now.Add(m.refreshTTL), s.ExpiresAt)
		used, err := store.UseRefresh(ctx, hash, RefreshToken{Hash: nextHash, SessionID: s.ID, ExpiresAt: exp}, now)
		if err != nil {
			return Tokens{}, Claims{}, err
		}
		if used {
			return m.pair(c, next, exp, s.ExpiresAt), c, nil
		}
	}
	return Tokens{}, Claims{}, errExpired
}

// active reports whether a session is neither revoked nor past its end.
func active(s Session, now time.Time) bool {
	return s.RevokedAt.IsZero() && now.Before(s.ExpiresAt)
}

// successor is the refresh token that replaces refresh on its first use.
// It is derived from refresh with the signing key, so every repeat of the
// same refresh (on any instance) yields the same successor without the
// store ever holding a token; only whoever holds refresh can derive it.
func (m *Manager) successor(refresh string) string {
	tenant, _ := refreshTenant(refresh)
	h := hmac.New(sha256.New, m.key)
	h.Write([]byte("successor:" + refresh))
	return refreshPrefix + string(tenant) + "." + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// maxUserAgent bounds the user agent kept in the audit log.
const maxUserAgent = 512

// bounded is c with a user agent of at most maxUserAgent bytes of valid
// UTF-8: the header is the client's to choose.
func (c Client) bounded() Client {
	if len(c.UserAgent) > maxUserAgent {
		c.UserAgent = c.UserAgent[:maxUserAgent]
	}
	c.UserAgent = strings.ToValidUTF8(c.UserAgent, "")
	return c
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
	c, ok := m.claimsOf(access)
	if !ok || m.now().Unix() >= c.Expires {
		return Claims{}, errExpired
	}
	return c, nil
}

// claimsOf is parse, through the verified tokens.
func (m *Manager) claimsOf(access string) (Claims, bool) {
	if c, ok := m.verified.Load(access); ok {
		return c.(Claims), true
	}
	c, ok := m.parse(access)
	if ok {
		if m.nverified.Add(1) > verifiedMax {
			m.verified.Clear()
			m.nverified.Store(1)
		}
		m.verified.Store(access, c)
	}
	return c, ok
}

// Check accepts the session s of verified claims c when it is that
// session, still active, and the claims' user's; else CodeUnauthenticated.
func (m *Manager) Check(c Claims, s Session) error {
	if s.ID != c.SessionID || !active(s, m.now()) || s.UserID != c.UserID {
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
	_, sess, err := m.stores(tenant).RefreshToken(ctx, hashToken(refresh))
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

// RefreshTenant is the tenant a refresh token was issued in, read from the
// token itself (no store call); false when it is not one of ours.
func RefreshTenant(token string) (portal.TenantID, bool) { return refreshTenant(token) }

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
// again without revoking its family, answering the same successor: long
// enough for a client whose first answer was lost (a reload, a dropped
// connection) to retry, short enough that a token stolen later is still
// detected.
const ReuseGrace = 10 * time.Second

// ErrReused is the cause (logged, never shown) when a used refresh token is
// presented again and its family is revoked.
var ErrReused = errors.New("refresh token reused; session revoked")
