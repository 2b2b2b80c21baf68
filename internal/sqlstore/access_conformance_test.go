package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
)

var testAccess = access.File{
	Tenant: "acme",
	Layouts: []access.Layout{{ID: "pm", Name: "PM", Items: []access.MenuItem{
		{Text: "Projects", IconCSS: "folder", Items: []access.MenuItem{{Text: "All", Href: "/project/list"}, {Separator: true}}},
	}}},
	Roles: []access.Role{
		{Key: "r-pm", ID: 10, Name: "Project Manager", Type: "staff", Layout: "pm", Permissions: []string{"project.view"}},
		{Key: "r-acc", ID: 11, Name: "Accountant", Type: "staff", Permissions: []string{"invoice.view"}},
	},
	Users: []access.FileUser{
		{ID: 1, Email: "Ada@Acme.Test", FullName: "Ada", Roles: []int64{11, 10}},
		{ID: 2, Email: "nora@acme.test", FullName: "Nora", Roles: []int64{}},
	},
}

func TestConformanceAccessImportExport(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil {
			t.Fatal(err)
		}
		u, err := ten.UserByEmail(ctx, "ADA@acme.test")
		if err != nil || u.FullName != "Ada" || len(u.Roles) != 2 || u.Roles[0].ID != 11 || u.Roles[1].Layout != "pm" {
			t.Fatalf("user = %+v, err %v", u, err)
		}
		if err := ten.SetUserUID(ctx, u.ID, "uid-ada"); err != nil {
			t.Fatal(err)
		}
		if err := ten.SetUserUID(ctx, u.ID, "uid-thief"); err != nil {
			t.Fatal(err)
		}
		if u, err := ten.UserByUID(ctx, "uid-ada"); err != nil || u.ID != 1 {
			t.Errorf("by uid: %+v %v (a second SetUserUID must not relink)", u, err)
		}
		l, err := ten.Layout(ctx, "pm")
		if err != nil || len(l.Items) != 1 || len(l.Items[0].Items) != 2 || !l.Items[0].Items[1].Separator {
			t.Errorf("layout = %+v, err %v", l, err)
		}
		if _, err := ten.Layout(ctx, "nope"); !portal.IsNotFound(err) {
			t.Errorf("missing layout: %v", err)
		}
		got, err := ten.ExportAccess(ctx)
		if err != nil || len(got.Roles) != 2 || len(got.Users) != 2 || len(got.Users[0].Roles) != 2 || got.Users[0].Roles[0] != 11 {
			t.Errorf("export = %+v, err %v", got, err)
		}
		// Re-import with a role dropped: grants follow the file.
		f := testAccess
		f.Roles = f.Roles[:1]
		f.Users = []access.FileUser{{ID: 1, Email: "ada@acme.test", FullName: "Ada L.", Roles: []int64{10}}}
		if err := ten.ImportAccess(ctx, f); err != nil {
			t.Fatal(err)
		}
		u, _ = ten.UserByID(ctx, 1)
		n, _ := ten.UserByID(ctx, 2)
		if len(u.Roles) != 1 || u.FullName != "Ada L." || u.UID != "uid-ada" || len(n.Roles) != 0 {
			t.Errorf("after re-import: %+v / %+v", u, n)
		}
		// Another tenant sees none of it.
		other := seedTenant(t, s, "other")
		if _, err := other.UserByEmail(ctx, "ada@acme.test"); !portal.IsNotFound(err) {
			t.Errorf("other tenant found acme's user: %v", err)
		}
		if _, err := other.Layout(ctx, "pm"); !portal.IsNotFound(err) {
			t.Errorf("other tenant found acme's layout: %v", err)
		}
	})
}

func TestConformanceRefreshRotation(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		now := time.UnixMilli(1_800_000_000_000)
		sess := session.Session{ID: "fam1", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
		if err := ten.CreateSession(ctx, sess, "h1", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		got, err := ten.RotateRefresh(ctx, "h1", "h2", now.Add(time.Hour), now.Add(time.Minute))
		if err != nil || got.ID != "fam1" || got.UserID != 1 {
			t.Fatalf("rotate: %+v %v", got, err)
		}
		if s, _ := ten.SessionOfRefresh(ctx, "h2"); s.ID != "fam1" {
			t.Errorf("new token not in the family: %+v", s)
		}
		// h1 again within the grace period: a client whose answer was lost.
		if _, err := ten.RotateRefresh(ctx, "h1", "h1b", now.Add(time.Hour), now.Add(time.Minute+session.ReuseGrace/2)); err != nil {
			t.Fatalf("retry within the grace period: %v", err)
		}
		// h1 after the grace period: reuse → the whole family is revoked.
		if _, err := ten.RotateRefresh(ctx, "h1", "h3", now.Add(time.Hour), now.Add(2*time.Minute)); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Fatalf("reuse: err = %v", err)
		}
		if s, _ := ten.Session(ctx, "fam1"); s.RevokedAt.IsZero() {
			t.Error("reuse did not revoke the family")
		}
		if _, err := ten.RotateRefresh(ctx, "h2", "h4", now.Add(time.Hour), now.Add(3*time.Minute)); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("sibling after reuse: err = %v", err)
		}
		// Expiry and unknown tokens.
		sess2 := session.Session{ID: "fam2", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
		ten.CreateSession(ctx, sess2, "k1", now.Add(time.Hour))
		if _, err := ten.RotateRefresh(ctx, "k1", "k2", now.Add(time.Hour), now.Add(2*time.Hour)); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("expired token: err = %v", err)
		}
		if _, err := ten.RotateRefresh(ctx, "nope", "k3", now, now); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("unknown token: err = %v", err)
		}
		// Explicit revocation.
		sess3 := session.Session{ID: "fam3", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
		ten.CreateSession(ctx, sess3, "m1", now.Add(time.Hour))
		if err := ten.RevokeSession(ctx, "fam3", now); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.RotateRefresh(ctx, "m1", "m2", now.Add(time.Hour), now); portal.ErrorCode(err) != portal.CodeUnauthenticated {
			t.Errorf("revoked family: err = %v", err)
		}
	})
}

func TestConformanceAuditAndSecrets(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.Audit(ctx, access.AuditEvent{At: time.Now(), Event: "login", UserID: 1, IP: "127.0.0.1", Detail: map[string]any{"role": 10}}); err != nil {
			t.Fatal(err)
		}
		ten.Audit(ctx, access.AuditEvent{At: time.Now(), Event: "login_failed", IP: "127.0.0.1"})
		log, err := ten.AuditEvents(ctx, access.AuditFilter{Limit: 10})
		if err != nil || len(log) != 2 || log[0].Event != "login_failed" || log[1].UserID != 1 {
			t.Errorf("audit = %+v, err %v", log, err)
		}
		if other, _ := seedTenant(t, s, "other").AuditEvents(ctx, access.AuditFilter{Limit: 10}); len(other) != 0 {
			t.Errorf("other tenant sees audit events: %v", other)
		}
		a, err := s.Secret(ctx, "session-key", 32)
		b, _ := s.Secret(ctx, "session-key", 32)
		if err != nil || len(a) != 32 || string(a) != string(b) {
			t.Errorf("secret not stable: %x %x %v", a, b, err)
		}
	})
}

func TestConformanceSessionUser(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil {
			t.Fatal(err)
		}
		now := time.UnixMilli(1_800_000_000_000)
		for _, sess := range []session.Session{
			{ID: "s-ada", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(time.Hour)},
			{ID: "s-nora", UserID: 2, CreatedAt: now, ExpiresAt: now.Add(time.Hour)},
		} {
			if err := ten.CreateSession(ctx, sess, "h-"+sess.ID, now.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		sess, u, err := ten.SessionUser(ctx, "s-ada")
		if err != nil || sess.ID != "s-ada" || !sess.ExpiresAt.Equal(now.Add(time.Hour)) || !sess.RevokedAt.IsZero() ||
			u.ID != 1 || len(u.Roles) != 2 || u.Roles[0].ID != 11 || u.Roles[1].Permissions[0] != "project.view" {
			t.Fatalf("session user: %+v %+v %v", sess, u, err)
		}
		if sess, u, err := ten.SessionUser(ctx, "s-nora"); err != nil || sess.UserID != 2 || len(u.Roles) != 0 {
			t.Fatalf("user without roles: %+v %+v %v", sess, u, err)
		}
		ten.RevokeSession(ctx, "s-ada", now)
		if sess, _, _ := ten.SessionUser(ctx, "s-ada"); sess.RevokedAt.IsZero() {
			t.Error("revocation not read")
		}
		if _, _, err := ten.SessionUser(ctx, "nope"); !portal.IsNotFound(err) {
			t.Errorf("unknown session: %v", err)
		}
		if _, _, err := s.Tenant("other").SessionUser(ctx, "s-nora"); !portal.IsNotFound(err) {
			t.Errorf("another tenant's session: %v", err)
		}
	})
}
