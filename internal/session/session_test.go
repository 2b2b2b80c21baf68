package session

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
)

// memStore is a session.Store in memory: it records as the real store
// does (sqlstore's conformance suite runs the same policy on both engines).
type memStore struct {
	mu       sync.Mutex
	sessions map[string]Session
	tokens   map[string]RefreshToken
	reuses   []Reuse
}

func newMemStore() *memStore {
	return &memStore{sessions: map[string]Session{}, tokens: map[string]RefreshToken{}}
}

func (m *memStore) CreateSession(_ context.Context, s Session, hash string, exp time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions[s.ID] = s
	m.tokens[hash] = RefreshToken{Hash: hash, SessionID: s.ID, ExpiresAt: exp}
	return nil
}
func (m *memStore) RefreshToken(_ context.Context, hash string) (RefreshToken, Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rt, ok := m.tokens[hash]
	if !ok {
		return rt, Session{}, portal.Errorf(portal.CodeNotFound, "no")
	}
	return rt, m.sessions[rt.SessionID], nil
}
func (m *memStore) UseRefresh(_ context.Context, old string, next RefreshToken, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	rt, ok := m.tokens[old]
	if !ok || !rt.UsedAt.IsZero() {
		return false, nil
	}
	rt.UsedAt, rt.Successor = now, next.Hash
	m.tokens[old], m.tokens[next.Hash] = rt, next
	return true, nil
}
func (m *memStore) Session(_ context.Context, id string) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return s, portal.Errorf(portal.CodeNotFound, "no")
	}
	return s, nil
}
func (m *memStore) RevokeSession(_ context.Context, id string, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s.RevokedAt.IsZero() {
		s.RevokedAt = now
	}
	m.sessions[id] = s
	for h, rt := range m.tokens {
		if rt.SessionID == id {
			delete(m.tokens, h)
		}
	}
	return nil
}
func (m *memStore) RevokeReused(ctx context.Context, r Reuse) error {
	m.RevokeSession(ctx, r.SessionID, r.At)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reuses = append(m.reuses, r)
	return nil
}

// family counts a session's refresh tokens on record.
func (m *memStore) family(id string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, rt := range m.tokens {
		if rt.SessionID == id {
			n++
		}
	}
	return n
}

func TestAccessTokens(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	store := newMemStore()
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

func TestRefreshGraceAndReuse(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	store := newMemStore()
	m := NewManager(func(portal.TenantID) Store { return store }, Options{
		Key: []byte(strings.Repeat("s", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour, Now: clock,
	})
	ctx := context.Background()
	client := Client{IP: "192.0.2.7", UserAgent: "a\xffb" + strings.Repeat("x", 600)}
	first, c, err := m.Issue(ctx, "acme", 7)
	if err != nil {
		t.Fatal(err)
	}
	// Concurrent first uses: one successor between them.
	const n = 20
	got := make([]Tokens, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _, errs[i] = m.Refresh(ctx, first.Refresh, client) }()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i].Refresh != got[0].Refresh || got[i].Refresh == first.Refresh || !strings.HasPrefix(got[i].Refresh, "pr1.acme.") {
			t.Fatalf("refresh %d: %v (forked: %v)", i, errs[i], got[i].Refresh != got[0].Refresh)
		}
	}
	if f := store.family(c.SessionID); f != 2 {
		t.Fatalf("family of %d tokens, want 2", f)
	}
	if _, err := m.Authenticate(ctx, got[0].Access); err != nil {
		t.Fatalf("access token of the refresh: %v", err)
	}
	// A retry near the end of the grace window: still the same successor.
	advance(ReuseGrace)
	if again, _, err := m.Refresh(ctx, first.Refresh, client); err != nil || again.Refresh != got[0].Refresh {
		t.Fatalf("retry within grace: %v", err)
	}
	// After it: the family is revoked and the reuse recorded.
	advance(time.Second)
	if _, _, err := m.Refresh(ctx, first.Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated || !errors.Is(err, ErrReused) {
		t.Fatalf("reuse: %v", err)
	}
	if _, err := m.Authenticate(ctx, got[0].Access); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("access token after reuse: %v", err)
	}
	if _, _, err := m.Refresh(ctx, got[0].Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("successor after reuse: %v", err)
	}
	if len(store.reuses) != 1 {
		t.Fatalf("reuses recorded: %+v", store.reuses)
	}
	r := store.reuses[0]
	if r.SessionID != c.SessionID || r.UserID != 7 || r.Client.IP != "192.0.2.7" || len(r.Client.UserAgent) > maxUserAgent ||
		!strings.HasPrefix(r.Client.UserAgent, "abx") {
		t.Errorf("reuse = %+v", r)
	}
	// A revoked session refuses within the grace window too.
	second, c2, _ := m.Issue(ctx, "acme", 7)
	next, _, err := m.Refresh(ctx, second.Refresh, client)
	if err != nil {
		t.Fatal(err)
	}
	m.Revoke(ctx, c2)
	if _, _, err := m.Refresh(ctx, second.Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("retry of a revoked session: %v", err)
	}
	if _, _, err := m.Refresh(ctx, next.Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("successor of a revoked session: %v", err)
	}
	// An expired refresh token is refused, not rotated.
	third, _, _ := m.Issue(ctx, "acme", 7)
	advance(time.Hour)
	if _, _, err := m.Refresh(ctx, third.Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated {
		t.Errorf("expired refresh token: %v", err)
	}
	if len(store.reuses) != 1 {
		t.Errorf("only the reuse is recorded: %+v", store.reuses)
	}
}

// Verified tokens are remembered at most verifiedMax at a time; past that
// the memory is emptied, and every token still verifies, tampered ones
// still do not.
func TestVerifiedTokensAreBounded(t *testing.T) {
	m := NewManager(func(portal.TenantID) Store { return newMemStore() }, Options{Key: []byte(strings.Repeat("s", 32)), AccessTTL: time.Minute})
	first := m.sign(Claims{Tenant: "acme", SessionID: "s", UserID: 1, Expires: time.Now().Add(time.Hour).Unix()})
	for i := range verifiedMax + 10 {
		tok := m.sign(Claims{Tenant: "acme", SessionID: "s", UserID: int64(i + 1), Expires: time.Now().Add(time.Hour).Unix()})
		if c, err := m.Verify(tok); err != nil || c.UserID != int64(i+1) {
			t.Fatalf("token %d: %+v, %v", i, c, err)
		}
		if n := m.nverified.Load(); n > verifiedMax {
			t.Fatalf("%d tokens remembered", n)
		}
	}
	if _, err := m.Verify(first); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Verify(first[:len(first)-2] + "xx"); err == nil {
		t.Fatal("a tampered token verified")
	}
}
