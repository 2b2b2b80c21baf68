package httpapi

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter is a set of token buckets, one per key (a client address or an
// account). It lives in the process: with several instances each enforces
// its own share, which still bounds guessing to a small multiple.
type limiter struct {
	mu      sync.Mutex
	every   rate.Limit
	burst   int
	buckets map[string]*bucket
	calls   int
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// newLimiter allows perMinute events a minute per key, in bursts of up to
// half that (at least one).
func newLimiter(perMinute int) *limiter {
	return &limiter{every: rate.Limit(float64(perMinute) / 60), burst: max(1, perMinute/2), buckets: map[string]*bucket{}}
}

// allow takes one event for key, or says how long until one is available.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls++; l.calls%1024 == 0 {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(l.every, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}
