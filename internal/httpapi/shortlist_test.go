package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/shortlist"
)

type shelfAnswer struct{ Data []shortlist.Item }

// shelf reads a shelf ("recent" or "favourites") as token with role.
func (e *authEnv) shelf(t *testing.T, tok string, role int64, name string) []shortlist.Item {
	t.Helper()
	var a shelfAnswer
	if code := e.getJSON(t, tok, role, "/api/v1/me/"+name, &a); code != http.StatusOK {
		t.Fatalf("GET %s: %d", name, code)
	}
	return a.Data
}

func shelfNames(items []shortlist.Item) string {
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = it.Type + ":" + it.Name
	}
	return strings.Join(names, "|")
}

func TestShortlistsThroughTheAPI(t *testing.T) {
	e, ada := recordsEnv(t)
	ctx := context.Background()
	acme := e.store.Tenant("acme")
	rs := []records.Record{
		{Kind: "project", ID: 9001, Title: "Heron Marsh", Code: "PRJ-9001", Status: "Active", ModifiedAt: time.Now(), Fields: []byte(`{}`)},
		{Kind: "invoice", ID: 9002, Title: "March works", Code: "INV-9002", Status: "Open", ModifiedAt: time.Now(), Fields: []byte(`{}`)},
		{Kind: "customer", ID: 9003, Title: "Ibis Holdings", ModifiedAt: time.Now(), Fields: []byte(`{}`)},
	}
	if err := acme.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	post := func(tok string, role int64, target string) int {
		return e.call("POST", "/api/v1/me/recent"+target, tok, role, "").Code
	}
	for _, target := range []string{"?type=project&id=9001", "?type=invoice&id=9002", "?type=customer&id=9003", "?type=project&id=9001"} {
		if code := post(ada, 10, target); code != http.StatusNoContent {
			t.Fatalf("POST recent %s: %d", target, code)
		}
	}
	// Newest first, once each, named: the link is the record's page.
	got := e.shelf(t, ada, 10, "recent")
	if shelfNames(got) != "project:Heron Marsh|customer:Ibis Holdings|invoice:March works" {
		t.Fatalf("recent: %s", shelfNames(got))
	}
	if it := got[0]; it.ID != 9001 || it.Domain != "/project/view?id=9001" || it.Detail != "Project · PRJ-9001 · Active" || it.At.IsZero() {
		t.Fatalf("recent[0] = %+v", it)
	}
	// Bad input is a clear 4xx, never a 500; a kind the role may not see is a 403.
	for target, want := range map[string]int{
		"?type=project&id=424242": http.StatusNotFound,
		"?type=project":           http.StatusBadRequest,
		"?type=project&id=-1":     http.StatusBadRequest,
		"?type=nonsense&id=1":     http.StatusBadRequest,
		"":                        http.StatusBadRequest,
	} {
		if code := post(ada, 10, target); code != want {
			t.Errorf("POST recent %q: %d, want %d", target, code, want)
		}
	}
	if code := post(ada, 11, "?type=project&id=9001"); code != http.StatusForbidden {
		t.Errorf("accountant posts a project: %d", code)
	}
	// As accountant, Ada sees only the invoice among her recent records.
	if got := e.shelf(t, ada, 11, "recent"); shelfNames(got) != "invoice:March works" {
		t.Fatalf("recent as accountant: %s", shelfNames(got))
	}

	// Favourites: starred, starred again (idempotent), listed, unstarred.
	for range 2 {
		if w := e.call("PUT", "/api/v1/me/favourites?type=customer&id=9003", ada, 10, ""); w.Code != http.StatusNoContent {
			t.Fatalf("PUT favourite: %d %s", w.Code, w.Body)
		}
	}
	if w := e.call("PUT", "/api/v1/me/favourites?type=project&id=9001", ada, 10, ""); w.Code != http.StatusNoContent {
		t.Fatalf("PUT favourite: %d", w.Code)
	}
	if got := e.shelf(t, ada, 10, "favourites"); shelfNames(got) != "project:Heron Marsh|customer:Ibis Holdings" {
		t.Fatalf("favourites: %s", shelfNames(got))
	}
	if w := e.call("DELETE", "/api/v1/me/favourites?type=project&id=9001", ada, 10, ""); w.Code != http.StatusNoContent {
		t.Fatalf("DELETE favourite: %d", w.Code)
	}
	if w := e.call("PUT", "/api/v1/me/favourites?type=project&id=424242", ada, 10, ""); w.Code != http.StatusNotFound {
		t.Fatalf("PUT a missing record: %d", w.Code)
	}
	if got := e.shelf(t, ada, 10, "favourites"); shelfNames(got) != "customer:Ibis Holdings" {
		t.Fatalf("favourites after unstarring: %s", shelfNames(got))
	}

	// Each user sees only their own, in their own tenant.
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	if got := e.shelf(t, vic.Data.Token, 14, "recent"); len(got) != 0 {
		t.Fatalf("Vic sees %s", shelfNames(got))
	}
	if got := e.shelf(t, vic.Data.Token, 14, "favourites"); len(got) != 0 {
		t.Fatalf("Vic sees %s", shelfNames(got))
	}
	gus, _ := e.login(t, "globex", "uid-gus", "gus@globex.test")
	if got := e.shelf(t, gus.Data.Token, 10, "recent"); len(got) != 0 {
		t.Fatalf("Globex's user 1 sees %s", shelfNames(got))
	}

	// A record deleted since is no longer listed.
	if err := acme.ApplyPull(ctx, "customer", nil, []int64{9003}, erpsync.State{Kind: "customer"}); err != nil {
		t.Fatal(err)
	}
	if got := e.shelf(t, ada, 10, "favourites"); len(got) != 0 {
		t.Fatalf("favourites after deleting the client: %s", shelfNames(got))
	}
	if got := e.shelf(t, ada, 10, "recent"); shelfNames(got) != "project:Heron Marsh|invoice:March works" {
		t.Fatalf("recent after deleting the client: %s", shelfNames(got))
	}
}

// A full favourites shelf is a 409 that says what to do.
func TestFavouritesFullIsAConflict(t *testing.T) {
	e, ada := recordsEnv(t)
	ctx := context.Background()
	acme := e.store.Tenant("acme")
	var rs []records.Record
	for i := range shortlist.FavouritesMax + 1 {
		rs = append(rs, records.Record{Kind: "project", ID: int64(10_000 + i), Title: fmt.Sprint("P", i), ModifiedAt: time.Now(), Fields: []byte(`{}`)})
	}
	if err := acme.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs[:shortlist.FavouritesMax] {
		if err := acme.ShortlistAdd(ctx, 1, shortlist.Favourites, "project", r.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	w := e.call("PUT", fmt.Sprintf("/api/v1/me/favourites?type=project&id=%d", rs[shortlist.FavouritesMax].ID), ada, 10, "")
	if p := decodeProblem(t, w); w.Code != http.StatusConflict || !strings.Contains(p.Detail, "remove one") {
		t.Fatalf("one too many: %d %+v", w.Code, p)
	}
}
