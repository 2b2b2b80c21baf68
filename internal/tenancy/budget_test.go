package tenancy

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
)

// A tenant's requests beyond its concurrency wait for a slot, and are
// refused when none frees within the wait; another tenant's are not held
// up meanwhile.
func TestBudgetConcurrency(t *testing.T) {
	b := NewBudgets(Budget{Concurrent: 2, Wait: 50 * time.Millisecond})
	ctx := context.Background()
	var held []Ticket
	for range 2 {
		tk, err := b.Admit(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, tk)
	}
	start := time.Now()
	if _, err := b.Admit(ctx, "acme"); portal.ErrorCode(err) != portal.CodeRateLimited || time.Since(start) < 50*time.Millisecond {
		t.Errorf("a third request: %v after %s", err, time.Since(start))
	}
	other, err := b.Admit(ctx, "globex")
	if err != nil {
		t.Fatalf("another tenant: %v", err)
	}
	other.Done(0)
	// A slot freed while one waits goes to it.
	var wg sync.WaitGroup
	var waited error
	wg.Go(func() {
		tk, err := b.Admit(ctx, "acme")
		waited = err
		if err == nil {
			tk.Done(0)
		}
	})
	time.Sleep(10 * time.Millisecond)
	held[0].Done(0)
	wg.Wait()
	if waited != nil {
		t.Errorf("the waiting request: %v", waited)
	}
	held[1].Done(0)
}

// The request rate and the database time are buckets that refill with
// time: a tenant that spent them is refused (rate limited) until they
// have, and another tenant is not.
func TestBudgetRateAndDatabaseTime(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	b := NewBudgets(Budget{Rate: 2, DBTime: 100 * time.Millisecond})
	b.now = func() time.Time { return now }
	ctx := context.Background()
	for i := range 4 { // a burst of twice the rate
		tk, err := b.Admit(ctx, "acme")
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		tk.Done(0)
	}
	if _, err := b.Admit(ctx, "acme"); portal.ErrorCode(err) != portal.CodeRateLimited {
		t.Errorf("a fifth request at once: %v", err)
	}
	now = now.Add(500 * time.Millisecond) // one token back
	tk, err := b.Admit(ctx, "acme")
	if err != nil {
		t.Fatalf("half a second later: %v", err)
	}
	// Database time: a request that spent a second puts the tenant in
	// debt (a burst of 200 ms, refilled at 100 ms a second).
	tk.Done(time.Second)
	now = now.Add(5 * time.Second)
	if _, err := b.Admit(ctx, "acme"); portal.ErrorCode(err) != portal.CodeRateLimited {
		t.Errorf("in debt: %v", err)
	}
	if tk, err := b.Admit(ctx, "globex"); err != nil {
		t.Errorf("another tenant: %v", err)
	} else {
		tk.Done(0)
	}
	now = now.Add(4 * time.Second) // the debt paid back
	if tk, err := b.Admit(ctx, "acme"); err != nil {
		t.Errorf("after the debt: %v", err)
	} else {
		tk.Done(0)
	}
}
