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

// Finding 6 of issue 17: disabling a user, or taking their last role,
// revokes their sessions; enabling them again does not revive them.
func TestConformanceLosingAccessEndsSessions(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		f := access.File{Tenant: "acme", Roles: testAccess.Roles, Layouts: testAccess.Layouts, Users: []access.FileUser{
			{ID: 1, Email: "ada@acme.test", FullName: "Ada", Roles: []int64{10, 11}},
			{ID: 2, Email: "bo@acme.test", FullName: "Bo", Roles: []int64{10}},
			{ID: 3, Email: "cy@acme.test", FullName: "Cy", Roles: []int64{11}},
			{ID: 4, Email: "di@acme.test", FullName: "Di", Roles: []int64{10, 11}},
		}}
		if err := ten.ImportAccess(ctx, f); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		now := time.UnixMilli(1_800_000_000_000)
		m := sessionManager(s, &now, &mu)
		tokens := map[int64]session.Tokens{}
		for _, id := range []int64{1, 2, 3, 4} {
			tok, _, err := m.Issue(ctx, "acme", id)
			if err != nil {
				t.Fatal(err)
			}
			tokens[id] = tok
		}
		// Ada is disabled, Bo loses his only role, Cy is left out of the
		// file (and so loses every role), Di loses one of two roles.
		changed := f
		changed.Users = []access.FileUser{
			{ID: 1, Email: "ada@acme.test", FullName: "Ada", Roles: []int64{10, 11}, Disabled: true},
			{ID: 2, Email: "bo@acme.test", FullName: "Bo", Roles: []int64{}},
			{ID: 4, Email: "di@acme.test", FullName: "Di", Roles: []int64{10}},
		}
		if err := ten.ImportAccess(ctx, changed); err != nil {
			t.Fatal(err)
		}
		ended := func(when string) {
			t.Helper()
			for _, id := range []int64{1, 2, 3} {
				if _, err := m.Authenticate(ctx, tokens[id].Access); portal.ErrorCode(err) != portal.CodeUnauthenticated {
					t.Errorf("%s: user %d's access token: err = %v", when, id, err)
				}
				if _, _, err := m.Refresh(ctx, tokens[id].Refresh, client); portal.ErrorCode(err) != portal.CodeUnauthenticated {
					t.Errorf("%s: user %d's refresh: err = %v", when, id, err)
				}
			}
		}
		ended("after losing access")
		if _, err := m.Authenticate(ctx, tokens[4].Access); err != nil {
			t.Errorf("Di kept a role and her session: %v", err)
		}
		if _, _, err := m.Refresh(ctx, tokens[4].Refresh, client); err != nil {
			t.Errorf("Di's refresh: %v", err)
		}
		// Access restored: the old sessions stay ended.
		if err := ten.ImportAccess(ctx, f); err != nil {
			t.Fatal(err)
		}
		ended("after access is restored")
	})
}

// Migration 0014 on a database with sessions: sessions of users who
// already may not sign in end; the others, and their tokens, are kept.
func TestConformanceMigration0014EndsSessionsOfUsersWithoutAccess(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil { // Ada holds roles, Nora none
			t.Fatal(err)
		}
		now := time.Now()
		for _, sess := range []session.Session{
			{ID: "s-ada", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(time.Hour)},
			{ID: "s-nora", UserID: 2, CreatedAt: now, ExpiresAt: now.Add(time.Hour)},
		} {
			if err := ten.CreateSession(ctx, sess, "h-"+sess.ID, now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		// Undo 0014 as if the database predated it, then migrate.
		for _, q := range []string{
			`ALTER TABLE refresh_tokens DROP COLUMN successor`,
			`DELETE FROM schema_migrations WHERE version = 14`,
		} {
			if _, err := s.db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if sess, _ := ten.Session(ctx, "s-nora"); sess.RevokedAt.IsZero() {
			t.Error("the session of a user without roles survived the migration")
		}
		if _, _, err := ten.RefreshToken(ctx, "h-s-nora"); !portal.IsNotFound(err) {
			t.Errorf("a revoked session's token survived: %v", err)
		}
		if rt, sess, err := ten.RefreshToken(ctx, "h-s-ada"); err != nil || !sess.RevokedAt.IsZero() || rt.Successor != "" {
			t.Errorf("Ada's session: %+v %+v %v", rt, sess, err)
		}
	})
}
