package sqlstore

import (
	"context"
	"strings"
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

// The session store's primitives; the policy over them (grace, reuse) is
// session's, tested with them in sessions_conformance_test.go.
func TestConformanceRefreshRotation(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		now := time.UnixMilli(1_800_000_000_000)
		sess := session.Session{ID: "fam1", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
		if err := ten.CreateSession(ctx, sess, "h1", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		rt, got, err := ten.RefreshToken(ctx, "h1")
		if err != nil || rt.SessionID != "fam1" || !rt.ExpiresAt.Equal(now.Add(time.Hour)) || !rt.UsedAt.IsZero() || rt.Successor != "" ||
			got.ID != "fam1" || got.UserID != 1 || !got.ExpiresAt.Equal(sess.ExpiresAt) || !got.RevokedAt.IsZero() {
			t.Fatalf("refresh token: %+v %+v %v", rt, got, err)
		}
		next := session.RefreshToken{Hash: "h2", SessionID: "fam1", ExpiresAt: now.Add(2 * time.Hour)}
		if used, err := ten.UseRefresh(ctx, "h1", next, now.Add(time.Minute)); err != nil || !used {
			t.Fatalf("first use: %v %v", used, err)
		}
		if rt, _, _ := ten.RefreshToken(ctx, "h1"); !rt.UsedAt.Equal(now.Add(time.Minute)) || rt.Successor != "h2" {
			t.Errorf("used token: %+v", rt)
		}
		if rt, got, err := ten.RefreshToken(ctx, "h2"); err != nil || got.ID != "fam1" || !rt.ExpiresAt.Equal(next.ExpiresAt) {
			t.Errorf("successor: %+v %+v %v", rt, got, err)
		}
		// A second use records nothing.
		if used, err := ten.UseRefresh(ctx, "h1", session.RefreshToken{Hash: "h3", SessionID: "fam1", ExpiresAt: now}, now.Add(2*time.Minute)); err != nil || used {
			t.Errorf("second use: %v %v", used, err)
		}
		if _, _, err := ten.RefreshToken(ctx, "h3"); !portal.IsNotFound(err) {
			t.Errorf("a second use stored a successor: %v", err)
		}
		if used, err := ten.UseRefresh(ctx, "nope", session.RefreshToken{Hash: "h4", SessionID: "fam1", ExpiresAt: now}, now); err != nil || used {
			t.Errorf("unknown token: %v %v", used, err)
		}
		if _, _, err := ten.RefreshToken(ctx, "nope"); !portal.IsNotFound(err) {
			t.Errorf("unknown token: %v", err)
		}
		// Revocation ends the session and drops its tokens.
		if err := ten.RevokeSession(ctx, "fam1", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if s, _ := ten.Session(ctx, "fam1"); !s.RevokedAt.Equal(now.Add(time.Hour)) {
			t.Errorf("revoked session: %+v", s)
		}
		for _, h := range []string{"h1", "h2"} {
			if _, _, err := ten.RefreshToken(ctx, h); !portal.IsNotFound(err) {
				t.Errorf("%s after revocation: %v", h, err)
			}
		}
		// A reuse is revoked and audited together.
		sess2 := session.Session{ID: "fam2", UserID: 1, CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
		ten.CreateSession(ctx, sess2, "k1", now.Add(time.Hour))
		reuse := session.Reuse{SessionID: "fam2", UserID: 1, At: now.Add(time.Minute), Client: session.Client{IP: "192.0.2.1", UserAgent: "ua"}}
		if err := ten.RevokeReused(ctx, reuse); err != nil {
			t.Fatal(err)
		}
		if s, _ := ten.Session(ctx, "fam2"); s.RevokedAt.IsZero() {
			t.Error("reuse did not revoke")
		}
		if _, _, err := ten.RefreshToken(ctx, "k1"); !portal.IsNotFound(err) {
			t.Errorf("token after reuse: %v", err)
		}
		log, err := ten.AuditEvents(ctx, access.AuditFilter{Event: "refresh_reuse"})
		if err != nil || len(log) != 1 || log[0].IP != "192.0.2.1" || log[0].UserID != 1 ||
			log[0].Detail["userAgent"] != "ua" || log[0].Detail["session"] != "fam2" || !log[0].At.Equal(reuse.At) {
			t.Errorf("audit = %+v, err %v", log, err)
		}
		// Another tenant sees none of it.
		if _, _, err := seedTenant(t, s, "other").RefreshToken(ctx, "h1"); !portal.IsNotFound(err) {
			t.Errorf("another tenant's token: %v", err)
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

// A new user whose address belongs to a user the file leaves out is the
// file's mistake: a 400 naming the entry and the other user, nothing
// imported; on both engines.
func TestConformanceImportRefusesAnAddressOfAUserLeftOut(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil {
			t.Fatal(err)
		}
		f := testAccess
		f.Users = []access.FileUser{testAccess.Users[0], {ID: 3, Email: "NORA@acme.test", FullName: "Nora again", Roles: []int64{10}}}
		err := ten.ImportAccess(ctx, f)
		if portal.ErrorCode(err) != portal.CodeInvalid || !strings.Contains(err.Error(), "already belongs to user 2") {
			t.Fatalf("import: %v", err)
		}
		if u, err := ten.UserByEmail(ctx, "nora@acme.test"); err != nil || u.ID != 2 {
			t.Errorf("nora: %+v %v", u, err)
		}
	})
}
