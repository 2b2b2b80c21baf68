package tenancy

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Live is a Directory's tenants as a Map, read again once it is older
// than its time to live. It is per instance: a tenant added, given a
// host or suspended on another instance is in force here within the TTL.
// Every request asks it, so a fresh map is read without a lock, and while
// one request reads the tenants again the others keep the last map.
type Live struct {
	dir   Directory
	def   portal.TenantID
	hosts []string
	ttl   time.Duration
	now   func() time.Time

	current atomic.Pointer[snapshot]
	reading sync.Mutex // held while the tenants are read
}

// snapshot is a map and when its tenants were read.
type snapshot struct {
	m  *Map
	at time.Time
}

// NewLive reads dir's tenants at most once per ttl. def and defaultHosts
// are NewMap's; a directory with no tenant yet (a database before its
// first seed or import) is the default tenant alone, at every address.
func NewLive(dir Directory, def portal.TenantID, defaultHosts []string, ttl time.Duration) *Live {
	return &Live{dir: dir, def: def, hosts: defaultHosts, ttl: ttl, now: time.Now}
}

// Map is the tenants as of at most the TTL ago — or, while another call
// reads them again, as of the last read. When they cannot be read, the
// last map read stands; without one, the error is returned.
func (l *Live) Map(ctx context.Context) (*Map, error) {
	last := l.current.Load()
	if last != nil && l.now().Sub(last.at) < l.ttl {
		return last.m, nil
	}
	if last == nil {
		l.reading.Lock()
	} else if !l.reading.TryLock() {
		return last.m, nil
	}
	defer l.reading.Unlock()
	if cur := l.current.Load(); cur != nil && l.now().Sub(cur.at) < l.ttl {
		return cur.m, nil // read meanwhile
	}
	now := l.now()
	tenants, err := l.dir.Tenants(ctx)
	if err != nil {
		if cur := l.current.Load(); cur != nil {
			return cur.m, nil
		}
		return nil, err
	}
	if len(tenants) == 0 {
		tenants = []Tenant{{ID: l.def, Name: string(l.def)}}
	}
	m := NewMap(tenants, l.def, l.hosts)
	l.current.Store(&snapshot{m: m, at: now})
	return m, nil
}
