package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
)

func feedbackOf(msg string) feedback.Submission {
	return feedback.Submission{At: time.Now(), UserID: 1, RoleID: 10, Category: "idea", Message: msg, Page: "/",
		FileName: msg + ".txt", FileType: "text/plain", FileSize: int64(len(msg)), File: []byte(msg)}
}

func auditIDs(t *testing.T, ten *Tenant, f access.AuditFilter) []int64 {
	t.Helper()
	events, err := ten.AuditEvents(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range events {
		ids = append(ids, e.ID)
	}
	return ids
}

// Issue 17, finding 7: feedback and audit ids were one sequence across
// tenants, so a tenant's ids jumped by the others' activity. Each tenant
// now counts its own: 1, 2, 3, ... whatever the others do.
func TestConformanceFeedbackAndAuditIDsArePerTenant(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		a, b := seedTenant(t, s, "acme"), seedTenant(t, s, "globex")
		var aIDs, bIDs []int64
		for range 3 {
			id, err := a.PutFeedback(ctx, feedbackOf("a"))
			if err != nil {
				t.Fatal(err)
			}
			aIDs = append(aIDs, id)
			for range 2 {
				id, err := b.PutFeedback(ctx, feedbackOf("b"))
				if err != nil {
					t.Fatal(err)
				}
				bIDs = append(bIDs, id)
			}
			if err := a.Audit(ctx, access.AuditEvent{At: time.Now(), Event: "login", IP: "a"}); err != nil {
				t.Fatal(err)
			}
			for range 4 {
				b.Audit(ctx, access.AuditEvent{At: time.Now(), Event: "login", IP: "b"})
			}
		}
		if !slices.Equal(aIDs, []int64{1, 2, 3}) || !slices.Equal(bIDs, []int64{1, 2, 3, 4, 5, 6}) {
			t.Errorf("feedback ids: acme %v, globex %v; want each tenant counting from 1", aIDs, bIDs)
		}
		if got := auditIDs(t, a, access.AuditFilter{}); !slices.Equal(got, []int64{3, 2, 1}) {
			t.Errorf("acme's audit ids %v, want [3 2 1]", got)
		}
		if got := auditIDs(t, b, access.AuditFilter{Before: 11, Limit: 3}); !slices.Equal(got, []int64{10, 9, 8}) {
			t.Errorf("globex's audit page before 11: %v", got)
		}
		// Listing and attachments go by the tenant's own id.
		subs, err := a.Feedback(ctx, 10)
		if err != nil || len(subs) != 3 || subs[0].ID != 3 || subs[2].ID != 1 {
			t.Fatalf("acme's feedback: %+v, err %v", subs, err)
		}
		if f, err := a.FeedbackFile(ctx, 3); err != nil || string(f.File) != "a" {
			t.Errorf("acme's attachment 3: %q, err %v", f.File, err)
		}
		if f, err := b.FeedbackFile(ctx, 6); err != nil || string(f.File) != "b" {
			t.Errorf("globex's attachment 6: %q, err %v", f.File, err)
		}
		if _, err := a.FeedbackFile(ctx, 4); !portal.IsNotFound(err) {
			t.Errorf("acme's attachment 4 (globex has one): err %v, want not found", err)
		}
	})
}

// Concurrent writers of one tenant never get the same id.
func TestConformanceConcurrentAuditIDsAreUnique(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		a := seedTenant(t, s, "acme")
		var wg sync.WaitGroup
		errs := make(chan error, 40)
		for range 40 {
			wg.Go(func() { errs <- a.Audit(ctx, access.AuditEvent{At: time.Now(), Event: "login", IP: "x"}) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		ids := auditIDs(t, a, access.AuditFilter{Limit: 100})
		slices.Sort(ids)
		if len(ids) != 40 || ids[0] != 1 || ids[39] != 40 {
			t.Errorf("ids of 40 concurrent events: %v", ids)
		}
	})
}

// atVersion opens an empty database of the engine with the migrations up to
// version applied, as a deployment of that version left it.
func atVersion(t *testing.T, engine string, version int) *Store {
	t.Helper()
	ctx := context.Background()
	var s *Store
	var err error
	switch engine {
	case "sqlite":
		s, err = open(ctx, "", t.TempDir())
	case "postgres":
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		b := make([]byte, 6)
		rand.Read(b)
		schema := "portico_test_" + hex.EncodeToString(b)
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if db, err := sql.Open("pgx", base); err == nil {
				db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
				db.Close()
			}
		})
		u, _ := url.Parse(base)
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		s, err = open(ctx, u.String(), "")
		if err != nil {
			t.Fatal(err)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ms, err := s.d.migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version > version {
			break
		}
		if _, err := s.db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)`), m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// Migration 0013 numbers the feedback and audit rows already written per
// tenant, in the order they were written, and new rows go on from there.
func TestMigrationNumbersExistingIDsPerTenant(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			s := atVersion(t, engine, 12)
			for _, id := range []portal.TenantID{"acme", "globex"} {
				if err := s.EnsureTenant(ctx, id, string(id)); err != nil {
					t.Fatal(err)
				}
			}
			// Interleaved, as two busy tenants write them: global ids
			// 1..6 for feedback, 1..6 for the audit log.
			for i, tenant := range []string{"acme", "globex", "globex", "acme", "globex", "acme"} {
				msg := tenant + string(rune('0'+i))
				if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO feedback (tenant_id, at, user_id, role_id, category, message, page)
					VALUES (?, ?, 1, 10, 'idea', ?, '/')`), tenant, i, msg); err != nil {
					t.Fatal(err)
				}
				if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO audit_log (tenant_id, at, event, ip, detail)
					VALUES (?, ?, 'login', ?, '{}')`), tenant, i, msg); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			a, b := s.Tenant("acme"), s.Tenant("globex")
			messages := func(ten *Tenant) (ids []int64, msgs []string) {
				subs, err := ten.Feedback(ctx, 10)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range subs {
					ids, msgs = append(ids, f.ID), append(msgs, f.Message)
				}
				return ids, msgs
			}
			if ids, msgs := messages(a); !slices.Equal(ids, []int64{3, 2, 1}) || !slices.Equal(msgs, []string{"acme5", "acme3", "acme0"}) {
				t.Errorf("acme's feedback after the migration: %v %v", ids, msgs)
			}
			if ids, msgs := messages(b); !slices.Equal(ids, []int64{3, 2, 1}) || !slices.Equal(msgs, []string{"globex4", "globex2", "globex1"}) {
				t.Errorf("globex's feedback after the migration: %v %v", ids, msgs)
			}
			events, err := b.AuditEvents(ctx, access.AuditFilter{})
			if err != nil || len(events) != 3 || events[0].ID != 3 || events[0].IP != "globex4" || events[2].ID != 1 || events[2].IP != "globex1" {
				t.Errorf("globex's audit log after the migration: %+v, err %v", events, err)
			}
			// New rows continue each tenant's count.
			if id, err := a.PutFeedback(ctx, feedbackOf("new")); err != nil || id != 4 {
				t.Errorf("acme's next feedback id: %d, err %v", id, err)
			}
			if err := b.Audit(ctx, access.AuditEvent{At: time.Now(), Event: "logout", IP: "new"}); err != nil {
				t.Fatal(err)
			}
			if got := auditIDs(t, b, access.AuditFilter{Limit: 1}); !slices.Equal(got, []int64{4}) {
				t.Errorf("globex's next audit id: %v", got)
			}
		})
	}
}
