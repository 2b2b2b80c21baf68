package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/sqlstore"
)

// signInAttempt is a sign-in without an identity token from client through
// a balancer at 10.0.0.2: the address limit is taken before the token is
// read, so it answers 429 when limited and 400 otherwise.
func signInAttempt(s *Server, client string) int {
	r := httptest.NewRequest("GET", "/api/v1/auth/login", nil)
	r.RemoteAddr = "10.0.0.2:40000"
	r.Header.Set("X-Forwarded-For", client)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w.Code
}

// Two instances behind one balancer, each with its own handle on one
// database, enforce the sign-in limit as one: the burst in total, not once
// per instance; and each client has its own bucket, so one client's
// failures do not lock the others out.
func TestSignInLimitsSharedByInstances(t *testing.T) {
	dir := t.TempDir()
	var servers []*Server
	for range 2 {
		store, err := sqlstore.Open(context.Background(), "", dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		s, err := NewServer(Options{Logger: slog.New(slog.DiscardHandler), Store: store, ERP: "netsuite", Product: "portal",
			LoginPerMinuteIP: 6, RateLimits: store, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	passed := 0
	for i := range 12 {
		switch code := signInAttempt(servers[i%2], "203.0.113.9"); code {
		case 400:
			passed++
		case 429:
		default:
			t.Fatalf("attempt %d: %d", i+1, code)
		}
	}
	if passed != 3 { // 6 a minute: bursts of 3
		t.Errorf("%d attempts passed through two instances, want the burst of 3", passed)
	}
	if code := signInAttempt(servers[0], "198.51.100.4"); code != 400 {
		t.Errorf("another client behind the same balancer: %d", code)
	}
}

// limiterFunc is a RateLimiter that records the keys it is asked about.
type limiterFunc struct {
	mu    sync.Mutex
	keys  []string
	allow func() (bool, time.Duration, error)
}

func (l *limiterFunc) Allow(_ context.Context, key string, perMinute, burst int, _ time.Time) (bool, time.Duration, error) {
	l.mu.Lock()
	l.keys = append(l.keys, key)
	l.mu.Unlock()
	return l.allow()
}

// The shared limiter's keys name the limit and the subject, and hold
// nothing secret.
func TestSignInLimitKeys(t *testing.T) {
	e := newAuthEnv(t, 60)
	shared := &limiterFunc{allow: func() (bool, time.Duration, error) { return true, 0, nil }}
	e.srv.limits = shared
	a, w := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w.Code != 200 {
		t.Fatalf("sign-in: %d %s", w.Code, w.Body)
	}
	if w := e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`); w.Code != 200 {
		t.Fatalf("refresh: %d %s", w.Code, w.Body)
	}
	want := []string{"login:ip:192.0.2.7", "login:acct:acme:uid-ada", "refresh:ip:192.0.2.7"}
	if !slices.Equal(shared.keys, want) {
		t.Errorf("keys %q, want %q", shared.keys, want)
	}
}

// The shared limiter's answer is the server's: a refusal is a 429 with
// Retry-After in whole seconds, rounded up.
func TestSharedRefusalIsA429(t *testing.T) {
	e := newAuthEnv(t, 60)
	e.srv.limits = &limiterFunc{allow: func() (bool, time.Duration, error) { return false, 1500 * time.Millisecond, nil }}
	_, w := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w.Code != 429 || w.Header().Get("Retry-After") != "2" {
		t.Errorf("refused: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
}

// When the shared limiter fails, sign-in stays open under this instance's
// own limits, and the outage and the recovery are each logged once.
func TestSharedLimitsFallBackWhenTheyFail(t *testing.T) {
	var logs strings.Builder
	down := true
	shared := &limiterFunc{allow: func() (bool, time.Duration, error) {
		if down {
			return false, 0, errors.New("connection refused")
		}
		return true, 0, nil
	}}
	s, err := NewServer(Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Store: fakeStore{}, ERP: "netsuite", Product: "portal",
		LoginPerMinuteIP: 4, RateLimits: shared})
	if err != nil {
		t.Fatal(err)
	}
	var codes []int
	for range 4 {
		codes = append(codes, signInAttempt(s, "203.0.113.9"))
	}
	if want := []int{400, 400, 429, 429}; !slices.Equal(codes, want) {
		t.Errorf("while the shared limits fail: %v, want the local burst of 2 then 429s (%v)", codes, want)
	}
	if n := strings.Count(logs.String(), "shared rate limits failed"); n != 1 {
		t.Errorf("outage logged %d times:\n%s", n, logs.String())
	}
	down = false
	for range 3 {
		if code := signInAttempt(s, "203.0.113.9"); code != 400 {
			t.Errorf("after recovery: %d", code)
		}
	}
	if n := strings.Count(logs.String(), "shared rate limits answer again"); n != 1 {
		t.Errorf("recovery logged %d times:\n%s", n, logs.String())
	}
}
