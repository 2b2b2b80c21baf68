package tenancy

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseHost(t *testing.T) {
	for in, want := range map[string]string{
		"Acme.Example.COM":     "acme.example.com",
		"acme.example.com:443": "acme.example.com",
		"acme.example.com.":    "acme.example.com",
		"127.0.0.1:8080":       "127.0.0.1",
		"[::1]:8080":           "::1",
		"localhost":            "localhost",
	} {
		if got, err := ParseHost(in); err != nil || got != want {
			t.Errorf("ParseHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "a b", "-acme.com", "acme..com", "acme_x.com", "ünï.com"} {
		if _, err := ParseHost(bad); err == nil {
			t.Errorf("ParseHost(%q) took it", bad)
		}
	}
}

func TestMap(t *testing.T) {
	acme := Tenant{ID: "acme", Hosts: []string{"acme.example.com"}}
	// One tenant: every address is its.
	one := NewMap([]Tenant{acme}, "acme", nil)
	for _, host := range []string{"127.0.0.1:8080", "anything.example", ""} {
		if got, ok := one.ForHost(host); !ok || got.ID != "acme" {
			t.Errorf("one tenant, host %q: %v %v", host, got.ID, ok)
		}
	}
	// Several: each its own, the default also at the deployment's own
	// addresses, a host claimed twice nobody's, any other host none.
	beta := Tenant{ID: "beta", Hosts: []string{"beta.example.com", "shared.example.com"}}
	gamma := Tenant{ID: "gamma", Hosts: []string{"shared.example.com"}}
	m := NewMap([]Tenant{acme, beta, gamma}, "acme", []string{"127.0.0.1", "portal.example.net"})
	for host, want := range map[string]string{
		"ACME.example.com":      "acme",
		"beta.example.com:8443": "beta",
		"127.0.0.1:8080":        "acme",
		"portal.example.net":    "acme",
		"shared.example.com":    "",
		"unknown.example.com":   "",
		"not a host":            "",
	} {
		got, ok := m.ForHost(host)
		if ok != (want != "") || (ok && string(got.ID) != want) {
			t.Errorf("host %q: %q %v, want %q", host, got.ID, ok, want)
		}
	}
	if one.Several() || !m.Several() {
		t.Errorf("Several: one tenant %v, three %v", one.Several(), m.Several())
	}
	if got, ok := m.Tenant("beta"); !ok || got.ID != "beta" {
		t.Errorf("Tenant(beta): %v %v", got, ok)
	}
	if (Tenant{ID: "acme"}).SignInTenant() != "acme" || (Tenant{ID: "acme", IdentityTenant: "acme-x1"}).SignInTenant() != "acme-x1" {
		t.Error("SignInTenant")
	}
}

type dirFunc func(context.Context) ([]Tenant, error)

func (f dirFunc) Tenants(ctx context.Context) ([]Tenant, error) { return f(ctx) }

func TestLive(t *testing.T) {
	reads := 0
	var tenants []Tenant
	var fail error
	l := NewLive(dirFunc(func(context.Context) ([]Tenant, error) { reads++; return tenants, fail }), "acme", []string{"127.0.0.1"}, time.Second)
	now := time.Unix(1000, 0)
	l.now = func() time.Time { return now }
	// No tenant yet: the default, everywhere.
	m, err := l.Map(context.Background())
	if got, ok := m.ForHost("any.example"); err != nil || !ok || got.ID != "acme" {
		t.Fatalf("empty directory: %v %v %v", got, ok, err)
	}
	// Within the TTL the map stands; after it, a new tenant is in force.
	tenants = []Tenant{{ID: "acme"}, {ID: "beta", Hosts: []string{"beta.example"}}}
	if m, _ := l.Map(context.Background()); reads != 1 || m.single == nil {
		t.Fatalf("read again within the TTL: %d reads", reads)
	}
	now = now.Add(time.Second)
	m, _ = l.Map(context.Background())
	if got, ok := m.ForHost("beta.example"); !ok || got.ID != "beta" || reads != 2 {
		t.Fatalf("after the TTL: %v %v, %d reads", got, ok, reads)
	}
	// A failed read keeps the last map.
	now, fail = now.Add(time.Second), errors.New("database down")
	if m2, err := l.Map(context.Background()); err != nil || m2 != m {
		t.Fatalf("failed read: %v", err)
	}
}

// While one call reads the tenants again, the others answer with the last
// map at once: requests never queue behind the read.
func TestLiveReadsOnceWhileOthersKeepTheLastMap(t *testing.T) {
	release := make(chan struct{})
	var reads atomic.Int32
	l := NewLive(dirFunc(func(context.Context) ([]Tenant, error) {
		if reads.Add(1) > 1 {
			<-release // the second read is slow
		}
		return []Tenant{{ID: "acme"}}, nil
	}), "acme", nil, time.Second)
	now := time.Unix(1000, 0)
	var clock sync.Mutex
	l.now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	first, _ := l.Map(context.Background())
	clock.Lock()
	now = now.Add(time.Second)
	clock.Unlock()
	reading := make(chan struct{})
	go func() { defer close(reading); l.Map(context.Background()) }()
	for reads.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if m, err := l.Map(context.Background()); err != nil || m != first {
				t.Errorf("during a read: %p %v, want the last map", m, err)
			}
		})
	}
	wg.Wait()
	close(release)
	<-reading
	if reads.Load() != 2 {
		t.Errorf("%d reads, want 2", reads.Load())
	}
}
