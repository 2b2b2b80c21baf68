package sqlstore

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/tenancy"
)

// wantCode fails the test unless err is a portal error of code whose
// message holds each of words.
func wantCode(t *testing.T, what string, err error, code portal.Code, words ...string) {
	t.Helper()
	if portal.ErrorCode(err) != code {
		t.Errorf("%s: %v, want a %s error", what, err, code)
		return
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %q does not say %q", what, err, w)
		}
	}
}

func tenantsByID(t *testing.T, s *Store) map[portal.TenantID]tenancy.Tenant {
	t.Helper()
	ts, err := s.Tenants(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m := map[portal.TenantID]tenancy.Tenant{}
	for _, x := range ts {
		m[x.ID] = x
	}
	return m
}

func TestConformanceTenants(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		// A tenant made by seed: no hosts, active, its own identity tenant.
		if err := s.EnsureTenant(ctx, "portico-demo", "Demo"); err != nil {
			t.Fatal(err)
		}
		created := time.UnixMilli(1_760_000_000_000).UTC()
		if err := s.AddTenant(ctx, tenancy.Tenant{
			ID: "acme", Name: " Acme Water ", Hosts: []string{"Portal.Acme.example:443", "acme.localhost.", "portal.acme.example"},
			IdentityTenant: "acme-x7k2p", CreatedAt: created, Environment: " Sandbox ",
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddTenant(ctx, tenancy.Tenant{ID: "globex", Name: "Globex", Hosts: []string{"globex.example"}}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Tenants(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].ID != "acme" || got[1].ID != "globex" || got[2].ID != "portico-demo" {
			t.Fatalf("tenants: %+v", got)
		}
		want := tenancy.Tenant{ID: "acme", Name: "Acme Water", Hosts: []string{"acme.localhost", "portal.acme.example"},
			IdentityTenant: "acme-x7k2p", CreatedAt: created, Environment: "Sandbox"}
		if !reflect.DeepEqual(got[0], want) {
			t.Errorf("acme: %+v, want %+v", got[0], want)
		}
		// The environment badge: changed, reset, refused when too long or
		// of no tenant.
		if err := s.SetTenantEnvironment(ctx, "globex", "Training"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Tenants(ctx); got[1].Environment != "Training" {
			t.Errorf("globex's badge: %q", got[1].Environment)
		}
		if err := s.SetTenantEnvironment(ctx, "globex", ""); err != nil {
			t.Fatal(err)
		}
		wantCode(t, "a long badge", s.SetTenantEnvironment(ctx, "acme", strings.Repeat("x", 25)), portal.CodeInvalid)
		wantCode(t, "a badge on two lines", s.SetTenantEnvironment(ctx, "acme", "Sand\nbox"), portal.CodeInvalid)
		wantCode(t, "a badge of no tenant", s.SetTenantEnvironment(ctx, "nobody", "Sandbox"), portal.CodeNotFound)
		if got, _ := s.Tenants(ctx); got[0].Environment != "Sandbox" || got[1].Environment != "" {
			t.Errorf("badges: %q, %q", got[0].Environment, got[1].Environment)
		}
		if d := got[2]; d.Name != "Demo" || d.Hosts == nil || len(d.Hosts) != 0 || d.Suspended || d.IdentityTenant != "" || d.SignInTenant() != "portico-demo" {
			t.Errorf("the seeded tenant: %+v", d)
		}
		if g := got[1]; time.Since(g.CreatedAt) > time.Minute || g.CreatedAt.After(time.Now()) {
			t.Errorf("globex created at %v, want now", g.CreatedAt)
		}
		// EnsureTenant leaves an existing tenant as it is.
		if err := s.EnsureTenant(ctx, "acme", "Other"); err != nil {
			t.Fatal(err)
		}
		if a := tenantsByID(t, s)["acme"]; !reflect.DeepEqual(a, want) {
			t.Errorf("after EnsureTenant: %+v", a)
		}
		// Other code reads the tenant as before.
		if ok, err := s.TenantExists(ctx, "acme"); !ok || err != nil {
			t.Errorf("TenantExists: %v %v", ok, err)
		}

		// A duplicate id; a host another tenant has: nothing stored.
		wantCode(t, "duplicate id", s.AddTenant(ctx, tenancy.Tenant{ID: "acme", Name: "Acme 2", Hosts: []string{"new.example"}}),
			portal.CodeConflict, "tenant acme exists")
		wantCode(t, "duplicate id of a seeded tenant", s.AddTenant(ctx, tenancy.Tenant{ID: "portico-demo", Name: "Demo"}),
			portal.CodeConflict, "tenant portico-demo exists")
		wantCode(t, "a taken host", s.AddTenant(ctx, tenancy.Tenant{ID: "initech", Name: "Initech", Hosts: []string{"initech.example", "GLOBEX.example."}}),
			portal.CodeConflict, "globex.example", "tenant globex")
		after := tenantsByID(t, s)
		if _, ok := after["initech"]; ok || len(after) != 3 {
			t.Errorf("a refused tenant was stored: %+v", after)
		}
		if err := s.AddTenant(ctx, tenancy.Tenant{ID: "initech", Name: "Initech", Hosts: []string{"initech.example"}}); err != nil {
			t.Errorf("the host of a refused tenant stays free: %v", err)
		}

		// Bad input.
		for name, bad := range map[string]tenancy.Tenant{
			"bad id":              {ID: "Acme Co", Name: "X"},
			"no name":             {ID: "noname", Name: "  "},
			"bad host":            {ID: "badhost", Name: "X", Hosts: []string{"portal.example", "not a host"}},
			"empty host":          {ID: "emptyhost", Name: "X", Hosts: []string{""}},
			"bad identity tenant": {ID: "badidentity", Name: "X", IdentityTenant: "a b"},
		} {
			wantCode(t, name, s.AddTenant(ctx, bad), portal.CodeInvalid)
		}
		wantCode(t, "bad host named", s.AddTenant(ctx, tenancy.Tenant{ID: "badhost", Name: "X", Hosts: []string{"under_score.example"}}),
			portal.CodeInvalid, `"under_score.example"`)
		if n := len(tenantsByID(t, s)); n != 4 {
			t.Errorf("%d tenants after refused ones, want 4", n)
		}

		// Suspend and resume.
		if err := s.SetTenantSuspended(ctx, "globex", true, time.Now()); err != nil {
			t.Fatal(err)
		}
		if g := tenantsByID(t, s)["globex"]; !g.Suspended || len(g.Hosts) != 1 {
			t.Errorf("suspended: %+v", g)
		}
		if err := s.SetTenantSuspended(ctx, "globex", true, time.Time{}); err != nil {
			t.Errorf("suspend again: %v", err)
		}
		if err := s.SetTenantSuspended(ctx, "globex", false, time.Now()); err != nil {
			t.Fatal(err)
		}
		if g := tenantsByID(t, s)["globex"]; g.Suspended {
			t.Errorf("resumed: %+v", g)
		}
		if err := s.SetTenantSuspended(ctx, "globex", false, time.Now()); err != nil {
			t.Errorf("resume an active tenant: %v", err)
		}
		wantCode(t, "suspend an unknown tenant", s.SetTenantSuspended(ctx, "nobody", true, time.Now()), portal.CodeNotFound, "nobody")
		wantCode(t, "resume an unknown tenant", s.SetTenantSuspended(ctx, "nobody", false, time.Now()), portal.CodeNotFound, "nobody")
		if err := s.AddTenant(ctx, tenancy.Tenant{ID: "dormant", Name: "Dormant", Suspended: true}); err != nil {
			t.Fatal(err)
		}
		if d := tenantsByID(t, s)["dormant"]; !d.Suspended {
			t.Errorf("created suspended: %+v", d)
		}
	})
}

func TestConformanceTenantHosts(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, x := range []tenancy.Tenant{
			{ID: "acme", Name: "Acme", Hosts: []string{"acme.example"}},
			{ID: "globex", Name: "Globex", Hosts: []string{"globex.example"}},
		} {
			if err := s.AddTenant(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		hosts := func(id portal.TenantID) []string { return tenantsByID(t, s)[id].Hosts }

		if err := s.AddTenantHosts(ctx, "acme", "WWW.acme.example", "acme.example", "10.0.0.7:8080"); err != nil {
			t.Fatal(err)
		}
		if h := hosts("acme"); !reflect.DeepEqual(h, []string{"10.0.0.7", "acme.example", "www.acme.example"}) {
			t.Errorf("added: %q", h)
		}
		wantCode(t, "another tenant's host", s.AddTenantHosts(ctx, "acme", "new.acme.example", "globex.example"),
			portal.CodeConflict, "globex.example", "tenant globex")
		if h := hosts("acme"); len(h) != 3 {
			t.Errorf("a refused change added some: %q", h)
		}
		wantCode(t, "remove another tenant's host", s.RemoveTenantHosts(ctx, "acme", "www.acme.example", "globex.example"),
			portal.CodeConflict, "globex.example", "tenant globex")
		if h := hosts("acme"); len(h) != 3 {
			t.Errorf("a refused change removed some: %q", h)
		}
		if h := hosts("globex"); !reflect.DeepEqual(h, []string{"globex.example"}) {
			t.Errorf("globex's hosts changed: %q", h)
		}
		wantCode(t, "unknown tenant", s.AddTenantHosts(ctx, "nobody", "nobody.example"), portal.CodeNotFound, "nobody")
		wantCode(t, "unknown tenant, remove", s.RemoveTenantHosts(ctx, "nobody", "acme.example"), portal.CodeNotFound, "nobody")
		wantCode(t, "bad host", s.AddTenantHosts(ctx, "acme", "-bad-.example"), portal.CodeInvalid, "-bad-.example")
		wantCode(t, "added and removed", s.ChangeTenantHosts(ctx, "acme", []string{"x.example"}, []string{"X.example"}), portal.CodeInvalid, "x.example")

		// Removing: its own (any spelling), and one it does not have.
		if err := s.RemoveTenantHosts(ctx, "acme", "WWW.ACME.EXAMPLE.", "never.example"); err != nil {
			t.Fatal(err)
		}
		if h := hosts("acme"); !reflect.DeepEqual(h, []string{"10.0.0.7", "acme.example"}) {
			t.Errorf("removed: %q", h)
		}
		// A removed host is free for another tenant; a move in one change.
		if err := s.AddTenantHosts(ctx, "globex", "www.acme.example"); err != nil {
			t.Errorf("a freed host: %v", err)
		}
		if err := s.ChangeTenantHosts(ctx, "acme", []string{"portal.acme.example"}, []string{"10.0.0.7"}); err != nil {
			t.Fatal(err)
		}
		if h := hosts("acme"); !reflect.DeepEqual(h, []string{"acme.example", "portal.acme.example"}) {
			t.Errorf("changed: %q", h)
		}
	})
}

// TestConformanceTenantHostRace: of several commands claiming one host (or
// one id) at once, one succeeds and the others are told who has it.
func TestConformanceTenantHostRace(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const n = 8
		race := func(what string, claim func(i int) error) []error {
			errs := make([]error, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs[i] = claim(i)
				}()
			}
			close(start)
			wg.Wait()
			ok := 0
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
				case portal.ErrorCode(err) != portal.CodeConflict:
					t.Errorf("%s %d: %v, want success or a conflict", what, i, err)
				}
			}
			if ok != 1 {
				t.Errorf("%s: %d succeeded, want 1: %v", what, ok, errs)
			}
			return errs
		}
		for round := range 3 {
			host := fmt.Sprintf("shared%d.example", round)
			// Each tenant also claims a host of its own, and the shared one
			// after (round 1) or before it, in the sorted order.
			own := map[int]string{0: "own%d-%d.example", 1: "a%d-%d.example", 2: "z%d-%d.example"}[round]
			errs := race("add tenant", func(i int) error {
				return s.AddTenant(ctx, tenancy.Tenant{ID: portal.TenantID(fmt.Sprintf("t%d-%d", round, i)), Name: "T",
					Hosts: []string{fmt.Sprintf(own, round, i), host}})
			})
			all := tenantsByID(t, s)
			var winner portal.TenantID
			for i, err := range errs {
				id := portal.TenantID(fmt.Sprintf("t%d-%d", round, i))
				_, stored := all[id]
				if stored != (err == nil) {
					t.Errorf("round %d: tenant %s stored %v, but its error is %v", round, id, stored, err)
				}
				if err == nil {
					winner = id
				}
			}
			for i, err := range errs {
				if err != nil {
					wantCode(t, fmt.Sprintf("round %d loser %d", round, i), err, portal.CodeConflict, host, "tenant "+string(winner))
				}
			}
		}
		// One id at once.
		errs := race("same id", func(i int) error {
			return s.AddTenant(ctx, tenancy.Tenant{ID: "same", Name: "Same", Hosts: []string{fmt.Sprintf("same%d.example", i)}})
		})
		for _, err := range errs {
			if err != nil {
				wantCode(t, "same id", err, portal.CodeConflict, "tenant same exists")
			}
		}
		if h := tenantsByID(t, s)["same"].Hosts; len(h) != 1 {
			t.Errorf("the winner's hosts: %q", h)
		}
		// One host added to existing tenants at once.
		for i := range n {
			if err := s.AddTenant(ctx, tenancy.Tenant{ID: portal.TenantID(fmt.Sprintf("h%d", i)), Name: "H"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, err := range race("add hosts", func(i int) error {
			return s.AddTenantHosts(ctx, portal.TenantID(fmt.Sprintf("h%d", i)), fmt.Sprintf("h%d.example", i), "contested.example")
		}) {
			if err != nil {
				wantCode(t, "add hosts", err, portal.CodeConflict, "contested.example")
			}
		}
		hosts := 0
		for _, x := range tenantsByID(t, s) {
			if strings.HasPrefix(string(x.ID), "h") {
				hosts += len(x.Hosts)
			}
		}
		if hosts != 2 {
			t.Errorf("the racing tenants have %d hosts, want the winner's 2", hosts)
		}
	})
}
