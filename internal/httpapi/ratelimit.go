package httpapi

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/portico/portico/internal/portal"
)

// RateLimiter keeps rate limits that every instance sharing it enforces as
// one (the database, for instances behind a load balancer). Allow takes one
// event from the bucket named key, which refills at perMinute events a
// minute and holds at most burst; when none is left it answers false and
// how long until one is. Concurrent calls for one key, from any instance,
// never let more events through than one caller would. Keys are not
// secret and name their limit ("login:ip:192.0.2.7").
type RateLimiter interface {
	Allow(ctx context.Context, key string, perMinute, burst int, now time.Time) (ok bool, wait time.Duration, err error)
}

// signInLimit is one of the limits on sign-in and token upkeep. Its name
// keys its buckets in the shared RateLimiter; local enforces it in this
// process when there is no shared limiter or it fails.
type signInLimit struct {
	name      string
	perMinute int
	local     *limiter
}

func newSignInLimit(name string, perMinute int) signInLimit {
	return signInLimit{name: name, perMinute: perMinute, local: newLimiter(perMinute)}
}

// rateLimited takes one event of l for subject (a client address or an
// account), answering 429 with Retry-After when none is left. It returns
// whether to go on.
func (s *Server) rateLimited(w http.ResponseWriter, r *http.Request, l signInLimit, subject string) bool {
	ok, wait := s.take(r.Context(), l, subject, time.Now())
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		s.writeError(w, r, portal.Errorf(portal.CodeRateLimited, "Too many attempts. Please wait a moment and try again."))
	}
	return ok
}

// take asks the shared limiter when there is one. When it fails, sign-in
// stays open, limited per instance as before sharing (failing closed would
// lock everyone out while the database is down, and the database is also
// where sign-in itself is checked); the outage and the recovery are each
// logged once.
func (s *Server) take(ctx context.Context, l signInLimit, subject string, now time.Time) (bool, time.Duration) {
	if s.limits != nil {
		c, cancel := context.WithTimeout(ctx, s.dbTimeout)
		ok, wait, err := s.limits.Allow(c, l.name+":"+subject, l.perMinute, l.local.burst, now)
		cancel()
		if err == nil {
			if s.limitsDown.CompareAndSwap(true, false) {
				s.log.Info("shared rate limits answer again")
			}
			return ok, wait
		}
		if ctx.Err() == nil && s.limitsDown.CompareAndSwap(false, true) {
			s.log.Error("shared rate limits failed; limiting sign-in in this instance only", "err", err)
		}
	}
	return l.local.allow(subject, now)
}

// limiter is a set of token buckets, one per key (a client address or an
// account), in this process.
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
