package sqlstore

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
)

// sessionManager is a session.Manager over s with a clock the test moves.
func sessionManager(s *Store, now *time.Time, mu *sync.Mutex) *session.Manager {
	return session.NewManager(func(t portal.TenantID) session.Store { return s.Tenant(t) }, session.Options{
		Key: []byte(strings.Repeat("k", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour,
		Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return *now },
	})
}

var client = session.Client{IP: "192.0.2.7", UserAgent: "Portico-Test/1.0"}

// familySize counts the refresh tokens a session has on record.
func familySize(t *testing.T, s *Store, tenant portal.TenantID, sessionID string) int {
	t.Helper()
	var n int
	err := s.db.QueryRowContext(context.Background(), s.d.rebind(
		`SELECT COUNT(*) FROM refresh_tokens WHERE tenant_id = ? AND session_id = ?`), string(tenant), sessionID).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Finding 5 of issue 17: concurrent refreshes of one token within the
// grace window must not fork the session.
func TestConformanceRefreshGraceReturnsTheSameSuccessor(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		seedTenant(t, s, "acme")
		var mu sync.Mutex
		now := time.UnixMilli(1_800_000_000_000)
		m := sessionManager(s, &now, &mu)
		first, c, err := m.Issue(ctx, "acme", 1)
		if err != nil {
			t.Fatal(err)
		}
		const n = 20
		got := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tok, _, err := m.Refresh(ctx, first.Refresh, client)
				got[i], errs[i] = tok.Refresh, err
			}()
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("refresh %d: %v", i, errs[i])
			}
			if got[i] != got[0] || got[i] == first.Refresh {
				t.Fatalf("refresh %d answered %q, refresh 0 %q: the session forked", i, got[i], got[0])
			}
		}
		if size := familySize(t, s, "acme", c.SessionID); size != 2 {
			t.Errorf("family has %d refresh tokens, want the first and one successor", size)
		}
		// A retry later within the grace window gets the same successor too.
		mu.Lock()
		now = now.Add(session.ReuseGrace - time.Second)
		mu.Unlock()
		if tok, _, err := m.Refresh(ctx, first.Refresh, client); err != nil || tok.Refresh != got[0] {
			t.Fatalf("retry within grace: %v, same successor %v", err, tok.Refresh == got[0])
		}
		// The successor rotates normally and its own successor is new.
		next, _, err := m.Refresh(ctx, got[0], client)
		if err != nil || next.Refresh == got[0] || next.Refresh == first.Refresh {
			t.Fatalf("successor's rotation: %v", err)
		}
		if size := familySize(t, s, "acme", c.SessionID); size != 3 {
			t.Errorf("family has %d refresh tokens, want 3", size)
		}
	})
}

// Finding 2 of issue 17: a reuse after the grace window revokes the
// family and is written to the audit log.
func TestConformanceRefreshReuseRevokesAndIsAudited(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		now := time.UnixMilli(1_800_000_000_000)
		m := sessionManager(s, &now, &mu)
		first, c, err := m.Issue(ctx, "acme", 1)
		if err != nil {
			t.Fatal(err)
		}
		next, _, err := m.Refresh(ctx, first.Refresh, client)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		now = now.Add(session.ReuseGrace + time.Second)
		mu.Unlock()
		if _, _, err := m.Refresh(ctx, first.Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated || !errors.Is(err, session.ErrReused) {
			t.Fatalf("reuse: err = %v", err)
		}
		if sess, _ := ten.Session(ctx, c.SessionID); sess.RevokedAt.IsZero() {
			t.Error("reuse did not revoke the family")
		}
		if _, _, err := m.Refresh(ctx, next.Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("the successor after reuse: err = %v", err)
		}
		if _, err := m.Authenticate(ctx, next.Access); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("an access token after reuse: err = %v", err)
		}
		log, err := ten.AuditEvents(ctx, access.AuditFilter{Event: "refresh_reuse"})
		if err != nil || len(log) != 1 {
			t.Fatalf("audit = %+v, err %v", log, err)
		}
		e := log[0]
		if e.UserID != 1 || e.IP != client.IP || e.Detail["userAgent"] != client.UserAgent || e.Detail["session"] != c.SessionID {
			t.Errorf("audit event = %+v", e)
		}
	})
}
