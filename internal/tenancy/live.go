package tenancy

import (
	"context"
	"sync"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Live is a Directory's tenants as a Map, read again once it is older
// than its time to live. It is per instance: a tenant added, given a
// host or suspended on another instance is in force here within the TTL.
type Live struct {
	dir   Directory
	def   portal.TenantID
	hosts []string
	ttl   time.Duration
	now   func() time.Time

	mu sync.Mutex
	m  *Map
	at time.Time
}

// NewLive reads dir's tenants at most once per ttl. def and defaultHosts
// are NewMap's; a directory with no tenant yet (a database before its
// first seed or import) is the default tenant alone, at every address.
func NewLive(dir Directory, def portal.TenantID, defaultHosts []string, ttl time.Duration) *Live {
	return &Live{dir: dir, def: def, hosts: defaultHosts, ttl: ttl, now: time.Now}
}

// Map is the tenants as of at most the TTL ago. When they cannot be read,
// the last map read stands; without one, the error is returned.
func (l *Live) Map(ctx context.Context) (*Map, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.m != nil && now.Sub(l.at) < l.ttl {
		return l.m, nil
	}
	tenants, err := l.dir.Tenants(ctx)
	if err != nil {
		if l.m != nil {
			return l.m, nil
		}
		return nil, err
	}
	if len(tenants) == 0 {
		tenants = []Tenant{{ID: l.def, Name: string(l.def)}}
	}
	l.m, l.at = NewMap(tenants, l.def, l.hosts), now
	return l.m, nil
}
