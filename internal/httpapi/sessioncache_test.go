package httpapi

import (
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/session"
)

func TestSessionCacheExpires(t *testing.T) {
	c := newSessionCache(time.Second)
	now := time.Now()
	c.put("acme", session.Session{ID: "s"}, access.User{ID: 1}, now)
	if _, u, ok := c.get("acme", "s", now.Add(999*time.Millisecond)); !ok || u.ID != 1 {
		t.Fatal("fresh entry missed")
	}
	if _, _, ok := c.get("acme", "s", now.Add(1001*time.Millisecond)); ok {
		t.Fatal("stale entry served")
	}
	if _, _, ok := c.get("other", "s", now); ok {
		t.Fatal("another tenant's session served")
	}
	c.drop("acme", "s")
	if _, _, ok := c.get("acme", "s", now); ok {
		t.Fatal("dropped entry served")
	}
	if off := newSessionCache(0); func() bool {
		off.put("acme", session.Session{ID: "s"}, access.User{}, now)
		_, _, ok := off.get("acme", "s", now)
		return ok
	}() {
		t.Fatal("a zero ttl caches")
	}
}

func TestSignOutDropsTheCachedSessionAtOnce(t *testing.T) {
	e := newAuthEnv(t, 1000)
	e.srv.sessionCache = newSessionCache(time.Hour)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w := e.call("GET", "/api/v1/auth/me", a.Data.Token, 10, ""); w.Code != 200 {
		t.Fatalf("me: %d", w.Code)
	}
	if w := e.call("POST", "/api/v1/auth/logout", a.Data.Token, 0, ""); w.Code != 204 {
		t.Fatalf("logout: %d", w.Code)
	}
	if w := e.call("GET", "/api/v1/auth/me", a.Data.Token, 10, ""); w.Code != 511 {
		t.Fatalf("after sign-out: %d", w.Code)
	}
}
