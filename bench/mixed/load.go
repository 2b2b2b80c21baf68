package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// editPool is how many projects the edits go to (ids 1 to editPool): few
// enough that two editors now and then race for one record.
const editPool = 50

// api is the records API's prefix (the default PORTICO_ERP and
// PORTICO_PRODUCT).
const api = "/api/v1/netsuite/"

// The reads: list pages of several kinds with sorts and filters, record
// views and tabs, and global searches; all within what a project
// manager's role may see.
var (
	listPages = []string{
		"portal-list?type=project&pageSize=50",
		"portal-list?type=project&pageSize=50&sort=entitystatus",
		"portal-list?type=project&pageSize=50&sort=projectedtotal&dir=desc",
		"portal-list?type=project&pageSize=50&filter=" + url.QueryEscape("entitystatus eq Active"),
		"portal-list?type=project&pageSize=50&q=wetland",
		"portal-list?type=customer&pageSize=50&sort=balance&dir=desc",
		"portal-list?type=customrecord_res_opportunity&pageSize=50&filter=" + url.QueryEscape("custrecord_res_opp_stage eq Proposal"),
		"portal-list?type=projectrequest&pageSize=50&sort=custrecord_res_pr_date&dir=desc",
		"portal-list?type=budget&pageSize=50&sort=custrecord_res_bud_amount&dir=desc",
	}
	searches = []string{"wetland", "cedar", "etlan", "proj: wetland", "cus: cedar", "42"}
)

// recordView is a record's page: a project (with its billing tab now and
// then), a client or an opportunity. Every demo kind has at least 1000
// records.
func recordView(rng *rand.Rand, projects int) string {
	switch n := rng.IntN(10); {
	case n < 5:
		return fmt.Sprintf("portal-record?type=project&id=%d", 1+rng.IntN(projects))
	case n < 7:
		return fmt.Sprintf("portal-record?type=project&id=%d&tab=billing", 1+rng.IntN(projects))
	case n < 9:
		return fmt.Sprintf("portal-record?type=customer&id=%d", 1+rng.IntN(1000))
	default:
		return fmt.Sprintf("portal-record?type=customrecord_res_opportunity&id=%d", 1+rng.IntN(1000))
	}
}

func searchPath(q string) string { return "portal?method=search&query=" + url.QueryEscape(q) }

// workload is what one mix's connections do.
type workload struct {
	base         string // the instance or the proxy
	callers      []harness.Caller
	projects     int
	writePercent int
	marker       string // the title prefix of this configuration's writes
}

// stats is what a mix measured, and the writes it made, for the check.
type stats struct {
	elapsed   time.Duration
	requests  int
	all       []time.Duration // every answered request
	writes    []time.Duration // creates and edit saves
	errors    map[string]int  // by method and status, or transport failure
	examples  map[string]string
	conflicts int // edits answered 409
	creates   []create
	edits     []edit
}

// create is one create sent, with its marker (the record's title).
type create struct {
	marker, kind string
	id           int64
	acked        bool
}

// edit is one edit sent: the project, its new name (a marker), the version
// it was based on and, when acknowledged, the version it made.
type edit struct {
	id            int64
	marker        string
	base, version time.Time
	acked         bool
}

func newStats() *stats { return &stats{errors: map[string]int{}, examples: map[string]string{}} }

func (s *stats) fail(what, example string) {
	if s.errors[what]++; s.errors[what] == 1 {
		s.examples[what] = harness.Truncate(strings.TrimSpace(example), 300)
	}
}

func (s *stats) add(o *stats) {
	s.requests += o.requests
	s.all = append(s.all, o.all...)
	s.writes = append(s.writes, o.writes...)
	for k, n := range o.errors {
		if s.errors[k] == 0 {
			s.examples[k] = o.examples[k]
		}
		s.errors[k] += n
	}
	s.conflicts += o.conflicts
	s.creates = append(s.creates, o.creates...)
	s.edits = append(s.edits, o.edits...)
}

// rate is the requests a second.
func (s *stats) rate() float64 { return float64(s.requests) / s.elapsed.Seconds() }

func (s *stats) errorCount() int {
	n := 0
	for _, v := range s.errors {
		n += v
	}
	return n
}

func (s *stats) acked() (creates, edits int) {
	for _, c := range s.creates {
		if c.acked {
			creates++
		}
	}
	for _, e := range s.edits {
		if e.acked {
			edits++
		}
	}
	return creates, edits
}

// percentiles returns the p50 and p99 of ds (sorting it).
func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], ds[len(ds)*99/100]
}

// run drives conns connections for d and returns what they measured.
func (w *workload) run(ctx context.Context, conns int, d time.Duration) *stats {
	client := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxConnsPerHost: conns, MaxIdleConnsPerHost: conns},
	}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	total := newStats()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := range conns {
		wg.Go(func() {
			c := &conn{w: w, client: client, id: i, who: w.callers[i%len(w.callers)],
				rng: rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano()))), s: newStats()}
			for ctx.Err() == nil {
				c.step()
			}
			mu.Lock()
			total.add(c.s)
			mu.Unlock()
		})
	}
	wg.Wait()
	total.elapsed = time.Since(start)
	return total
}

// conn is one client connection's loop.
type conn struct {
	w      *workload
	client *http.Client
	id     int
	n      int // writes made, for unique markers
	who    harness.Caller
	rng    *rand.Rand
	s      *stats
}

// step does one operation of the mix: a create, an edit (a read and a
// save), or a read.
func (c *conn) step() {
	switch r := c.rng.IntN(100); {
	case r < c.w.writePercent/2:
		c.create()
	case r < c.w.writePercent:
		c.edit()
	default:
		c.read()
	}
}

func (c *conn) read() {
	var path string
	switch n := c.rng.IntN(20); {
	case n < 8:
		path = listPages[c.rng.IntN(len(listPages))]
	case n < 15:
		path = recordView(c.rng, c.w.projects)
	default:
		path = searchPath(searches[c.rng.IntN(len(searches))])
	}
	c.do("GET", path, nil, "", nil)
}

// create adds a record of a kind the caller's role may create, its title
// a marker unique to this attempt, with an Idempotency-Key.
func (c *conn) create() {
	c.n++
	kind := c.who.Creates[c.rng.IntN(len(c.who.Creates))]
	marker := fmt.Sprintf("%sc%d-%d", c.w.marker, c.id, c.n)
	body, _ := json.Marshal(map[string]any{"fields": harness.CreateFields(kind, marker)})
	var ans struct{ Data struct{ ID int64 } }
	key := "bench-" + strings.ReplaceAll(marker, " ", "-")
	status := c.do("POST", "portal-crud?type="+kind, body, key, &ans)
	c.s.creates = append(c.s.creates, create{marker: marker, kind: kind, id: ans.Data.ID, acked: status == http.StatusCreated})
}

// edit reads one of the first editPool projects and renames it to a
// marker, based on the version it read.
func (c *conn) edit() {
	c.n++
	id := int64(1 + c.rng.IntN(editPool))
	var view struct{ Data struct{ Version time.Time } }
	if c.do("GET", fmt.Sprintf("portal-record?type=project&id=%d", id), nil, "", &view) != http.StatusOK {
		return
	}
	e := edit{id: id, marker: fmt.Sprintf("%se%d-%d", c.w.marker, c.id, c.n), base: view.Data.Version}
	body, _ := json.Marshal(map[string]any{"fields": map[string]string{"companyname": e.marker}, "version": e.base})
	var saved struct{ Data struct{ Version time.Time } }
	status := c.do("PUT", fmt.Sprintf("portal-crud?type=project&id=%d", id), body, "", &saved)
	e.acked, e.version = status == http.StatusOK, saved.Data.Version
	if status == http.StatusConflict {
		c.s.conflicts++
	}
	c.s.edits = append(c.s.edits, e)
}

// do sends one request as the connection's caller, records its latency
// and, unless it is an edit's 409, any failure; it decodes a success into
// into when given. It returns the status, 0 when no answer came.
func (c *conn) do(method, path string, body []byte, idempotencyKey string, into any) int {
	req, _ := http.NewRequest(method, c.w.base+api+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+c.who.Token)
	req.Header.Set("X-Role-Id", fmt.Sprint(c.who.Role))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	c.s.requests++
	t0 := time.Now()
	resp, err := c.client.Do(req)
	if err != nil {
		c.s.fail(method+" no answer", err.Error())
		return 0
	}
	defer resp.Body.Close()
	var readErr error
	var text []byte
	switch {
	case resp.StatusCode < 300 && into != nil:
		readErr = json.NewDecoder(resp.Body).Decode(into)
	case resp.StatusCode < 300:
		_, readErr = io.Copy(io.Discard, resp.Body)
	default:
		text, readErr = io.ReadAll(io.LimitReader(resp.Body, 2000))
	}
	took := time.Since(t0)
	if readErr != nil {
		c.s.fail(method+" answer cut off", readErr.Error())
		return 0
	}
	c.s.all = append(c.s.all, took)
	if method != "GET" {
		c.s.writes = append(c.s.writes, took)
	}
	if resp.StatusCode >= 300 && !(method == "PUT" && resp.StatusCode == http.StatusConflict) {
		c.s.fail(fmt.Sprintf("%s %d", method, resp.StatusCode), path+": "+string(text))
	}
	return resp.StatusCode
}

// preflight checks every read the mix makes answers 200, so a mistake in
// the benchmark is not measured as the server's error.
func (w *workload) preflight(ctx context.Context) error {
	paths := append([]string{"portal-record?type=project&id=1&tab=billing"}, listPages...)
	for _, q := range searches {
		paths = append(paths, searchPath(q))
	}
	for _, who := range w.callers {
		for _, p := range paths {
			req, _ := http.NewRequestWithContext(ctx, "GET", w.base+api+p, nil)
			req.Header.Set("Authorization", "Bearer "+who.Token)
			req.Header.Set("X-Role-Id", fmt.Sprint(who.Role))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			text, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("preflight %s as role %d: %s: %s", p, who.Role, resp.Status, harness.Truncate(string(text), 300))
			}
		}
	}
	return nil
}
