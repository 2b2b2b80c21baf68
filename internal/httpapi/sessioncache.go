package httpapi

import (
	"sync"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
)

// sessionCache keeps, for ttl, what the request guard read for a session:
// the session and its user with roles. A burst of calls from one signed-in
// app (a page and its tabs, lists, search as you type) then costs one
// read. Signing out on this instance drops the entry at once; a revocation,
// a disabled user or a role change made elsewhere (another instance, the
// roles command) takes effect within ttl. ttl 0 disables it.
type sessionCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[sessionKey]cachedSession
}

type sessionKey struct {
	tenant portal.TenantID
	id     string
}

type cachedSession struct {
	sess  session.Session
	user  access.User
	until time.Time
}

// maxCachedSessions bounds the cache; when full it starts over.
const maxCachedSessions = 10_000

func newSessionCache(ttl time.Duration) *sessionCache {
	return &sessionCache{ttl: ttl, m: map[sessionKey]cachedSession{}}
}

func (c *sessionCache) get(tenant portal.TenantID, id string, now time.Time) (session.Session, access.User, bool) {
	if c.ttl <= 0 {
		return session.Session{}, access.User{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[sessionKey{tenant, id}]
	if !ok || now.After(e.until) {
		return session.Session{}, access.User{}, false
	}
	return e.sess, e.user, true
}

func (c *sessionCache) put(tenant portal.TenantID, s session.Session, u access.User, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCachedSessions {
		clear(c.m)
	}
	c.m[sessionKey{tenant, s.ID}] = cachedSession{sess: s, user: u, until: now.Add(c.ttl)}
}

func (c *sessionCache) drop(tenant portal.TenantID, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, sessionKey{tenant, id})
}

// dropTenant drops every entry of a tenant: its access setup changed on
// this instance (the other instances follow within ttl).
func (c *sessionCache) dropTenant(tenant portal.TenantID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if k.tenant == tenant {
			delete(c.m, k)
		}
	}
}
