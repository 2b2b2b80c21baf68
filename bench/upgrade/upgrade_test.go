package upgrade

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// api is the records API's prefix (the default PORTICO_ERP and
// PORTICO_PRODUCT).
const api = "/api/v1/netsuite/"

// TestRollingUpgrade upgrades a deployment of two instances of the
// previous release (testdata/previous-release) to this tree on one
// PostgreSQL database, as docs/operations.md tells an operator to: start a
// new instance (it migrates the database while the old ones serve), then
// drain and stop an old one, start another new one, drain and stop the
// last old one; then one new instance is stopped undrained. Demo
// users read, create and edit throughout, each request sent to any
// instance up at that moment (and to another when its instance no longer
// takes connections, as a proxy does). It checks that
//   - no request gets a 5xx or a broken answer, from either release;
//   - every acknowledged create is stored exactly once, whichever release
//     took it, and the new release finds the old one's records by search;
//   - the database's schema floor still admits the previous release: its
//     migrations are expand steps (see internal/sqlstore/migrate.go).
func TestRollingUpgrade(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL unset: a rolling upgrade is of instances sharing PostgreSQL")
	}
	if testing.Short() {
		t.Skip("builds two releases")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	prev, next := buildReleases(t, ctx)
	d := database(t, ctx, base)
	if err := d.Seed(ctx, prev, "-projects", "300", "-per-kind", "100"); err != nil {
		t.Fatal(err)
	}
	db, err := d.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	prevSchema := schemaVersion(t, ctx, db)

	olds := start(t, ctx, prev, d, "previous")
	callers, err := harness.SignIn(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	pool := &pool{}
	for _, in := range olds {
		pool.add(in)
	}
	marker := "upgrade-" + randomHex(4) + "-"
	load := startLoad(pool, callers, marker, 6)

	// The operator's steps, a moment of load between each. An old
	// instance is taken out of the balancer before it is stopped, as an
	// operator drains it.
	time.Sleep(2 * time.Second)
	news := start(t, ctx, next, d, "next-1")
	pool.add(news[0])
	time.Sleep(2 * time.Second)
	drain(pool, olds[0])
	more := start(t, ctx, next, d, "next-2")
	news = append(news, more...)
	pool.add(more[0])
	time.Sleep(2 * time.Second)
	drain(pool, olds[1])
	time.Sleep(2 * time.Second)
	// This release stopped with no draining, under load: the requests in
	// flight finish and answer (the stopping instance's connections are
	// refused from the signal on, and go to the other).
	harness.Stop(news[:1])
	time.Sleep(time.Second)
	pool.remove(news[0].URL)
	s := load.stop()
	defer harness.Stop(news)

	for _, in := range append(olds, news[0]) {
		if in.Err != nil {
			t.Errorf("%s exited with %v; its log: %s", in.Name, in.Err, in.LogNote(2000))
		}
	}
	for _, in := range append(olds, news...) {
		if note := in.LogNote(2000); strings.Contains(note, "error") {
			t.Errorf("%s logged: %s", in.Name, note)
		}
	}
	t.Logf("%d requests (%d creates acknowledged, %d edits saved, %d edit conflicts), %d sent again to another instance",
		s.requests, len(s.created), s.saved, s.conflicts, s.redials)
	for _, f := range s.failures {
		t.Error(f)
	}
	if len(s.created) < 10 || s.saved < 5 || s.requests < 100 {
		t.Fatalf("too little load to tell: %d requests, %d creates, %d edits", s.requests, len(s.created), s.saved)
	}
	checkCreates(t, ctx, d, db, marker, s.created)
	checkFoundByNew(t, news[1].URL, callers[0], s.created)

	var floor int
	if err := db.QueryRowContext(ctx, `SELECT version FROM schema_floor`).Scan(&floor); err != nil {
		t.Fatal(err)
	}
	if floor > prevSchema {
		t.Errorf("this tree's migrations need binaries from schema %d on, and the previous release is at %d: they contract what it still uses, "+
			"so it cannot run beside them (make them expand steps, or see docs/operations.md for a contract release)", floor, prevSchema)
	}
	t.Logf("previous release at schema %d, upgraded to %d (floor %d)", prevSchema, schemaVersion(t, ctx, db), floor)
}

// drain takes in out of the pool, lets its requests in flight finish,
// and stops it.
func drain(p *pool, in *harness.Instance) {
	p.remove(in.URL)
	time.Sleep(500 * time.Millisecond)
	harness.Stop([]*harness.Instance{in})
}

// buildReleases builds the previous release (from git) and this tree,
// both without the web app (-tags noui): the test speaks to the API.
func buildReleases(t *testing.T, ctx context.Context) (prev, next string) {
	t.Helper()
	root, err := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("the rolling-upgrade test builds the previous release from git history: %v", err)
	}
	dir := t.TempDir()
	rev := previousRelease(t)
	src := filepath.Join(dir, "previous")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := exec.CommandContext(ctx, "sh", "-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", strings.TrimSpace(string(root)), rev, src)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("the previous release %s is not in this clone's history (a shallow clone?): %v\n%s", rev, err, out)
	}
	prev, next = filepath.Join(dir, "portico-previous"), filepath.Join(dir, "portico-next")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, b := range []struct{ src, out string }{{src, prev}, {strings.TrimSpace(string(root)), next}} {
		wg.Go(func() {
			cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-tags", "noui", "-o", b.out, "./cmd/portico")
			cmd.Dir = b.src
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("build %s: %v\n%s", b.src, err, out)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return prev, next
}

// previousRelease is the commit testdata/previous-release names.
func previousRelease(t *testing.T) string {
	body, err := os.ReadFile("testdata/previous-release")
	if err != nil {
		t.Fatal(err)
	}
	rev, _, _ := strings.Cut(string(body), "\n")
	return strings.TrimSpace(rev)
}

// database is a PostgreSQL database of the test's own on the server base
// names, dropped at the end.
func database(t *testing.T, ctx context.Context, base string) *harness.Database {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/portico_upgrade_" + randomHex(4)
	d, err := harness.NewDatabase("postgres", u.String(), t.TempDir(), "portico_upgrade_")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Recreate(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Remove(context.Background()) })
	return d
}

// start starts one instance of bin on d and waits for it to answer.
func start(t *testing.T, ctx context.Context, bin string, d *harness.Database, name string) []*harness.Instance {
	t.Helper()
	in, err := harness.StartInstances(bin, d, name, map[bool]int{true: 2, false: 1}[name == "previous"])
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range in {
		if err := i.WaitHealthy(ctx, time.Minute); err != nil {
			harness.Stop(in)
			t.Fatalf("%s did not come up: %v; its log: %s", i.Name, err, i.LogNote(2000))
		}
	}
	return in
}

func schemaVersion(t *testing.T, ctx context.Context, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// checkCreates finds every acknowledged create stored once, under the id
// its answer gave.
func checkCreates(t *testing.T, ctx context.Context, d *harness.Database, db *sql.DB, marker string, created map[string]int64) {
	t.Helper()
	rows, err := db.QueryContext(ctx, d.Rebind(`SELECT id, title FROM records WHERE tenant_id = ? AND title LIKE ?`), string(harness.Tenant), marker+"%")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[string][]int64{}
	for rows.Next() {
		var id int64
		var title string
		if err := rows.Scan(&id, &title); err != nil {
			t.Fatal(err)
		}
		stored[title] = append(stored[title], id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for title, id := range created {
		if got := stored[title]; len(got) != 1 || got[0] != id {
			t.Errorf("create %q answered 201 as id %d and is stored as %v", title, id, got)
		}
	}
}

// checkFoundByNew looks up, through a new instance's search, a sample of
// the records created during the upgrade (some by the previous release):
// what the older binary wrote has what the newer one reads beside it.
func checkFoundByNew(t *testing.T, base string, who harness.Caller, created map[string]int64) {
	t.Helper()
	c := &client{http: &http.Client{Timeout: 30 * time.Second}, who: who}
	n := 0
	for title := range created {
		if n++; n > 12 {
			break
		}
		var ans struct {
			Data struct {
				Rows []json.RawMessage `json:"rows"`
			}
		}
		status, text, err := c.do(base, "GET", "portal-list?type=projectrequest&q="+url.QueryEscape(title), nil, "", &ans)
		if err != nil || status != http.StatusOK || len(ans.Data.Rows) != 1 {
			t.Errorf("the new release's list search for %q: %d %v, %d rows: %s", title, status, err, len(ans.Data.Rows), harness.Truncate(text, 300))
		}
		status, text, err = c.do(base, "GET", "portal?method=search&query="+url.QueryEscape(title), nil, "", nil)
		if err != nil || status != http.StatusOK || !strings.Contains(text, title) {
			t.Errorf("the new release's global search for %q: %d %v: %s", title, status, err, harness.Truncate(text, 300))
		}
	}
}

// pool is the instances taking requests at the moment.
type pool struct {
	mu    sync.Mutex
	urls  []string
	names map[string]string // every instance's name by URL, those gone too
}

func (p *pool) add(in *harness.Instance) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.urls = append(p.urls, in.URL)
	if p.names == nil {
		p.names = map[string]string{}
	}
	p.names[in.URL] = in.Name
}

func (p *pool) name(u string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.names[u]
}

func (p *pool) remove(u string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, v := range p.urls {
		if v == u {
			p.urls = append(p.urls[:i], p.urls[i+1:]...)
			return
		}
	}
}

// pick is an instance of the pool, one not in tried while there is one.
func (p *pool) pick(rng *rand.Rand, tried map[string]bool) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var fresh []string
	for _, u := range p.urls {
		if !tried[u] {
			fresh = append(fresh, u)
		}
	}
	if len(fresh) == 0 {
		fresh = p.urls
	}
	return fresh[rng.IntN(len(fresh))]
}

// loadStats is what the load saw.
type loadStats struct {
	mu        sync.Mutex
	requests  int
	redials   int
	saved     int
	conflicts int
	created   map[string]int64 // title → id, of the acknowledged creates
	failures  []string
}

func (s *loadStats) fail(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) < 20 {
		s.failures = append(s.failures, fmt.Sprintf(format, args...))
	}
}

type load struct {
	stats *loadStats
	done  chan struct{}
	wg    sync.WaitGroup
}

// startLoad starts workers sending reads, creates of project requests
// and edits of projects as the signed-in callers, each to an instance of
// the pool.
func startLoad(p *pool, callers []harness.Caller, marker string, workers int) *load {
	l := &load{stats: &loadStats{created: map[string]int64{}}, done: make(chan struct{})}
	for w := range workers {
		l.wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			c := &client{http: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}},
				who: callers[w%len(callers)], pool: p, rng: rng, stats: l.stats}
			for n := 0; ; n++ {
				select {
				case <-l.done:
					return
				default:
				}
				switch n % 4 {
				case 0:
					c.create(fmt.Sprintf("%s%02d-%05d", marker, w, n))
				case 1:
					c.edit(int64(1 + rng.IntN(20)))
				default:
					c.read()
				}
			}
		})
	}
	return l
}

func (l *load) stop() *loadStats {
	close(l.done)
	l.wg.Wait()
	return l.stats
}

// client sends one worker's requests.
type client struct {
	http  *http.Client
	who   harness.Caller
	pool  *pool
	rng   *rand.Rand
	stats *loadStats
}

var reads = []string{
	"portal-list?type=project&pageSize=50",
	"portal-list?type=project&pageSize=50&sort=projectedtotal&dir=desc",
	"portal-list?type=projectrequest&pageSize=50&sort=custrecord_res_pr_date&dir=desc",
	"portal-record?type=project&id=7",
	"portal-record?type=project&id=7&tab=billing",
	"portal?method=search&query=" + url.QueryEscape("wetland"),
}

func (c *client) read() {
	c.send("GET", reads[c.rng.IntN(len(reads))], nil, "", nil)
}

func (c *client) create(title string) {
	fields := harness.CreateFields("projectrequest", title)
	body, _ := json.Marshal(map[string]any{"fields": fields})
	var ans struct{ Data struct{ ID int64 } }
	if c.send("POST", "portal-crud?type=projectrequest", body, "upgrade-"+title, &ans) == http.StatusCreated {
		c.stats.mu.Lock()
		c.stats.created[title] = ans.Data.ID
		c.stats.mu.Unlock()
	}
}

// edit renames a project based on the version it read: saved, or a 409
// when another worker saved it in between.
func (c *client) edit(id int64) {
	var view struct{ Data struct{ Version time.Time } }
	if c.send("GET", fmt.Sprintf("portal-record?type=project&id=%d", id), nil, "", &view) != http.StatusOK {
		return
	}
	body, _ := json.Marshal(map[string]any{"fields": map[string]string{"companyname": fmt.Sprintf("Upgraded %d", c.rng.IntN(1e6))}, "version": view.Data.Version})
	switch c.send("PUT", fmt.Sprintf("portal-crud?type=project&id=%d", id), body, "", nil) {
	case http.StatusOK:
		c.stats.mu.Lock()
		c.stats.saved++
		c.stats.mu.Unlock()
	case http.StatusConflict:
		c.stats.mu.Lock()
		c.stats.conflicts++
		c.stats.mu.Unlock()
	}
}

// send sends a request to an instance of the pool, to another while the
// one chosen is stopping and the request may be sent again (retryable;
// the others are tried first), and records anything
// but a 2xx (a 409 of an edit aside) as a failure. It returns the status.
func (c *client) send(method, path string, body []byte, key string, into any) int {
	tried := map[string]bool{}
	for try := 0; ; try++ {
		base := c.pool.pick(c.rng, tried)
		tried[base] = true
		status, text, err := c.do(base, method, path, body, key, into)
		c.stats.mu.Lock()
		c.stats.requests++
		c.stats.mu.Unlock()
		if err != nil && status == 0 && retryable(method, key, err) && try < 10 {
			c.stats.mu.Lock()
			c.stats.redials++
			c.stats.mu.Unlock()
			time.Sleep(50 * time.Millisecond)
			continue
		}
		switch {
		case err != nil:
			c.stats.fail("%s %s on %s: %d %v: %q", method, path, c.pool.name(base), status, err, harness.Truncate(text, 300))
		case status >= 300 && !(method == "PUT" && status == http.StatusConflict):
			c.stats.fail("%s %s on %s: %d %s", method, path, c.pool.name(base), status, harness.Truncate(text, 300))
		}
		return status
	}
}

// retryable says a request that got no answer may go to another
// instance, as a balancer sends it (nginx's proxy_next_upstream): it was
// never sent (the connection refused), or it is idempotent (a read, an
// edit, or a create with an Idempotency-Key) and its connection was reset before an
// answer (one accepted by the kernel but not by a stopping server).
func retryable(method, key string, err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return (method == http.MethodGet || method == http.MethodPut || key != "") && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF))
}

// do sends one request to base as the client's caller; a 2xx answer is
// decoded into into when given, any other is returned as text.
func (c *client) do(base, method, path string, body []byte, key string, into any) (int, string, error) {
	req, err := http.NewRequest(method, base+api+path, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+c.who.Token)
	req.Header.Set("X-Role-Id", fmt.Sprint(c.who.Role))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, "", err
	}
	if resp.StatusCode < 300 && into != nil {
		if err = json.Unmarshal(text, into); err != nil {
			err = fmt.Errorf("%w: %d, Content-Length %q", err, resp.StatusCode, resp.Header.Get("Content-Length"))
		}
	}
	return resp.StatusCode, string(text), err
}

func randomHex(n int) string {
	b := make([]byte, n)
	crand.Read(b)
	return hex.EncodeToString(b)
}
