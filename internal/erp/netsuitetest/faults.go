package netsuitetest

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Faults says which failures the fake injects. Rates are fractions of
// the requests that pass authentication and the concurrency limit (the
// token endpoint never fails); each request draws once for Throttle,
// ServerError, Unavailable and Drop together (so their sum is the
// fraction of requests that fail; it is capped at 1) and once for Slow.
type Faults struct {
	// Throttle answers 429 CONCURRENCY_LIMIT_EXCEEDED (a RESTlet: 400
	// SSS_REQUEST_LIMIT_EXCEEDED), as a busy account does.
	Throttle float64
	// ServerError answers 500 UNEXPECTED_ERROR.
	ServerError float64
	// Unavailable answers 503 with an HTML page, as NetSuite's load
	// balancers do during maintenance.
	Unavailable float64
	// Drop closes the connection without answering, before doing
	// anything.
	Drop float64
	// DropAfterWrite applies a record write (POST or PATCH) and then
	// closes the connection without answering, so the client cannot know
	// the write landed: what idempotency keys are for.
	DropAfterWrite float64
	// Slow delays a request by Latency before it is served; it keeps its
	// concurrency slot meanwhile.
	Slow    float64
	Latency time.Duration
	// Page makes one page of every SuiteQL query fail.
	Page PageFault
}

// PageFault fails SuiteQL requests for page Page (1-based: offset/limit +
// 1) of any query, Times times in all (0 means once), then serves that page
// normally again. With Truncate the answer is cut off in the middle of its
// body and the connection closed; otherwise it is a 500.
type PageFault struct {
	Page     int
	Times    int
	Truncate bool
}

// Stats counts what the fake served and injected since it started.
type Stats struct {
	Requests            int64 // every request received, the token endpoint's included
	Served              int64 // requests that reached an endpoint (whatever it answered)
	ConcurrencyRejected int64 // 429s for exceeding the concurrency limit
	AuthFailures        int64 // 401 INVALID_LOGIN answers
	MaxInFlight         int64 // the most requests in flight at once, rejected ones included
	Throttled           int64 // injected 429s
	ServerErrors        int64 // injected 500s
	Unavailable         int64 // injected 503s
	Dropped             int64 // connections closed without an answer
	DroppedAfterWrite   int64 // writes applied, then the connection closed
	Slowed              int64 // requests delayed
	PageFaults          int64 // SuiteQL pages failed or truncated
}

type counters struct {
	requests, served, concurrencyRejected, authFailures, maxInFlight atomic.Int64
	throttled, serverErrors, unavailable, dropped, droppedAfterWrite atomic.Int64
	slowed, pageFaults                                               atomic.Int64
}

func (c *counters) noteInFlight(n int64) {
	for {
		m := c.maxInFlight.Load()
		if n <= m || c.maxInFlight.CompareAndSwap(m, n) {
			return
		}
	}
}

// Stats returns the counters.
func (s *Server) Stats() Stats {
	c := &s.stats
	return Stats{
		Requests: c.requests.Load(), Served: c.served.Load(), ConcurrencyRejected: c.concurrencyRejected.Load(),
		AuthFailures: c.authFailures.Load(), MaxInFlight: c.maxInFlight.Load(), Throttled: c.throttled.Load(),
		ServerErrors: c.serverErrors.Load(), Unavailable: c.unavailable.Load(), Dropped: c.dropped.Load(),
		DroppedAfterWrite: c.droppedAfterWrite.Load(), Slowed: c.slowed.Load(), PageFaults: c.pageFaults.Load(),
	}
}

// SetFaults replaces the injected faults (the zero Faults injects none)
// and restarts the page fault's count.
func (s *Server) SetFaults(f Faults) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.cfg = f
	s.faults.pageLeft = max(f.Page.Times, 1)
}

type faultKind uint8

const (
	noFault faultKind = iota
	fault429
	fault500
	fault503
	faultDrop
)

// fault is what one request drew.
type fault struct {
	kind           faultKind
	delay          time.Duration
	dropAfterWrite bool
}

type faultState struct {
	mu       sync.Mutex
	rng      *rand.Rand
	cfg      Faults
	pageLeft int
}

func (fs *faultState) draw() fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	c := fs.cfg
	var f fault
	x := fs.rng.Float64()
	for _, k := range []struct {
		rate float64
		kind faultKind
	}{{c.Throttle, fault429}, {c.ServerError, fault500}, {c.Unavailable, fault503}, {c.Drop, faultDrop}} {
		if x < k.rate {
			f.kind = k.kind
			break
		}
		x -= k.rate
	}
	if c.Slow > 0 && fs.rng.Float64() < c.Slow {
		f.delay = c.Latency
	}
	f.dropAfterWrite = c.DropAfterWrite > 0 && fs.rng.Float64() < c.DropAfterWrite
	return f
}

// pageFault reports whether a SuiteQL request for the given page should
// fail, and whether by truncation; it spends one of the fault's times.
func (fs *faultState) pageFault(limit, offset int) (fail, truncate bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	p := fs.cfg.Page
	if p.Page <= 0 || fs.pageLeft <= 0 || offset/limit+1 != p.Page {
		return false, false
	}
	fs.pageLeft--
	return true, p.Truncate
}

// injectFault answers a drawn failure and reports whether it did.
func (s *Server) injectFault(w http.ResponseWriter, k faultKind, restlet bool) bool {
	switch k {
	case fault429:
		s.stats.throttled.Add(1)
		s.writeThrottled(w, restlet)
	case fault500:
		s.stats.serverErrors.Add(1)
		if restlet {
			writeRESTletError(w, http.StatusInternalServerError, "UNEXPECTED_ERROR", "An unexpected error occurred.")
		} else {
			writeError(w, newAPIError(http.StatusInternalServerError, "UNEXPECTED_ERROR",
				"An unexpected error occurred. Error ID: fake-"+strconv.FormatInt(s.stats.serverErrors.Load(), 10)))
		}
	case fault503:
		s.stats.unavailable.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("<html><body><h1>503 Service Unavailable</h1>NetSuite is undergoing maintenance.</body></html>"))
	case faultDrop:
		s.stats.dropped.Add(1)
		drop(w, nil)
	default:
		return false
	}
	return true
}

// drop closes the connection, after writing raw (the start of an answer)
// when it is not nil. Without a hijackable connection (HTTP/2) it answers
// 500 instead, the nearest failure it can produce.
func drop(w http.ResponseWriter, raw []byte) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		writeError(w, newAPIError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The connection was lost."))
		return
	}
	if raw != nil {
		_, _ = buf.Write(raw)
		_ = buf.Flush()
	}
	_ = conn.Close()
}
