package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

// onEngines runs fn with the records environment (tenant acme, 30 demo
// records of every kind, Ada signed in) over SQLite, and over PostgreSQL
// when PORTICO_TEST_DATABASE_URL is set.
func onEngines(t *testing.T, fn func(t *testing.T, e *authEnv, token string)) {
	t.Run("sqlite", func(t *testing.T) {
		e, tok := recordsEnv(t)
		fn(t, e, tok)
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		ctx := context.Background()
		store, drop, err := sqlstore.OpenScratch(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close(); drop() })
		store.EnsureTenant(ctx, "acme", "acme")
		if err := store.Tenant("acme").ImportAccess(ctx, acmeAccess); err != nil {
			t.Fatal(err)
		}
		if _, err := demo.Generate(ctx, store.Tenant("acme"), demo.Options{PerKind: 30, Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
			t.Fatal(err)
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		verifier, err := identity.NewVerifier(ctx, identity.Config{ProjectID: "demo-test", EmulatorHost: "127.0.0.1:1"}, log)
		if err != nil {
			t.Fatal(err)
		}
		sessions := session.NewManager(func(t portal.TenantID) session.Store { return store.Tenant(t) }, session.Options{
			Key: []byte(strings.Repeat("k", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour,
		})
		srv, err := NewServer(Options{
			Logger: log, Store: store, Identity: verifier, Sessions: sessions,
			Tenants:          func(t portal.TenantID) TenantStore { return store.Tenant(t) },
			LoginPerMinuteIP: 1000, LoginPerMinuteAccount: 1000, ERP: "netsuite", Product: "portal",
		})
		if err != nil {
			t.Fatal(err)
		}
		e := &authEnv{srv: srv, store: store, logs: &strings.Builder{}}
		a, w := e.login(t, "acme", "uid-ada", "ada@acme.test")
		if w.Code != 200 {
			t.Fatalf("login: %d %s", w.Code, w.Body)
		}
		fn(t, e, a.Data.Token)
	})
}

// orFilter is n conditions on field joined by "or", values from values in
// turn.
func orFilter(field string, n int, values []string) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = field + " eq " + values[i%len(values)]
	}
	return strings.Join(terms, " or ")
}

// Finding 1 of issue 17: a saved list's OR filter and a request's are
// kept as (saved) AND (request), never multiplied out. 40 × 30 terms was a
// 500 ("Expression tree is too large") and is now the records both match;
// 8 × 111 was a 200 that took 0.39 s and is now a 400 naming the bound,
// as is saving a list over it.
func TestCombinedFiltersAreBounded(t *testing.T) {
	onEngines(t, func(t *testing.T, e *authEnv, tok string) {
		const list = "/api/v1/netsuite/portal-list?type=project&pageSize=500"
		idsOf := func(target string) []string {
			t.Helper()
			var p listPage
			if code := e.getJSON(t, tok, 10, target, &p); code != 200 {
				w := e.call("GET", target, tok, 10, "")
				t.Fatalf("%.120s: %d %s", target, code, w.Body)
			}
			var out []string
			for _, r := range p.Data.Rows {
				out = append(out, fmt.Sprint(r["id"]))
			}
			slices.Sort(out)
			return out
		}
		// The clients the demo projects belong to, and the projects' ids.
		var clients, codes []string
		var p listPage
		e.getJSON(t, tok, 10, list, &p)
		for _, r := range p.Data.Rows {
			if c, ok := r["customer"].(map[string]any); ok && !slices.Contains(clients, fmt.Sprint(c["id"])) {
				clients = append(clients, fmt.Sprint(c["id"]))
			}
			codes = append(codes, fmt.Sprint(r["entityid"]))
		}
		if len(clients) < 3 || len(codes) < 30 {
			t.Fatalf("demo projects: %d clients, %d codes", len(clients), len(codes))
		}
		saveList := func(filter string) (int, string) {
			body, _ := json.Marshal(map[string]any{"name": "Many clients", "columns": []string{"companyname"}, "filter": filter, "visibility": "private"})
			w := e.call("POST", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, string(body))
			var created struct{ Data struct{ ID string } }
			json.Unmarshal(w.Body.Bytes(), &created)
			return w.Code, created.Data.ID
		}

		// 40 OR terms saved, 30 OR terms in the request.
		code, saved := saveList(orFilter("customer", 40, clients[:len(clients)/2]))
		if code != 201 {
			t.Fatalf("save the 40-term list: %d", code)
		}
		request := orFilter("entityid", 30, codes[:20])
		start := time.Now()
		got := idsOf(list + "&list=" + saved + "&filter=" + url.QueryEscape(request))
		took := time.Since(start)
		var want []string
		inList := idsOf(list + "&list=" + saved)
		for _, id := range idsOf(list + "&filter=" + url.QueryEscape(request)) {
			if slices.Contains(inList, id) {
				want = append(want, id)
			}
		}
		if !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("40 × 30 terms: %v, want %v", got, want)
		}
		t.Logf("40 × 30 terms: %d records in %s", len(got), took)

		// 8 OR terms saved, 111 in the request: refused, naming the bound.
		code, saved = saveList(orFilter("customer", 8, clients))
		if code != 201 {
			t.Fatalf("save the 8-term list: %d", code)
		}
		for _, target := range []string{
			list + "&list=" + saved + "&filter=" + url.QueryEscape(orFilter("customer", 111, []string{"1", "2", "3"})),
			list + "&list=" + saved + "&format=csv&filter=" + url.QueryEscape(orFilter("customer", 111, []string{"1", "2", "3"})),
		} {
			w := e.call("GET", target, tok, 10, "")
			pr := decodeProblem(t, w)
			if w.Code != 400 || len(pr.Errors) != 1 || pr.Errors[0].Field != "filter" ||
				!strings.Contains(pr.Detail, "at most 50 conditions") {
				t.Errorf("8 × 111 terms: %d %s", w.Code, w.Body)
			}
		}
		// Saved and request filters under the bound each, over it together.
		code, saved = saveList(orFilter("customer", 50, clients))
		if code != 201 {
			t.Fatalf("save the 50-term list: %d", code)
		}
		w := e.call("GET", list+"&list="+saved+"&filter="+url.QueryEscape(orFilter("customer", 31, clients)), tok, 10, "")
		if pr := decodeProblem(t, w); w.Code != 400 || len(pr.Errors) != 1 || pr.Errors[0].Field != "filter" ||
			!strings.Contains(pr.Detail, "at most 80 conditions together") {
			t.Errorf("50 + 31 terms: %d %s", w.Code, w.Body)
		}
		if w := e.call("GET", list+"&list="+saved+"&filter="+url.QueryEscape(orFilter("customer", 30, clients)), tok, 10, ""); w.Code != 200 {
			t.Errorf("50 + 30 terms: %d %s", w.Code, w.Body)
		}
		// A list is saved only under the bound.
		if code, _ := saveList(orFilter("customer", 51, []string{"1", "2", "3"})); code != 422 {
			t.Errorf("saving a 51-term list: %d", code)
		}
	})
}
