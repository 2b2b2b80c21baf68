package tenancy

import (
	"context"
	"sync"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Budget is what one tenant's requests may use of one instance, so that a
// company flooding the deployment (a script, a stuck client, a crowd)
// slows itself and not its neighbours. It is per instance, kept in the
// instance's memory: N instances behind a balancer give a tenant N times
// as much. The zero value of a field is no limit.
type Budget struct {
	// Concurrent is how many of the tenant's requests run at once; the
	// others wait, holding no database connection.
	Concurrent int
	// Rate is how many requests a second it may start, with a burst of
	// twice that.
	Rate float64
	// DBTime is how much database time a second its requests may spend,
	// with a burst of twice that: a request is charged what its store
	// calls took when it ends, and none starts while the tenant is in
	// debt.
	DBTime time.Duration
	// Wait is how long a request over a limit waits for room before it
	// is refused.
	Wait time.Duration
}

// Budgets keeps each tenant's share of the instance by Budget.
type Budgets struct {
	b   Budget
	now func() time.Time

	mu     sync.Mutex
	shares map[portal.TenantID]*share
}

// share is one tenant's: its running requests and its two buckets.
type share struct {
	slots chan struct{} // nil: no concurrency limit

	mu       sync.Mutex
	requests float64       // request tokens left
	db       time.Duration // database time left (negative: in debt)
	last     time.Time     // when the buckets were last filled
}

// NewBudgets keeps tenants' shares by b.
func NewBudgets(b Budget) *Budgets {
	return &Budgets{b: b, now: time.Now, shares: map[portal.TenantID]*share{}}
}

// Ticket is an admitted request's; Done ends it.
type Ticket struct {
	s     *share
	owner *Budgets
}

// Done ends the request, charging its tenant the database time it spent.
func (t Ticket) Done(dbTime time.Duration) {
	if t.s == nil {
		return
	}
	if t.owner.b.DBTime > 0 && dbTime > 0 {
		t.s.mu.Lock()
		t.s.db -= dbTime
		t.s.mu.Unlock()
	}
	if t.s.slots != nil {
		<-t.s.slots
	}
}

// The refusals' sentences.
const (
	msgBusy       = "This company's portal is busy with other requests. Try again in a moment."
	msgOverBudget = "This company's portal has had more requests than it may have just now. Try again in a moment."
)

// Admit waits, up to the budget's Wait, for room for one request of
// tenant: a free slot, a request token, and database time not in debt.
// A request refused is a CodeRateLimited error (every slot still taken,
// no token, or database time in debt: the tenant's own demand, not a
// fault of the server); the caller answers it with Retry-After. A request admitted must end with
// Ticket.Done.
func (b *Budgets) Admit(ctx context.Context, tenant portal.TenantID) (Ticket, error) {
	s := b.shareOf(tenant)
	deadline := time.NewTimer(b.b.Wait)
	defer deadline.Stop()
	for {
		wait, err := b.take(s)
		if err == nil {
			break
		}
		if wait > b.b.Wait {
			return Ticket{}, err
		}
		retry := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			retry.Stop()
			return Ticket{}, ctx.Err()
		case <-deadline.C:
			retry.Stop()
			return Ticket{}, err
		case <-retry.C:
		}
	}
	if s.slots != nil {
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return Ticket{}, ctx.Err()
		case <-deadline.C:
			return Ticket{}, portal.Errorf(portal.CodeRateLimited, msgBusy)
		}
	}
	return Ticket{s: s, owner: b}, nil
}

// take takes a request token when there is one and the database time is
// not in debt; otherwise it says how long until there may be.
func (b *Budgets) take(s *share) (time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := b.now()
	elapsed := now.Sub(s.last).Seconds()
	s.last = now
	if b.b.Rate > 0 {
		s.requests = min(2*b.b.Rate, s.requests+elapsed*b.b.Rate)
		if s.requests < 1 {
			return time.Duration((1 - s.requests) / b.b.Rate * float64(time.Second)), portal.Errorf(portal.CodeRateLimited, msgOverBudget)
		}
	}
	if b.b.DBTime > 0 {
		s.db = min(2*b.b.DBTime, s.db+time.Duration(elapsed*float64(b.b.DBTime)))
		if s.db < 0 {
			return time.Duration(float64(-s.db) / float64(b.b.DBTime) * float64(time.Second)), portal.Errorf(portal.CodeRateLimited, msgOverBudget)
		}
	}
	if b.b.Rate > 0 {
		s.requests--
	}
	return 0, nil
}

// shareOf is tenant's share, made full on first use.
func (b *Budgets) shareOf(tenant portal.TenantID) *share {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.shares[tenant]
	if !ok {
		s = &share{requests: 2 * b.b.Rate, db: 2 * b.b.DBTime, last: b.now()}
		if b.b.Concurrent > 0 {
			s.slots = make(chan struct{}, b.b.Concurrent)
		}
		b.shares[tenant] = s
	}
	return s
}
