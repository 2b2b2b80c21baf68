// Command bench measures the records API under load, the way issue 5 asks:
// a million projects (portico seed -projects 1000000, built once and kept
// in bench/out), the real server on loopback with a real session token and
// role header, 50 concurrent connections per case, req/s and p50/p99 — next
// to a bare handler that runs the same SQL with no auth, no framework and
// plain JSON, the floor the product's own layers add to.
//
//	go run ./bench [-projects 1000000] [-duration 5s] [-conns 50] [-only mixed]
//	go run ./bench -database postgres://127.0.0.1/bench [-search-projects 200000] [-search-conns 1,10] [-rounds 3]
//
// -only mixed runs only the mixed load beside hostile filter clients (issue 17);
// -only rules the access-rule cases, -only "rules global search" those of them
// whose name starts so.
// -database runs only the global search cases, on SQLite and on that
// PostgreSQL database side by side at the same size (issue 15; the database
// is the bench's own: seeded once, kept for later runs).
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/httpapi"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

func main() {
	projects := flag.Int("projects", 1_000_000, "projects in the benchmark database")
	duration := flag.Duration("duration", 5*time.Second, "load per case")
	conns := flag.Int("conns", 50, "concurrent connections")
	dir := flag.String("dir", "bench/out", "where the benchmark database is kept between runs")
	flag.StringVar(&profileCase, "cpuprofile-case", "", "write a CPU profile of the case whose name starts with this to bench/out/<case>.pprof (with -serve, \"serve\" profiles the server until it is interrupted)")
	flag.StringVar(&only, "only", "", "run only the cases whose name starts with this")
	database := flag.String("database", "", "a PostgreSQL URL: compare the search cases on SQLite and on it (a scratch database, seeded once)")
	searchProjects := flag.Int("search-projects", 200_000, "projects in both databases of the -database comparison")
	searchConns := flag.String("search-conns", "1,10", "concurrent connections of the -database comparison, comma-separated")
	rounds := flag.Int("rounds", 3, "alternating SQLite/PostgreSQL rounds per case of the -database comparison (medians reported)")
	flag.BoolVar(&serveOnly, "serve", false, "only serve the product over the benchmark database until interrupted, printing its URL and headers, for an outside load tool or a side-by-side with another server")
	flag.Parse()
	profileDir = *dir
	err := error(nil)
	if *database != "" {
		err = compareSearch(*database, *searchProjects, *dir, *searchConns, *rounds, *duration)
	} else {
		err = run(*projects, *duration, *conns, *dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

const tenant portal.TenantID = "portico-demo"

var profileCase, only string

// profileDir is where startProfile writes (the -dir flag).
var profileDir string

// serveOnly: the product is served, no case is run.
var serveOnly bool

func run(projects int, duration time.Duration, conns int, dir string) error {
	ctx := context.Background()
	dataDir := filepath.Join(dir, fmt.Sprintf("projects-%d", projects))
	store, err := openSeeded(ctx, "", dataDir, projects)
	if err != nil {
		return err
	}
	defer store.Close()
	product, token, err := serve(ctx, store)
	if err != nil {
		return err
	}
	if serveOnly {
		fmt.Printf("%s\nAuthorization: Bearer %s\nX-Role-Id: %s\n", product, token, adaRole)
		stop := startProfile(dir, "serve") // -cpuprofile-case serve: until interrupted
		interrupted := make(chan os.Signal, 1)
		signal.Notify(interrupted, os.Interrupt, syscall.SIGTERM)
		<-interrupted
		stop()
		return nil
	}
	bare, err := listen(bareHandler(dataDir))
	if err != nil {
		return err
	}

	deep, err := deepCursor(product, token)
	if err != nil {
		return err
	}
	list := "/api/v1/netsuite/portal-list?type=project&pageSize=50"
	// A list showing the document fields a non-default sort needs.
	wide := list + "&columns=companyname,entityid,entitystatus,customer,percentcomplete,projectedenddate"
	_, rare, err := searchQueries(ctx, store.Tenant(tenant))
	if err != nil {
		return err
	}
	cases := []struct{ name, path, bare string }{
		{"project list, default sort (name)", list, "/list?sort=title"},
		{"sorted by project id", list + "&sort=entityid", "/list?sort=code"},
		{"sorted by status", list + "&sort=entitystatus", "/list?sort=status"},
		{"sorted by contract value", list + "&sort=projectedtotal&dir=desc", "/list?sort=amount"},
		{"sorted by start date", list + "&sort=startdate", "/list?sort=date"},
		{"sorted by % complete (a document field)", wide + "&sort=percentcomplete&dir=desc", "/list?sort=percent&wide=1"},
		{"sorted by projected end (a document field)", wide + "&sort=projectedenddate", "/list?sort=end&wide=1"},
		{"sorted by client name (a reference)", wide + "&sort=customer", "/list?sort=client&wide=1"},
		{"status = Active, sorted by name", list + "&filter=" + url.QueryEscape("entitystatus eq Active"), "/list?sort=title&status=Active"},
		{"page 1000 (cursor)", list + "&cursor=" + deep, "/list?sort=title&after=deep"},
		{"page of 50 with the total and totals", list + "&count=true&totals=true", "/list?sort=title&count=1"},
		{"text filter, common word \"wetland\", 10 rows", list[:len(list)-2] + "10&q=wetland", "/list?sort=title&q=wetland&limit=10"},
		{"text filter, rare word \"" + rare + "\", 10 rows", list[:len(list)-2] + "10&q=" + url.QueryEscape(rare), "/list?sort=title&q=" + url.QueryEscape(rare) + "&limit=10"},
		{"record view", "/api/v1/netsuite/portal-record?type=project&id=500000", "/record?id=500000"},
		{"project billing tab", "/api/v1/netsuite/portal-record?type=project&id=9&tab=billing", "/tab?id=9"},
	}
	fmt.Printf("\n%d concurrent connections, %s per case, %s\n", conns, duration, describeMachine())
	header := false
	for _, c := range cases {
		if !strings.HasPrefix(c.name, only) {
			continue
		}
		if !header {
			fmt.Println("\n| case | product req/s | p50 | p99 | bare req/s | product / bare |")
			fmt.Println("|---|---|---|---|---|---|")
			header = true
		}
		stop := startProfile(dir, c.name)
		p := load(product+c.path, token, conns, duration)
		stop()
		b := load(bare+c.bare, "", conns, duration)
		fmt.Printf("| %s | %.0f | %s | %s | %.0f | %.0f%% |\n", c.name, p.rps, ms(p.p50), ms(p.p99), b.rps, 100*p.rps/b.rps)
		if p.errors > 0 || b.errors > 0 {
			fmt.Printf("|   errors: product %d, bare %d |\n", p.errors, b.errors)
		}
	}
	if strings.HasPrefix(rulesName, only) || strings.HasPrefix(only, rulesName) {
		if err := ruleCases(ctx, store, product, conns, duration); err != nil {
			return err
		}
	}
	if strings.HasPrefix(only, rulesName) {
		return nil
	}
	if strings.HasPrefix(mixedName, only) || strings.HasPrefix(only, mixedName) {
		if err := mixedCases(product, token, dataDir, conns, duration); err != nil {
			return err
		}
	}
	if strings.HasPrefix(only, mixedName) {
		return nil
	}
	return searchCases(ctx, store.Tenant(tenant), product, token, dataDir, conns, duration)
}

// openSeeded opens the database at url ("" is SQLite under dataDir) and
// seeds it with projects once: kept for later runs.
func openSeeded(ctx context.Context, url, dataDir string, projects int) (*sqlstore.Store, error) {
	store, err := sqlstore.Open(ctx, url, dataDir)
	if err != nil {
		return nil, err
	}
	ten := store.Tenant(tenant)
	if n, _ := ten.CountRecords(ctx, "project"); n < int64(projects) {
		fmt.Printf("seeding %d projects into the %s database (once; kept for later runs) ...\n", projects, store.Engine())
		start := time.Now()
		store.EnsureTenant(ctx, tenant, demo.CompanyName)
		err := ten.ImportAccess(ctx, demo.Access())
		if err == nil {
			err = store.BulkLoad(ctx, func() error {
				_, err := demo.Generate(ctx, ten, demo.Options{Projects: projects, PerKind: 1000})
				return err
			})
		}
		if err != nil {
			store.Close()
			return nil, err
		}
		fmt.Printf("seeded in %s\n", time.Since(start).Round(time.Second))
	}
	return store, nil
}

// serve starts the product on loopback over store: the real handler with a
// real session for Ada, Administrator. It returns its base URL and Ada's
// access token.
func serve(ctx context.Context, store *sqlstore.Store) (base, token string, err error) {
	// The collector's target portico serve sets (GOGC, when given, rules).
	cfg, _, err := config.Load(os.Getenv, nil, nil)
	if err != nil {
		return "", "", err
	}
	if cfg.GCPercent > 0 {
		debug.SetGCPercent(cfg.GCPercent)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sessions := sessionsOf(ctx, store)
	verifier, _ := identity.NewVerifier(ctx, identity.Config{ProjectID: "demo-bench", EmulatorHost: "unused"}, log)
	h, err := httpapi.NewServer(httpapi.Options{
		Logger: log, Store: store, Identity: verifier, Sessions: sessions,
		Tenants: func(t portal.TenantID) httpapi.TenantStore { return store.Tenant(t) },
		ERP:     "netsuite", Product: "portal", ERPBaseURL: "https://system.netsuite.com",
		LoginPerMinuteIP: 60, LoginPerMinuteAccount: 60, SessionCacheTTL: time.Second, // the default
	})
	if err != nil {
		return "", "", err
	}
	ada, err := store.Tenant(tenant).UserByEmail(ctx, "ada.admin@portico.test")
	if err != nil {
		return "", "", err
	}
	tokens, _, err := sessions.Issue(ctx, tenant, ada.ID)
	if err != nil {
		return "", "", err
	}
	base, err = listen(h)
	return base, tokens.Access, err
}

// sessionsOf is the session manager of the product's processes on store
// (the key the database holds): its tokens are good on any of them.
func sessionsOf(ctx context.Context, store *sqlstore.Store) *session.Manager {
	key, _ := store.Secret(ctx, "session-signing-key", 32)
	return session.NewManager(func(t portal.TenantID) session.Store { return store.Tenant(t) }, session.Options{
		Key: key, AccessTTL: time.Hour, RefreshTTL: time.Hour, MaxAge: 2 * time.Hour,
	})
}

// adaRole is the role the bench's session acts in: Ada's Administrator.
const adaRole = "1001"

const mixedName = "mixed"

// mixedCases measures issue 17's finding 1: a normal mix of list pages,
// searches and record views at conns connections, alone and with 4
// clients beside it sending a hostile combined filter — a saved list of 8
// OR terms and a request of 111 (888 conjunctions when multiplied out; a
// 400 under the cost bound) — and the largest filter the bound lets
// through (8 and 50 terms). It prints the normal traffic's req/s and p99.
func mixedCases(product, token, dataDir string, conns int, duration time.Duration) error {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "portico.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	// Clients that own projects: the hostile terms name real ones, so each
	// page walks the title index past the other clients' projects.
	rows, err := db.Query(`SELECT DISTINCT parent_id FROM records WHERE tenant_id = ? AND kind = 'project' AND parent_id IS NOT NULL ORDER BY parent_id LIMIT 111`, string(tenant))
	if err != nil {
		return err
	}
	var clients []string
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		clients = append(clients, fmt.Sprint(id))
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(clients) < 8 {
		return fmt.Errorf("clients with projects: %d, %v", len(clients), err)
	}
	terms := func(n int) string {
		t := make([]string, n)
		for i := range t {
			t[i] = "customer eq " + clients[(i*7)%len(clients)]
		}
		return strings.Join(t, " or ")
	}
	if n := len(terms(111)); n > records.MaxFilterLength {
		return fmt.Errorf("the hostile filter is %d characters, over the %d every filter may have: it would measure the length check", n, records.MaxFilterLength)
	}
	body, _ := json.Marshal(map[string]any{"name": "bench: 8 clients", "columns": []string{"companyname", "customer"}, "filter": terms(8), "visibility": "private"})
	req, _ := http.NewRequest("POST", product+"/api/v1/netsuite/listConfiguration?type=project", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Role-Id", adaRole)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	var saved struct{ Data struct{ ID string } }
	json.NewDecoder(resp.Body).Decode(&saved)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		return fmt.Errorf("save the hostile list: %s", resp.Status)
	}
	list := "/api/v1/netsuite/portal-list?type=project&pageSize=50"
	normal := []string{
		list, list + "&sort=entitystatus", list + "&filter=" + url.QueryEscape("entitystatus eq Active"),
		"/api/v1/netsuite/portal?method=search&query=wetland", "/api/v1/netsuite/portal?method=search&query=proj%3A+cedar",
		"/api/v1/netsuite/portal-record?type=project&id=500000", "/api/v1/netsuite/portal-record?type=project&id=123457",
		"/api/v1/netsuite/portal-record?type=project&id=9&tab=billing",
	}
	for i := range normal {
		normal[i] = product + normal[i]
	}
	hostile := func(n int) []string {
		return []string{product + list + "&list=" + saved.Data.ID + "&filter=" + url.QueryEscape(terms(n))}
	}
	const hostileClients = 4
	fmt.Printf("\nMixed load (issue 17): %d connections of lists, searches and record views, %s per case\n\n", conns, duration)
	fmt.Println("| case | normal req/s | p50 | p99 | hostile req/s | hostile answers |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, c := range []struct {
		name    string
		hostile []string
	}{
		{mixedName + ", alone", nil},
		{mixedName + " + 4 clients: saved 8 OR terms × request 111", hostile(111)},
		{mixedName + " + 4 clients: saved 8 OR terms × request 50 (the most a filter may have)", hostile(50)},
	} {
		var h result
		var wg sync.WaitGroup
		if c.hostile != nil {
			wg.Add(1)
			go func() { defer wg.Done(); h = loadMix(c.hostile, token, adaRole, hostileClients, duration) }()
		}
		n := loadMix(normal, token, adaRole, conns, duration)
		wg.Wait()
		hostileCol := "–"
		if c.hostile != nil {
			hostileCol = fmt.Sprintf("%.1f", h.rps)
		}
		fmt.Printf("| %s | %.0f | %s | %s | %s | %s |\n", c.name, n.rps, ms(n.p50), ms(n.p99), hostileCol, h.statuses())
		if n.errors > 0 {
			fmt.Printf("|   normal traffic errors: %d (%s) |\n", n.errors, n.statuses())
		}
	}
	return nil
}

// searchCase is one global search query.
type searchCase struct{ name, query string }

// searchQueries are the search cases: common and rare terms, a number,
// text inside words, and kind prefixes. The rare term is a generated tract
// name found through the store, so the cases are the same on either engine
// for the same seed.
func searchQueries(ctx context.Context, ten *sqlstore.Tenant) (cases []searchCase, rare string, err error) {
	page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: " Tract", Limit: 1})
	if err != nil || len(page.Records) == 0 {
		return nil, "", fmt.Errorf("find a rare term: %v", err)
	}
	tract := strings.Fields(page.Records[0].Title)
	rare = tract[0]
	for i, w := range tract {
		if w == "Tract" && i > 0 {
			rare = tract[i-1]
		}
	}
	count := func(term string) int64 {
		n, _ := ten.CountMatching(ctx, records.ListQuery{Kind: "project", Text: term})
		return n
	}
	return []searchCase{
		{fmt.Sprintf("common term %q (%d projects)", "wetland", count("wetland")), "wetland"},
		{fmt.Sprintf("rare term %q (%d projects)", rare, count(rare)), rare},
		{"a number (project id)", "424242"},
		{"inside words: \"etlan\"", "etlan"},
		{"prefix proj: + common term", "proj: wetland"},
		{"prefix proj: + rare term", "proj: " + rare},
		{"prefix proj: + a number", "proj: 424242"},
		{"prefix cus: + common term", "cus: cedar"},
		{"prefix emp: + a term no employee has", "emp: wetland"},
	}, rare, nil
}

const searchPath = "/api/v1/netsuite/portal?method=search&query="

// searchCases measures the global search (issue 7): typeahead queries at
// conns connections, then the unloaded latency of one query next to a
// plain substring scan (LIKE '%term%') over the million project names.
func searchCases(ctx context.Context, ten *sqlstore.Tenant, product, token, dataDir string, conns int, duration time.Duration) error {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "portico.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	cases, rare, err := searchQueries(ctx, ten)
	if err != nil {
		return err
	}
	fmt.Printf("\nGlobal search, %d concurrent connections, %s per case\n\n", conns, duration)
	fmt.Println("| query | req/s | p50 | p99 | results |")
	fmt.Println("|---|---|---|---|---|")
	for _, c := range cases {
		if !strings.HasPrefix(c.name, only) {
			continue
		}
		var ans struct{ Data []json.RawMessage }
		if err := getJSON(product+searchPath+url.QueryEscape(c.query), token, &ans); err != nil {
			return err
		}
		stop := startProfile(filepath.Dir(dataDir), c.name)
		p := load(product+searchPath+url.QueryEscape(c.query), token, conns, duration)
		stop()
		fmt.Printf("| %s | %.0f | %s | %s | %d |\n", c.name, p.rps, ms(p.p50), ms(p.p99), len(ans.Data))
		if p.errors > 0 {
			fmt.Printf("|   errors: %d |\n", p.errors)
		}
	}
	// Unloaded: one connection, the index vs a full scan of the names.
	indexed := load(product+searchPath+url.QueryEscape(rare), token, 1, duration)
	var scan []time.Duration
	for range 5 {
		t0 := time.Now()
		rows, err := db.QueryContext(ctx, `SELECT id, title FROM records WHERE tenant_id = ? AND kind = 'project' AND title LIKE ? ORDER BY modified_at DESC LIMIT 20`, string(tenant), "%"+rare+"%")
		if err != nil {
			return err
		}
		for rows.Next() {
		}
		rows.Close()
		scan = append(scan, time.Since(t0))
	}
	sort.Slice(scan, func(i, j int) bool { return scan[i] < scan[j] })
	fmt.Printf("\nOne connection, rare term: search API p50 %s; plain substring scan (LIKE over the names, newest 20, SQL only) p50 %s: %.0fx faster\n",
		ms(indexed.p50), ms(scan[len(scan)/2]), float64(scan[len(scan)/2])/float64(indexed.p50))
	return nil
}

// compareSearch runs the search cases on SQLite (under dir) and on the
// PostgreSQL database at pgURL, both seeded with projects, at each number
// of connections in connList: rounds rounds a case, the engines' order
// alternating, each engine's p50 and p99 the median over its rounds. The
// last column says whether both engines answered the same results in the
// same order.
func compareSearch(pgURL string, projects int, dir, connList string, rounds int, duration time.Duration) error {
	ctx := context.Background()
	var levels []int
	for _, f := range strings.Split(connList, ",") {
		var n int
		if _, err := fmt.Sscan(f, &n); err != nil || n < 1 {
			return fmt.Errorf("-search-conns %q: want numbers of connections, comma-separated", connList)
		}
		levels = append(levels, n)
	}
	type engine struct{ name, base, token string }
	var engines []engine
	var cases []searchCase
	for _, dbURL := range []string{"", pgURL} {
		store, err := openSeeded(ctx, dbURL, filepath.Join(dir, fmt.Sprintf("projects-%d", projects)), projects)
		if err != nil {
			return err
		}
		defer store.Close()
		if cases == nil {
			if cases, _, err = searchQueries(ctx, store.Tenant(tenant)); err != nil {
				return err
			}
		}
		base, token, err := serve(ctx, store)
		if err != nil {
			return err
		}
		engines = append(engines, engine{store.Engine(), base, token})
	}
	fmt.Printf("\nGlobal search, SQLite and PostgreSQL, %d projects each, %s per run, median of %d alternating rounds, %s\n",
		projects, duration, rounds, describeMachine())
	fmt.Println("\n| query | conns | SQLite p50 | SQLite p99 | PostgreSQL p50 | PostgreSQL p99 | p99 PostgreSQL / SQLite | same results |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	var failed []string
	for _, conns := range levels {
		for _, c := range cases {
			if !strings.HasPrefix(c.name, only) {
				continue
			}
			answers := make([]string, len(engines))
			p50s, p99s := make([][]time.Duration, len(engines)), make([][]time.Duration, len(engines))
			for i, e := range engines {
				var ans struct{ Data []json.RawMessage }
				if err := getJSON(e.base+searchPath+url.QueryEscape(c.query), e.token, &ans); err != nil {
					return err
				}
				b, _ := json.Marshal(ans.Data)
				answers[i] = string(b)
			}
			for r := range rounds {
				for j := range engines {
					i := (j + r) % len(engines)
					e := engines[i]
					p := load(e.base+searchPath+url.QueryEscape(c.query), e.token, conns, duration)
					if p.errors > 0 {
						failed = append(failed, fmt.Sprintf("%s, %d connections, %s: %d errors (%s)", c.name, conns, e.name, p.errors, p.statuses()))
					}
					p50s[i], p99s[i] = append(p50s[i], p.p50), append(p99s[i], p.p99)
				}
			}
			sq50, sq99, pg50, pg99 := median(p50s[0]), median(p99s[0]), median(p50s[1]), median(p99s[1])
			same := "yes"
			if answers[0] != answers[1] {
				same = "no"
			}
			fmt.Printf("| %s | %d | %s | %s | %s | %s | %.1f× | %s |\n", c.name, conns, ms(sq50), ms(sq99), ms(pg50), ms(pg99),
				float64(pg99)/float64(sq99), same)
		}
	}
	for _, f := range failed {
		fmt.Println("\nerrors:", f)
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// startProfile starts a CPU profile when name is the -cpuprofile-case.
func startProfile(dir, name string) func() {
	if profileCase == "" || !strings.HasPrefix(name, profileCase) {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".pprof"))
	if err != nil {
		return func() {}
	}
	pprof.StartCPUProfile(f)
	return func() { pprof.StopCPUProfile(); f.Close() }
}

func describeMachine() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("host %s, GOMAXPROCS %d", host, runtime.GOMAXPROCS(0))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func listen(h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go http.Serve(ln, h)
	return "http://" + ln.Addr().String(), nil
}

// deepCursor walks once through the API to where page 1000 of 50 starts:
// 100 pages of 500.
func deepCursor(base, token string) (string, error) {
	cursor := ""
	for range 100 {
		var page struct{ Data struct{ NextCursor string } }
		if err := getJSON(base+"/api/v1/netsuite/portal-list?type=project&pageSize=500&cursor="+cursor, token, &page); err != nil {
			return "", err
		}
		cursor = page.Data.NextCursor
	}
	return cursor, nil
}

func getJSON(u, token string, into any) error { return getJSONAs(u, token, adaRole, into) }

// getJSONAs is getJSON in a role of the token's user.
func getJSONAs(u, token, role string, into any) error {
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Role-Id", role)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %s: %s", u, resp.Status, b)
	}
	return json.NewDecoder(resp.Body).Decode(into)
}

type result struct {
	rps      float64
	p50, p99 time.Duration
	errors   int64
	status   map[int]int // answers by HTTP status
}

// statuses lists the answers by status, e.g. "200 ×1234".
func (r result) statuses() string {
	var out []string
	for code, n := range r.status {
		out = append(out, fmt.Sprintf("%d ×%d", code, n))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "–"
	}
	return strings.Join(out, ", ")
}

// load drives u with conns keep-alive connections for d.
func load(u, token string, conns int, d time.Duration) result {
	return loadMix([]string{u}, token, adaRole, conns, d)
}

// loadMix drives conns keep-alive connections for d, each going round
// urls from its own starting point.
func loadMix(urls []string, token, role string, conns int, d time.Duration) result {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	var (
		mu     sync.Mutex
		lat    []time.Duration
		status = map[int]int{}
		errs   atomic.Int64
		wg     sync.WaitGroup
		stopAt = time.Now().Add(d)
	)
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			codes := map[int]int{}
			for i := c; time.Now().Before(stopAt); i++ {
				req, _ := http.NewRequest("GET", urls[i%len(urls)], nil)
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
					req.Header.Set("X-Role-Id", role)
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					errs.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs.Add(1)
				}
				codes[resp.StatusCode]++
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			for code, n := range codes {
				status[code] += n
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{rps: float64(len(lat)) / d.Seconds(), errors: errs.Load(), status: status}
	if len(lat) > 0 {
		r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	return r
}

// bareHandler runs the same SQL as the product's list, view and tab calls
// straight on database/sql: no auth, no router, no problem documents, no
// saved lists — json.Marshal of the scanned columns. Its list sorts by the
// same expressions over the same indexes, reads the same document fields
// for the wide lists, and looks text up as the product does (the search
// index for a rare word, a check of each record's name, number and id
// along the sort for a common one); its tab reads the record, the page and
// the totals by status, as the product's does.
func bareHandler(dataDir string) http.Handler {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "portico.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(8)
	const cols = `kind, id, external_id, title, code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, modified_at`
	const wideCols = `, json_extract(fields, '$.percentcomplete'), json_extract(fields, '$.projectedenddate')`
	exprs := map[string]string{"title": "title", "code": "code", "status": "status, title", "amount": "COALESCE(amount, 0) DESC", "date": "occurred_on",
		"percent": "COALESCE(CAST(json_extract(fields, '$.percentcomplete') AS REAL), 0) DESC",
		"end":     "COALESCE(CAST(json_extract(fields, '$.projectedenddate') AS TEXT), '')", "client": "parent_name"}
	var deepTitle string
	var deepID int64
	// Prepared statements, as the product's store keeps them: the floor
	// should not pay for parsing the product does not pay for.
	var mu sync.Mutex
	stmts := map[string]*sql.Stmt{}
	prepared := func(q string) *sql.Stmt {
		mu.Lock()
		defer mu.Unlock()
		if st, ok := stmts[q]; ok {
			return st
		}
		st, err := db.Prepare(q)
		if err != nil {
			panic(err)
		}
		stmts[q] = st
		return st
	}
	db.QueryRow(`SELECT title, id FROM records WHERE tenant_id = ? AND kind = 'project' ORDER BY title, id LIMIT 1 OFFSET 49999`, string(tenant)).Scan(&deepTitle, &deepID)
	var scope int64 // the projects' partition of the search index
	db.QueryRow(`SELECT no FROM search_scopes WHERE tenant_id = ? AND kind = 'project'`, string(tenant)).Scan(&scope)
	rowsJSON := func(w http.ResponseWriter, wide bool, extra func(map[string]any), q string, args ...any) {
		rows, err := prepared(q).Query(args...)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer rows.Close()
		var out []map[string]any
		for rows.Next() {
			var kind, title, code, status, date, parentName, projectName string
			var ext, percent, end sql.NullString
			var id, modified int64
			var parent, project, amount sql.NullInt64
			dest := []any{&kind, &id, &ext, &title, &code, &status, &parent, &parentName, &project, &projectName, &amount, &date, &modified}
			if wide {
				dest = append(dest, &percent, &end)
			}
			rows.Scan(dest...)
			row := map[string]any{"id": id, "title": title, "code": code, "status": status,
				"parent": map[string]any{"id": parent.Int64, "refName": parentName}, "amount": amount.Int64, "date": date}
			if wide {
				row["percent"], row["end"] = percent.String, end.String
			}
			out = append(out, row)
		}
		ans := map[string]any{"rows": out}
		if extra != nil {
			extra(ans)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(ans)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/list", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		// As the product writes them: the tenant and a LIKE behind a
		// unary plus, so that SQLite does not plan the statement again at
		// each run (sqlstore's scoped and dialect.like).
		where, args := "tenant_id = +? AND kind = 'project'", []any{string(tenant)}
		if s := q.Get("status"); s != "" {
			where, args = where+" AND status = ?", append(args, s)
		}
		if q.Get("after") == "deep" {
			where, args = where+" AND (title, id) > (?, ?)", append(args, deepTitle, deepID)
		}
		limit := 51
		if n, err := strconv.Atoi(q.Get("limit")); err == nil {
			limit = n + 1
		}
		if text := q.Get("q"); text != "" {
			// The product's two plans (sqlstore's listText): the text's
			// matches in the search index when there are fewer than 2,000,
			// else each record's name, number and id checked along the
			// sort. The index holds each word's first six characters (and
			// each suffix's, marked _): a shorter word is looked up as a
			// prefix.
			var seqs []int64
			token := `"` + strings.ToLower(text[:min(len(text), 6)]) + `"`
			if len(text) < 6 {
				token += "*"
			}
			rows, _ := prepared(`SELECT rowid & 1099511627775 FROM search_kind WHERE search_kind MATCH ? AND rowid >= ? AND rowid < ?
				ORDER BY rowid DESC LIMIT 2000`).Query(`(`+token+` OR "_`+token[1:]+`)`, scope<<40, (scope+1)<<40)
			for rows != nil && rows.Next() {
				var seq int64
				rows.Scan(&seq)
				seqs = append(seqs, seq)
			}
			if rows != nil {
				rows.Close()
			}
			like := "%" + strings.ToLower(text) + "%"
			if len(seqs) < 2000 {
				list, _ := json.Marshal(seqs)
				// Sorted by name, the page is picked among the entries.
				page := ""
				if q.Get("sort") == "title" && q.Get("status") == "" && q.Get("after") == "" {
					page = ` ORDER BY e.name, e.record_id LIMIT ` + strconv.Itoa(limit)
				}
				where, args = where+` AND id IN (SELECT e.record_id FROM json_each(?) w CROSS JOIN search_entries e ON e.seq = w.value
					WHERE e.tenant_id = +? AND e.kind = 'project' AND +(e.hay LIKE ? ESCAPE '\')`+page+`)`, append(args, string(list), string(tenant), like)
			} else {
				where, args = where+` AND +((title || ' ' || code || ' ' || id) LIKE ? ESCAPE '\')`, append(args, like)
			}
		}
		order, tie := exprs[q.Get("sort")], ", id DESC"
		if !strings.HasSuffix(order, "DESC") {
			order, tie = order+" ASC", ", id ASC"
		}
		wide := q.Get("wide") != ""
		selected := cols
		if wide {
			selected += wideCols
		}
		var extra func(map[string]any)
		if q.Get("count") != "" {
			extra = func(ans map[string]any) {
				var n, sum int64
				prepared(`SELECT n FROM record_counts WHERE tenant_id = +? AND kind = 'project'`).QueryRow(string(tenant)).Scan(&n)
				prepared(`SELECT total FROM record_sums WHERE tenant_id = +? AND kind = 'project' AND field = 'amount'`).QueryRow(string(tenant)).Scan(&sum)
				ans["total"], ans["totals"] = n, map[string]any{"projectedtotal": float64(sum) / 100}
			}
		}
		rowsJSON(w, wide, extra, `SELECT `+selected+` FROM records WHERE `+where+` ORDER BY `+order+tie+` LIMIT `+strconv.Itoa(limit), args...)
	})
	mux.HandleFunc("/record", func(w http.ResponseWriter, r *http.Request) {
		var doc json.RawMessage
		prepared(`SELECT json(fields) FROM records WHERE tenant_id = +? AND kind = 'project' AND id = ?`).QueryRow(string(tenant), r.URL.Query().Get("id")).Scan(&doc)
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	})
	// The product's tab reads what the tab is of (is there such a
	// project?), the page of billing, and the billing's totals by status
	// in one tally of at most 2,001 rows (records.Kind.TotalsByStatus).
	statuses := []string{"Scheduled", "Ready to bill", "Billed", "On hold"}
	tally := `SELECT COUNT(*)`
	for range statuses {
		tally += `, COALESCE(SUM(CASE WHEN project_id = ? AND status = ? THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN project_id = ? AND status = ? THEN v ELSE 0 END), 0)`
	}
	tally += ` FROM (SELECT *, COALESCE(amount, 0) AS v FROM records WHERE tenant_id = +? AND kind = 'billing' AND project_id = ? LIMIT 2001) p`
	mux.HandleFunc("/tab", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		var title string
		if err := prepared(`SELECT title FROM records WHERE tenant_id = +? AND kind = 'project' AND id = ?`).QueryRow(string(tenant), id).Scan(&title); err != nil {
			http.Error(w, err.Error(), 404)
			return
		}
		var args []any
		for _, st := range statuses {
			args = append(args, id, st, id, st)
		}
		sums := make([]int64, 1+2*len(statuses))
		dest := make([]any, len(sums))
		for i := range sums {
			dest[i] = &sums[i]
		}
		prepared(tally).QueryRow(append(args, string(tenant), id)...).Scan(dest...)
		rowsJSON(w, false, func(ans map[string]any) { ans["totals"] = sums }, `SELECT `+cols+` FROM records WHERE tenant_id = +? AND kind = 'billing' AND project_id = ? ORDER BY occurred_on DESC, id DESC LIMIT 201`, string(tenant), id)
	})
	return mux
}
