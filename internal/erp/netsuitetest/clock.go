package netsuitetest

import (
	"sync"
	"time"
)

// Clock is a settable clock. Tests give the same one to the fake (Config.Now),
// to the TBA signer and to the sync engine, so that signature timestamps,
// last-modified times and the engine's own time agree, and move it on.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time; safe for concurrent use.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
