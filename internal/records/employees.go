package records

import (
	"context"
	"sync"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Employees is a process's memory of which employee record each user is
// (UserEmployeeField, by tenant and e-mail address), kept for a TTL: a
// rule comparing with Me then costs its guard no read of its own on most
// requests. It is per instance: a user's employee record changed in the
// ERP (its address, or a new record) reaches the rules within the TTL,
// as a change to a session does within the session cache's
// (PORTICO_SESSION_CACHE_TTL, the TTL the server gives it). A zero TTL
// remembers nothing. At most employeesMax users are kept; when full it
// starts over.
type Employees struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[employeeKey]employeeEntry
}

type employeeKey struct {
	tenant portal.TenantID
	email  string
}

type employeeEntry struct {
	id    int64 // 0: the user has no employee record
	until time.Time
}

const employeesMax = 10_000

// NewEmployees remembers each lookup for ttl.
func NewEmployees(ttl time.Duration) *Employees {
	return &Employees{ttl: ttl, m: map[employeeKey]employeeEntry{}}
}

// lookup is the employee record of the user with email in tenant (0:
// none), remembered or read through st.
func (e *Employees) lookup(ctx context.Context, st lister, tenant portal.TenantID, email string) (int64, error) {
	key := employeeKey{tenant, email}
	now := time.Now()
	if e != nil && e.ttl > 0 {
		e.mu.Lock()
		got, ok := e.m[key]
		e.mu.Unlock()
		if ok && now.Before(got.until) {
			return got.id, nil
		}
	}
	ref, err := employeeOf(ctx, st, email)
	if err != nil {
		return 0, err
	}
	var id int64
	if ref != nil {
		id = ref.ID
	}
	if e != nil && e.ttl > 0 {
		e.mu.Lock()
		if len(e.m) >= employeesMax {
			clear(e.m)
		}
		e.m[key] = employeeEntry{id: id, until: now.Add(e.ttl)}
		e.mu.Unlock()
	}
	return id, nil
}
