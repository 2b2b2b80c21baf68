package httpapi

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

type searchAnswer struct{ Data []search.Result }

func (e *authEnv) search(t *testing.T, tok string, role int64, query string, extra ...string) (int, []search.Result) {
	t.Helper()
	var a searchAnswer
	code := e.getJSON(t, tok, role, "/api/v1/netsuite/portal?method=search&query="+url.QueryEscape(query)+strings.Join(extra, ""), &a)
	return code, a.Data
}

func TestSearchFindsRecordsWithPrefixes(t *testing.T) {
	e, tok := recordsEnv(t)
	var clients listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=customer&pageSize=1", &clients)
	name := clients.Data.Rows[0]["companyname"].(string)
	id := int64(clients.Data.Rows[0]["id"].(float64))

	code, got := e.search(t, tok, 10, name)
	if code != 200 || len(got) == 0 || got[0].Name != name || got[0].Type != "customer" || got[0].ID != id ||
		got[0].Domain != "/customer/view?id="+strconv.FormatInt(id, 10) {
		t.Fatalf("search %q: %d %+v", name, code, got)
	}
	// cus: narrows to clients; an unknown prefix searches everything.
	word := strings.Fields(name)[0]
	_, narrowed := e.search(t, tok, 10, "cus: "+word)
	_, everything := e.search(t, tok, 10, "zzz: "+word)
	for _, r := range narrowed {
		if r.Type != "customer" {
			t.Fatalf("cus: found a %s", r.Type)
		}
	}
	if len(narrowed) == 0 || len(everything) < len(narrowed) {
		t.Fatalf("cus: %d results, unprefixed %d", len(narrowed), len(everything))
	}
	if len(everything) > search.Limit {
		t.Fatalf("%d results", len(everything))
	}
	// type= limits to one kind (the lookups).
	_, one := e.search(t, tok, 10, word, "&type=project")
	for _, r := range one {
		if r.Type != "project" {
			t.Fatalf("type=project found a %s", r.Type)
		}
	}
}

// Ranking through the API: exact name, name prefix, a word starting with
// the text (newest first), then a substring; a client among the projects.
func TestSearchRanksResults(t *testing.T) {
	e, tok := recordsEnv(t)
	var rs []records.Record
	for i, name := range []string{"Old Quokka Study", "Quokka", "Quokkaland Plan", "Bigquokka Repair", "New Quokka Study"} {
		rs = append(rs, records.Record{Kind: "project", ID: int64(9000 + i), Title: name, Status: "Active",
			ModifiedAt: time.Now().UTC(), Fields: []byte(`{}`)})
	}
	rs = append(rs, records.Record{Kind: "customer", ID: 9100, Title: "Quokka Partners", ModifiedAt: time.Now().UTC(), Fields: []byte(`{}`)})
	if err := e.store.Tenant("acme").PutRecords(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	_, got := e.search(t, tok, 10, "quokka")
	var names []string
	for _, r := range got {
		names = append(names, r.Name)
	}
	want := "Quokka|Quokka Partners|Quokkaland Plan|New Quokka Study|Old Quokka Study|Bigquokka Repair"
	if strings.Join(names, "|") != want {
		t.Fatalf("ranking: %q, want %q", names, want)
	}
	if _, got := e.search(t, tok, 10, "proj: quokka"); len(got) != 5 || got[1].Name != "Quokkaland Plan" {
		t.Fatalf("proj: %+v", got)
	}
}

func TestSearchNeverShowsHiddenKindsOrOtherTenants(t *testing.T) {
	e, tok := recordsEnv(t)
	ctx := context.Background()
	secret := records.Record{Kind: "project", ID: 999, Title: "Zebrafish Secret Project", ModifiedAt: time.Now().UTC(), Fields: []byte(`{}`)}
	if err := e.store.Tenant("globex").PutRecords(ctx, []records.Record{secret}); err != nil {
		t.Fatal(err)
	}
	if _, got := e.search(t, tok, 10, "zebrafish"); len(got) != 0 {
		t.Fatalf("another tenant's record: %+v", got)
	}
	// Role 11 sees invoices only: a project's name finds nothing of it.
	var projects listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&pageSize=1", &projects)
	name := projects.Data.Rows[0]["companyname"].(string)
	if _, got := e.search(t, tok, 10, name); len(got) == 0 {
		t.Fatalf("the administrator finds no %q", name)
	}
	_, got := e.search(t, tok, 11, name)
	for _, r := range got {
		if r.Type != "invoice" {
			t.Fatalf("accountant sees a %s: %+v", r.Type, r)
		}
	}
	if code, _ := e.search(t, tok, 11, name, "&type=project"); code != 403 {
		t.Fatalf("type=project as accountant: %d", code)
	}
}

func TestSearchBadInput(t *testing.T) {
	e, tok := recordsEnv(t)
	for _, q := range []string{"", "   ", "cus:", "cus: ab", `"`, `*`, `NEAR(a b)`, `a OR b AND`, `'; DROP TABLE records; --`,
		`%_%`, "ünïcödé", strings.Repeat("é", search.MaxQuery)} {
		if code, got := e.search(t, tok, 10, q); code != 200 || got == nil {
			t.Errorf("%q: %d %v", q, code, got)
		}
	}
	for _, target := range []string{
		"/api/v1/netsuite/portal?method=search&query=" + strings.Repeat("x", search.MaxQuery+1),
		"/api/v1/netsuite/portal?method=frobnicate&query=acme",
		"/api/v1/netsuite/portal?query=acme",
		"/api/v1/netsuite/portal?method=search&query=%ff%fe%fd",
		// Control characters are refused by the input policy (input.go).
		"/api/v1/netsuite/portal?method=search&query=%00%01abc",
		"/api/v1/netsuite/portal?method=search&query=acme&type=nosuchkind",
	} {
		w := e.call("GET", target, tok, 10, "")
		if w.Code != 400 || strings.Contains(strings.ToLower(w.Body.String()), "fts") || strings.Contains(w.Body.String(), "SELECT") {
			t.Errorf("%s: %d %s", target, w.Code, w.Body)
		}
	}
}

// groups=true counts each kind's matches as its list counts them: a
// group's count is what "see all" (the list filtered by the same text)
// finds.
func TestSearchGroupsCountWhatTheListsFind(t *testing.T) {
	e, tok := recordsEnv(t)
	var rs []records.Record
	for i, name := range []string{"Old Quokka Study", "Quokka", "Quokkaland Plan", "Bigquokka Repair", "New Quokka Study"} {
		rs = append(rs, records.Record{Kind: "project", ID: int64(9000 + i), Title: name, Status: "Active",
			ModifiedAt: time.Now().UTC(), Fields: []byte(`{}`)})
	}
	rs = append(rs, records.Record{Kind: "customer", ID: 9100, Title: "Quokka Partners", ModifiedAt: time.Now().UTC(), Fields: []byte(`{}`)})
	if err := e.store.Tenant("acme").PutRecords(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	var a struct{ Data search.Grouped }
	if code := e.getJSON(t, tok, 10, "/api/v1/netsuite/portal?method=search&groups=true&query="+url.QueryEscape(" all: quokka "), &a); code != 200 {
		t.Fatalf("grouped search: %d", code)
	}
	if a.Data.Text != "quokka" || len(a.Data.Results) != 6 || a.Data.Results[0].Name != "Quokka" {
		t.Fatalf("text %q, results %+v", a.Data.Text, a.Data.Results)
	}
	want := []search.Group{{Type: "project", Count: 5}, {Type: "customer", Count: 1}}
	if len(a.Data.Groups) != 2 || a.Data.Groups[0] != want[0] || a.Data.Groups[1] != want[1] {
		t.Fatalf("groups %+v, want %+v", a.Data.Groups, want)
	}
	for _, g := range a.Data.Groups {
		k, _ := records.Lookup(g.Type)
		var p listPage
		e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type="+g.Type+"&list="+k.DefaultList+"&q=quokka&count=true", &p)
		if p.Data.Total == nil || *p.Data.Total != int64(g.Count) {
			t.Errorf("%s: the group counts %d, the list %v", g.Type, g.Count, p.Data.Total)
		}
	}
	// The accountant's groups are the kinds the role may see.
	e.getJSON(t, tok, 11, "/api/v1/netsuite/portal?method=search&groups=true&query=quokka", &a)
	if len(a.Data.Groups) != 0 || len(a.Data.Results) != 0 {
		t.Fatalf("accountant: %+v", a.Data)
	}
	if code := e.getJSON(t, tok, 10, "/api/v1/netsuite/portal?method=search&groups=yes&query=quokka", nil); code != 400 {
		t.Fatalf("groups=yes: %d", code)
	}
}
