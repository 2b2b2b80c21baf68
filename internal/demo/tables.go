package demo

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"
)

// names is an append-only list of strings in one byte slice, indexed by
// record id (1-based). It holds the titles later kinds refer to (a
// million project titles): one backing array has no per-string header and
// no pointers for the garbage collector to scan.
type names struct {
	buf  []byte
	ends []int
}

func newNames(n, avg int) *names {
	return &names{buf: make([]byte, 0, n*avg), ends: make([]int, 0, n)}
}

func (ns *names) add(b []byte) {
	ns.buf = append(ns.buf, b...)
	ns.ends = append(ns.ends, len(ns.buf))
}

// get returns the name of record id. The slice aliases the list: callers
// copy it (appending it to a document or a title does).
func (ns *names) get(id int64) []byte {
	i := int(id - 1)
	start := 0
	if i > 0 {
		start = ns.ends[i-1]
	}
	return ns.buf[start:ns.ends[i]]
}

func (ns *names) len() int { return len(ns.ends) }

// calendar formats days (counted from the Unix epoch, UTC) as yyyy-mm-dd
// from a table built once per run, so the hot loop never formats a time.
type calendar struct {
	first int32    // day of dates[0]
	dates []string // yyyy-mm-dd of first, first+1, ...
}

// calendarPast and calendarFuture bound the days any record may carry
// relative to Options.Now: six years of history plus slack for hire dates,
// and the future of expected closes, schedules and insurance expiries.
const (
	calendarPast   = 7 * 366
	calendarFuture = 4 * 366
)

func newCalendar(nowDay int32) *calendar {
	c := &calendar{first: nowDay - calendarPast}
	c.dates = make([]string, calendarPast+calendarFuture+1)
	for i := range c.dates {
		c.dates[i] = time.Unix(int64(c.first+int32(i))*86400, 0).UTC().Format(time.DateOnly)
	}
	return c
}

// clamp keeps day within the table.
func (c *calendar) clamp(day int32) int32 {
	return min(max(day, c.first), c.first+int32(len(c.dates))-1)
}

func (c *calendar) date(day int32) string { return c.dates[c.clamp(day)-c.first] }

// appendTimestamp appends unix second sec as RFC 3339 UTC (…T15:04:05Z).
func (c *calendar) appendTimestamp(b []byte, sec int64) []byte {
	day := int32(sec / 86400)
	s := sec % 86400
	b = append(b, c.date(day)...)
	h, m, x := s/3600, s/60%60, s%60
	return append(b, 'T', byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10),
		':', byte('0'+x/10), byte('0'+x%10), 'Z')
}

// dayOf returns the day number of a calendar date.
func dayOf(year int, month time.Month, day int) int32 {
	return int32(time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// civil returns the year and month of a day number.
func civil(day int32) (int, time.Month) {
	y, m, _ := time.Unix(int64(day)*86400, 0).UTC().Date()
	return y, m
}

// streamFor returns the random stream of one part of the data. Each kind
// has its own stream (seeded by Options.Seed and the kind's name), so a
// change in how one kind is generated leaves the others' data unchanged.
func streamFor(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// skewed returns an index below n, small ones much more often: index 0
// comes about sqrt(1/n) of the time, the last about 1/n² as often. Lists
// ordered common-first thus yield common and rare words.
func skewed(r *rand.Rand, n int) int {
	u := r.Float64()
	return min(int(u*u*float64(n)), n-1)
}

// between returns a uniform integer in [lo, hi]; lo when hi < lo.
func between(r *rand.Rand, lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + r.Int64N(hi-lo+1)
}

// logUniform returns an amount in [lo, hi] whose logarithm is uniform:
// many small invoices and a few large ones, like real ledgers.
func logUniform(r *rand.Rand, lo, hi int64) int64 {
	v := math.Exp(math.Log(float64(lo)) + r.Float64()*(math.Log(float64(hi))-math.Log(float64(lo))))
	return min(max(int64(v), lo), hi)
}

// chance reports true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// weighted is one outcome of a weighted choice.
type weighted struct {
	name   string
	weight int
}

// choose picks a name with probability proportional to its weight.
func choose(r *rand.Rand, ws []weighted) string {
	total := 0
	for _, w := range ws {
		total += w.weight
	}
	n := r.IntN(total)
	for _, w := range ws {
		if n < w.weight {
			return w.name
		}
		n -= w.weight
	}
	return ws[len(ws)-1].name
}

// appendDigits appends v zero-padded to width digits.
func appendDigits(b []byte, v int64, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for v > 0 || i == len(tmp) {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	for n := len(tmp) - i; n < width; n++ {
		b = append(b, '0')
	}
	return append(b, tmp[i:]...)
}

// digits returns the number of decimal digits of v > 0.
func digits(v int64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}
