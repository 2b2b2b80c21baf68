package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
)

// memStore is a session.Store in memory, for token-format tests only (the
// real store's rotation is covered by sqlstore's conformance suite).
type memStore struct{ sessions map[string]Session }

func (m *memStore) CreateSession(_ context.Context, s Session, _ string, _ time.Time) error {
	m.sessions[s.ID] = s
	return nil
}
func (m *memStore) RotateRefresh(context.Context, string, string, time.Time, time.Time) (Session, error) {
	return Session{}, portal.Errorf(portal.CodeUnauthenticated, "no")
}
func (m *memStore) Session(_ context.Context, id string) (Session, error) {
	s, ok := m.sessions[id]
	if !ok {
		return s, portal.Errorf(portal.CodeNotFound, "no")
	}
	return s, nil
}
func (m *memStore) SessionOfRefresh(context.Context, string) (Session, error) {
	return Session{}, portal.Errorf(portal.CodeNotFound, "no")
}
func (m *memStore) RevokeSession(_ context.Context, id string, now time.Time) error {
	s := m.sessions[id]
	s.RevokedAt = now
	m.sessions[id] = s
	return nil
}

func TestAccessTokens(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	store := &memStore{sessions: map[string]Session{}}
	m := NewManager(func(portal.TenantID) Store { return store }, Options{
		Key: []byte(strings.Repeat("s", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour,
		Now: func() time.Time { return now },
	})
	ctx := context.Background()
	tok, c, err := m.Issue(ctx, "acme", 7)
	if err != nil || c.UserID != 7 || !tok.AccessExpires.Equal(now.Add(15*time.Minute)) || !strings.HasPrefix(tok.Refresh, "pr1.acme.") {
		t.Fatalf("issue: %+v %+v %v", tok, c, err)
	}
	if got, err := m.Authenticate(ctx, tok.Access); err != nil || got.SessionID != c.SessionID {
		t.Fatalf("authenticate: %+v %v", got, err)
	}
	other := NewManager(func(portal.TenantID) Store { return store }, Options{Key: []byte(strings.Repeat("o", 32)), Now: func() time.Time { return now }})
	parts := strings.Split(tok.Access, ".")
	for name, bad := range map[string]string{
		"other key":        func() string { t2, _, _ := other.Issue(ctx, "acme", 7); return t2.Access }(),
		"tampered payload": parts[0] + "." + strings.ToUpper(parts[1]) + "." + parts[2],
		"no signature":     parts[0] + "." + parts[1],
		"empty":            "",
		"jwt":              "eyJhbGciOiJub25lIn0.e30.",
	} {
		if _, err := m.Authenticate(ctx, bad); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	now = now.Add(16 * time.Minute)
	if _, err := m.Authenticate(ctx, tok.Access); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("expired token: err = %v", err)
	}
	now = now.Add(-16 * time.Minute)
	m.Revoke(ctx, c)
	if _, err := m.Authenticate(ctx, tok.Access); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("revoked session: err = %v", err)
	}
	for _, bad := range []string{"", "pr1.", "pr1.acme.short", "pr1.BAD_TENANT." + strings.Repeat("x", 40), "xx1.acme." + strings.Repeat("x", 40)} {
		if _, ok := refreshTenant(bad); ok {
			t.Errorf("refresh token %q accepted", bad)
		}
	}
}
