package netsuitetest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
)

// jobsFixture holds a client and three projects: two modified in the
// same second (start), one five seconds later.
func jobsFixture(t *testing.T) *fixture {
	f := newFixture(t, netsuitetest.Config{})
	put := func(typ string, fields map[string]any) int64 {
		t.Helper()
		id, err := f.fake.Put(typ, netsuitetest.Record{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	put("customer", map[string]any{"companyname": "Acme Wetlands", "entitystatus": map[string]any{"id": "2", "refName": "Active"}})
	put("job", map[string]any{
		"companyname": "Red Creek", "entitystatus": map[string]any{"id": "3"},
		"parent":               map[string]any{"id": "1", "refName": "an outdated name"},
		"custentity_res_acres": 1594771.60, "startdate": "2025-02-28", "isinactive": false, "custentity_res_linear_feet": 86,
		"notes": []any{map[string]any{"text": "a note"}},
	})
	put("job", map[string]any{"companyname": "O'Brien Marsh", "entitystatus": map[string]any{"id": "1", "refName": "Proposed"}})
	f.clock.Advance(5 * time.Second)
	put("job", map[string]any{"companyname": "Mill Bayou", "entitystatus": map[string]any{"id": "5", "refName": "Closed"}, "startdate": "2026-01-05"})
	return f
}

const projectColumns = `SELECT id, externalid, companyname AS companyname, BUILTIN.DF(entitystatus) AS entitystatus, parent AS customer, BUILTIN.DF(parent) AS customer_refname, custentity_res_acres AS acres, TO_CHAR(startdate, 'YYYY-MM-DD') AS startdate, TO_CHAR(lastmodifieddate, 'YYYY-MM-DD HH24:MI:SS') AS portico_modified FROM job`

func TestSuiteQLValuesAreStringsAndNullsAbsent(t *testing.T) {
	f := jobsFixture(t)
	p := f.mustQuery(projectColumns+" ORDER BY lastmodifieddate, id", 1000, 0)
	want := []map[string]string{
		{"id": "1", "companyname": "Red Creek", "entitystatus": "Active", "customer": "1",
			"customer_refname": "Acme Wetlands", "acres": "1594771.6", "startdate": "2025-02-28",
			"portico_modified": "2026-11-22 07:00:00"},
		{"id": "2", "companyname": "O'Brien Marsh", "entitystatus": "Proposed", "portico_modified": "2026-11-22 07:00:00"},
		{"id": "3", "companyname": "Mill Bayou", "entitystatus": "Closed", "startdate": "2026-01-05",
			"portico_modified": "2026-11-22 07:00:05"},
	}
	if !reflect.DeepEqual(p.Rows, want) {
		t.Errorf("rows\n%v\nwant\n%v", p.Rows, want)
	}
	for _, it := range p.Items {
		if l, ok := it["links"].([]any); !ok || len(l) != 0 {
			t.Errorf("item links %v, want []", it["links"])
		}
	}
}

func TestSuiteQLExampleKeysetQueries(t *testing.T) {
	f := jobsFixture(t)
	// The connector's query, verbatim: after (07:00:00, 123) only the
	// later record is left.
	q := projectColumns + ` WHERE lastmodifieddate > TO_TIMESTAMP('2026-11-22 07:00:00', 'YYYY-MM-DD HH24:MI:SS') OR (lastmodifieddate = TO_TIMESTAMP('2026-11-22 07:00:00', 'YYYY-MM-DD HH24:MI:SS') AND id > 123) ORDER BY lastmodifieddate, id`
	if got := ids(f.mustQuery(q, 1000, 0).Rows); !slices.Equal(got, []string{"3"}) {
		t.Errorf("after (07:00:00, 123): %v, want [3]", got)
	}
	// From (07:00:00, 1): the second record of that second, then the later one.
	q = strings.ReplaceAll(q, "id > 123", "id > 1")
	if got := ids(f.mustQuery(q, 1000, 0).Rows); !slices.Equal(got, []string{"2", "3"}) {
		t.Errorf("after (07:00:00, 1): %v, want [2 3]", got)
	}
	// The keyset in the other order of its terms means the same.
	q = projectColumns + ` WHERE (id > 1 AND lastmodifieddate = ` + ts(start) + `) OR lastmodifieddate > ` + ts(start) + ` ORDER BY lastmodifieddate ASC, id ASC`
	if got := ids(f.mustQuery(q, 1000, 0).Rows); !slices.Equal(got, []string{"2", "3"}) {
		t.Errorf("keyset with its terms swapped: %v, want [2 3]", got)
	}
}

func TestSuiteQLTransactionTypesAndAliases(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	bill, err := f.fake.Put("vendorBill", netsuitetest.Record{Fields: map[string]any{
		"memo": "Plant plugs", "total": 100.50, "status": map[string]any{"id": "2"}}})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := f.fake.Put("invoice", netsuitetest.Record{Fields: map[string]any{"memo": "Retainage", "total": 200}})
	if err != nil {
		t.Fatal(err)
	}
	if bill == inv {
		t.Errorf("a bill and an invoice share id %d: transaction ids are unique across types", bill)
	}
	q := `SELECT id, memo, foreigntotal AS total, BUILTIN.DF(status) AS status, type FROM transaction WHERE type = 'VendBill' AND (lastmodifieddate > ` +
		ts(start.Add(-time.Hour)) + ` OR (lastmodifieddate = ` + ts(start.Add(-time.Hour)) + ` AND id > 0)) ORDER BY lastmodifieddate, id`
	want := []map[string]string{{"id": strconv.FormatInt(bill, 10), "memo": "Plant plugs", "total": "100.5", "status": "Open", "type": "VendBill"}}
	if got := f.mustQuery(q, 1000, 0).Rows; !reflect.DeepEqual(got, want) {
		t.Errorf("bills %v, want %v", got, want)
	}
	all := f.mustQuery("SELECT id, type FROM transaction ORDER BY id", 1000, 0).Rows
	if len(all) != 2 || all[0]["type"] != "VendBill" || all[1]["type"] != "CustInvc" {
		t.Errorf("the transaction table holds %v, want the bill and the invoice", all)
	}
}

func TestSuiteQLDeletedRecords(t *testing.T) {
	f := jobsFixture(t)
	f.clock.Advance(time.Hour)
	if err := f.fake.Delete("job", 2); err != nil {
		t.Fatal(err)
	}
	if err := f.fake.Delete("customer", 1); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.fake.Get("job", 2); ok || f.fake.Count("job") != 2 {
		t.Error("a deleted record is still there")
	}
	q := `SELECT recordid, TO_CHAR(deleteddate, 'YYYY-MM-DD HH24:MI:SS') AS deleteddate FROM deletedrecord WHERE type = 'job' AND deleteddate >= ` +
		ts(start) + ` ORDER BY deleteddate, recordid`
	want := []map[string]string{{"recordid": "2", "deleteddate": "2026-11-22 08:00:05"}}
	if got := f.mustQuery(q, 1000, 0).Rows; !reflect.DeepEqual(got, want) {
		t.Errorf("deleted jobs %v, want %v", got, want)
	}
	later := strings.Replace(q, ts(start), ts(start.Add(2*time.Hour)), 1)
	if got := f.mustQuery(later, 1000, 0).Rows; len(got) != 0 {
		t.Errorf("deletions after they happened: %v", got)
	}
	if got := f.mustQuery("SELECT type, name, deletedby, context FROM deletedrecord ORDER BY type", 1000, 0).Rows; !reflect.DeepEqual(got,
		[]map[string]string{{"type": "customer", "name": "Acme Wetlands", "deletedby": "Administrator", "context": "UI"},
			{"type": "job", "name": "O'Brien Marsh", "deletedby": "Administrator", "context": "UI"}}) {
		t.Errorf("deletedrecord rows %v", got)
	}
}

func TestSuiteQLConditionsOrderingAndFormats(t *testing.T) {
	f := jobsFixture(t)
	cases := []struct {
		q    string
		want []map[string]string
	}{
		{`select id from JOB where companyname = 'Red Creek' or (id >= 2 and id <> 3) order by id desc`,
			[]map[string]string{{"id": "2"}, {"id": "1"}}},
		{`SELECT id FROM job WHERE companyname = 'O''Brien Marsh' ORDER BY id`, []map[string]string{{"id": "2"}}},
		{`SELECT id FROM job WHERE parent = 1 ORDER BY id`, []map[string]string{{"id": "1"}}},
		{`SELECT id FROM job WHERE entitystatus = '5' OR entitystatus = 1 ORDER BY id`, []map[string]string{{"id": "2"}, {"id": "3"}}},
		{`SELECT id FROM job WHERE startdate >= TO_TIMESTAMP('2025-03-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS') ORDER BY id`, []map[string]string{{"id": "3"}}},
		{`SELECT id FROM job WHERE custentity_res_acres > 1000000.5 AND custentity_res_acres <= 1594771.6 ORDER BY id`, []map[string]string{{"id": "1"}}},
		{`SELECT id FROM job WHERE id > -1 ORDER BY startdate DESC, id`, // nulls first when descending
			[]map[string]string{{"id": "2"}, {"id": "3"}, {"id": "1"}}},
		{`SELECT id FROM job WHERE id != 2 ORDER BY startdate, id`, []map[string]string{{"id": "1"}, {"id": "3"}}},
		{`SELECT id, startdate, isinactive, custentity_res_linear_feet, lastmodifieddate AS m, BUILTIN.DF(companyname) AS n FROM job WHERE id = 1`,
			[]map[string]string{{"id": "1", "startdate": "2/28/2025", "isinactive": "F", "custentity_res_linear_feet": "86", "m": "11/22/2026", "n": "Red Creek"}}},
		{`SELECT BUILTIN.DF(entitystatus), TO_CHAR(startdate, 'YYYY') FROM job WHERE id = 3`,
			[]map[string]string{{"expr1": "Closed", "expr2": "2026"}}},
		{`SELECT id, TO_CHAR(datecreated, 'YYYY-MM-DD HH24:MI:SS') AS created FROM job WHERE lastmodifieddate > ` + ts(start),
			[]map[string]string{{"id": "3", "created": "2026-11-22 07:00:05"}}},
	}
	for _, c := range cases {
		if got := f.mustQuery(c.q, 1000, 0).Rows; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s\n got %v\nwant %v", c.q, got, c.want)
		}
	}
}

func TestSuiteQLAccountTimeZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, netsuitetest.Config{Location: ny})
	if _, err := f.fake.Put("job", netsuitetest.Record{Fields: map[string]any{"companyname": "Zoned"}}); err != nil {
		t.Fatal(err)
	}
	// 07:00 UTC is 02:00 in New York (EST).
	q := `SELECT TO_CHAR(lastmodifieddate, 'YYYY-MM-DD HH24:MI:SS') AS m FROM job WHERE lastmodifieddate = TO_TIMESTAMP('2026-11-22 02:00:00', 'YYYY-MM-DD HH24:MI:SS') ORDER BY lastmodifieddate, id`
	if got := f.mustQuery(q, 1000, 0).Rows; !reflect.DeepEqual(got, []map[string]string{{"m": "2026-11-22 02:00:00"}}) {
		t.Errorf("in the account zone: %v", got)
	}
}

// TestSuiteQLUserPreferences: SuiteQL writes and reads date-times in the
// integration user's time zone, bare date and date-time columns in the
// user's date format; the record API gives UTC (account.yaml's [7], [8]).
func TestSuiteQLUserPreferences(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, netsuitetest.Config{Location: berlin, DateFormat: "DD/MM/YYYY"})
	f.clock.Advance(16*time.Hour + 30*time.Minute) // 23:30 UTC: the next day in Berlin
	if _, err := f.fake.Put("job", netsuitetest.Record{Fields: map[string]any{"companyname": "Zoned", "startdate": "2025-02-28"}}); err != nil {
		t.Fatal(err)
	}
	q := `SELECT id, startdate, lastmodifieddate AS m, TO_CHAR(lastmodifieddate, 'YYYY-MM-DD HH24:MI:SS') AS t FROM job ` +
		`WHERE lastmodifieddate = TO_TIMESTAMP('2026-11-23 00:30:00', 'YYYY-MM-DD HH24:MI:SS')`
	want := []map[string]string{{"id": "1", "startdate": "28/02/2025", "m": "23/11/2026", "t": "2026-11-23 00:30:00"}}
	if got := f.mustQuery(q, 1000, 0).Rows; !reflect.DeepEqual(got, want) {
		t.Errorf("in Berlin, DD/MM/YYYY:\n got %v\nwant %v", got, want)
	}
	// Read as UTC, the literal names another moment.
	q = `SELECT id FROM job WHERE lastmodifieddate = TO_TIMESTAMP('2026-11-22 23:30:00', 'YYYY-MM-DD HH24:MI:SS')`
	if got := f.mustQuery(q, 1000, 0).Rows; len(got) != 0 {
		t.Errorf("a UTC literal matched: %v", got)
	}
	doc := getRecord(t, f, netsuitetest.RecordPath+"job/1")
	if doc["lastModifiedDate"] != "2026-11-22T23:30:00Z" || doc["startDate"] != "2025-02-28" {
		t.Errorf("record API: lastModifiedDate %v, startDate %v", doc["lastModifiedDate"], doc["startDate"])
	}
	for _, bad := range []string{"DD/MM", "Month D, YYYY", "YYYY/MM"} {
		if _, err := netsuitetest.New(netsuitetest.Config{DateFormat: bad}); err == nil {
			t.Errorf("date format %q accepted", bad)
		}
	}
}

// TestSuiteQLLookupByID: a query naming one id is answered as a scan
// would answer it.
func TestSuiteQLLookupByID(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(20)
	for _, q := range []string{
		`SELECT id, TO_CHAR(lastmodifieddate, 'YYYY-MM-DD HH24:MI:SS') AS m FROM transaction WHERE id = 7`,
		`SELECT id, type FROM transaction WHERE id = 7 AND type = 'CustInvc'`,
		`SELECT id, type FROM transaction WHERE type = 'VendBill' AND id = 7`,
		`SELECT id FROM customer WHERE id = 12345`,
		`SELECT id FROM customer WHERE id = 3 AND companyname = 'nobody'`,
	} {
		fast := f.mustQuery(q, 1000, 0)
		where := strings.Index(q, "WHERE ") + len("WHERE ")
		slow := f.mustQuery(q[:where]+"("+q[where:]+") OR id = -1", 1000, 0)
		if !reflect.DeepEqual(fast.Rows, slow.Rows) {
			t.Errorf("%s: lookup %v, scan %v", q, fast.Rows, slow.Rows)
		}
	}
}

func TestSuiteQLPaging(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(50)
	q := "SELECT id FROM job ORDER BY lastmodifieddate, id"
	p := f.mustQuery(q, 20, 0)
	if p.Count != 20 || !p.HasMore || p.TotalResults != 50 || p.Offset != 0 {
		t.Errorf("first page: count %d hasMore %v total %d offset %d", p.Count, p.HasMore, p.TotalResults, p.Offset)
	}
	// The links are those of NetSuite's collection paging, in its order:
	// previous and first past the first page, next and last while more
	// rows follow, then self.
	link := func(offset int) string {
		return f.srv.URL + netsuitetest.SuiteQLPath + "?limit=20&offset=" + strconv.Itoa(offset)
	}
	type rl struct{ rel, href string }
	links := func(p page) []rl {
		var out []rl
		for _, l := range p.Links {
			out = append(out, rl{l.Rel, l.Href})
		}
		return out
	}
	if got, want := links(p), []rl{{"next", link(20)}, {"last", link(40)}, {"self", link(0)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("first page links %v, want %v", got, want)
	}
	// Following the next link gives the next page.
	resp, body := f.mustDo("POST", pathOf(t, link(20)), map[string]string{"q": q}, map[string]string{"Prefer": "transient"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"offset":20`) {
		t.Errorf("next link: %d %s", resp.StatusCode, body)
	}
	var middle page
	if err := json.Unmarshal(body, &middle); err != nil {
		t.Fatal(err)
	}
	if got, want := links(middle), []rl{{"previous", link(0)}, {"first", link(0)}, {"next", link(40)}, {"last", link(40)}, {"self", link(20)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("middle page links %v, want %v", got, want)
	}
	last := f.mustQuery(q, 20, 40)
	if got, want := links(last), []rl{{"previous", link(20)}, {"first", link(0)}, {"self", link(40)}}; last.Count != 10 || last.HasMore || !reflect.DeepEqual(got, want) {
		t.Errorf("last page: count %d hasMore %v links %v, want %v", last.Count, last.HasMore, got, want)
	}
	// Following the last link gives the last page.
	if resp, body := f.mustDo("POST", pathOf(t, link(40)), map[string]string{"q": q}, map[string]string{"Prefer": "transient"}); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"count":10,"hasMore":false`) {
		t.Errorf("last link: %d %s", resp.StatusCode, body)
	}
	// A single page links only to itself; an offset that is not a
	// multiple of the limit is paged from where it stands.
	if only := f.mustQuery(q, 1000, 0); !reflect.DeepEqual(links(only), []rl{{"self", f.srv.URL + netsuitetest.SuiteQLPath + "?limit=1000&offset=0"}}) {
		t.Errorf("single page links %v", links(only))
	}
	if got, want := links(f.mustQuery(q, 20, 5)), []rl{{"previous", link(0)}, {"first", link(0)}, {"next", link(25)}, {"last", link(45)}, {"self", link(5)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("offset 5 links %v, want %v", got, want)
	}
	// An offset need not be a multiple of the limit.
	if odd := f.mustQuery(q, 20, 45); odd.Count != 5 || odd.Rows[0]["id"] != f.mustQuery(q, 1, 45).Rows[0]["id"] {
		t.Errorf("offset 45: %v", odd.Rows)
	}
	if past := f.mustQuery(q, 20, 60); past.Count != 0 || past.HasMore || past.TotalResults != 50 {
		t.Errorf("past the end: %+v", past)
	}
	// The default page is 1000 rows.
	resp, body = f.mustDo("POST", netsuitetest.SuiteQLPath, map[string]string{"q": q}, map[string]string{"Prefer": "transient"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"count":50`) {
		t.Errorf("without limit: %d %.200s", resp.StatusCode, body)
	}
}

func TestSuiteQLRowCap(t *testing.T) {
	f := jobsFixture(t)
	q := "SELECT id FROM job ORDER BY id"
	if status, _, body := f.query(q, 1000, 99_000); status != http.StatusOK {
		t.Errorf("the last page under the cap: %d %s", status, body)
	}
	for _, c := range []struct{ limit, offset int }{{1000, 99_001}, {1000, 100_000}, {1, 100_000}, {10, 150_000}} {
		resp, body := f.mustDo("POST", fmt.Sprintf("%s?limit=%d&offset=%d", netsuitetest.SuiteQLPath, c.limit, c.offset),
			map[string]string{"q": q}, map[string]string{"Prefer": "transient"})
		e := wantError(t, resp, body, http.StatusBadRequest, "INVALID_PARAMETER")
		if !strings.Contains(e.Details[0].Detail, "100000") {
			t.Errorf("limit %d offset %d: detail %q does not name the cap", c.limit, c.offset, e.Details[0].Detail)
		}
	}
}

func TestSuiteQLRefusals(t *testing.T) {
	f := jobsFixture(t)
	bad := []string{
		"", "SELECT", "SELECT id", "SELECT id FROM", "SELECT id FROM job WHERE", "SELECT id FROM nosuchtable",
		"SELECT nosuchcolumn FROM job", "SELECT * FROM job", "SELECT id FROM job WHERE companyname = 'open",
		"SELECT id FROM job WHERE (id > 1", "SELECT COUNT(id) FROM job", "SELECT TO_CHAR(startdate, 'Month') AS x FROM job",
		"DELETE FROM job", "SELECT id FROM job ORDER BY", "SELECT id FROM job; DROP TABLE job",
		"SELECT TO_CHAR(companyname, 'YYYY') AS x FROM job", "SELECT id FROM job WHERE id > nosuch",
		"SELECT id FROM job WHERE TO_TIMESTAMP('x', 'YYYY') < id", "SELECT id FROM job WHERE id > TO_TIMESTAMP('2026', 'YYYY-MM-DD')",
		"SELECT recordid FROM deletedrecord WHERE id > 0", "SELECT id FROM job WHERE id > -'1'", "SELECT id AS FROM job",
		"SELECT id FROM job WHERE " + strings.Repeat("(", 10_000) + "id > 1" + strings.Repeat(")", 10_000),
	}
	for _, q := range bad {
		resp, body := f.mustDo("POST", netsuitetest.SuiteQLPath, map[string]string{"q": q}, map[string]string{"Prefer": "transient"})
		code := "INVALID_PARAMETER"
		if q == "" {
			code = "INVALID_CONTENT"
		}
		wantError(t, resp, body, http.StatusBadRequest, code)
	}
	resp, body := f.mustDo("POST", netsuitetest.SuiteQLPath, map[string]string{"q": "SELECT id FROM job"}, nil)
	wantError(t, resp, body, http.StatusBadRequest, "INVALID_PARAMETER") // no Prefer: transient
	resp, body = f.mustDo("POST", netsuitetest.SuiteQLPath+"?limit=1001", map[string]string{"q": "SELECT id FROM job"}, map[string]string{"Prefer": "transient"})
	wantError(t, resp, body, http.StatusBadRequest, "INVALID_PARAMETER")
	resp, body = f.mustDo("POST", netsuitetest.SuiteQLPath+"?offset=-1", map[string]string{"q": "SELECT id FROM job"}, map[string]string{"Prefer": "transient"})
	wantError(t, resp, body, http.StatusBadRequest, "INVALID_PARAMETER")
	resp, body = f.mustDo("POST", netsuitetest.SuiteQLPath, []int{1}, map[string]string{"Prefer": "transient"})
	wantError(t, resp, body, http.StatusBadRequest, "INVALID_CONTENT")
	resp, body = f.mustDo("GET", netsuitetest.SuiteQLPath, nil, nil)
	wantError(t, resp, body, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
}

// TestSuiteQLKeysetMatchesScan pages every table the way the connector
// does — keyset windows from a checkpoint, small pages — and checks the
// index-backed answers against the same conditions evaluated row by row
// (an extra "id > 0" keeps a query off the index).
func TestSuiteQLKeysetMatchesScan(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(60)
	m := f.fake.Schema()
	for _, typ := range slices.Sorted(maps.Keys(m.Types)) {
		sc := m.Types[typ]
		filter := ""
		if sc.TypeValue != "" {
			filter = netsuitetest.TypeColumn + " = '" + sc.TypeValue + "' AND "
		}
		query := func(from time.Time, id int64, scan bool) string {
			q := fmt.Sprintf("SELECT id, TO_CHAR(%[1]s, 'YYYY-MM-DD HH24:MI:SS') AS m FROM %[2]s WHERE %[3]s(%[1]s > %[4]s OR (%[1]s = %[4]s AND id > %[5]d))",
				sc.ModifiedColumn(), sc.Table, filter, ts(from), id)
			if scan {
				q += " AND id > 0"
			}
			return q + " ORDER BY " + sc.ModifiedColumn() + ", id"
		}
		var (
			seen  []string
			from  = time.Unix(0, 0)
			after int64
		)
		for {
			fast := f.mustQuery(query(from, after, false), 7, 0)
			slow := f.mustQuery(query(from, after, true), 7, 0)
			if !reflect.DeepEqual(fast.Rows, slow.Rows) || fast.TotalResults != slow.TotalResults {
				t.Fatalf("%s: the index answered %v (%d), a scan %v (%d)", typ, fast.Rows, fast.TotalResults, slow.Rows, slow.TotalResults)
			}
			for _, r := range fast.Rows {
				seen = append(seen, r["id"])
				mod, err := time.Parse(time.DateTime, r["m"])
				if err != nil {
					t.Fatal(err)
				}
				id, _ := strconv.ParseInt(r["id"], 10, 64)
				if mod.Before(from) || (mod.Equal(from) && id <= after) {
					t.Fatalf("%s: row %v is not after (%v, %d)", typ, r, from, after)
				}
				from, after = mod, id
			}
			if !fast.HasMore {
				break
			}
		}
		if len(seen) != f.fake.Count(typ) || len(seen) == 0 {
			t.Errorf("%s: keyset paging read %d rows, the type has %d", typ, len(seen), f.fake.Count(typ))
		}
		slices.Sort(seen)
		if len(slices.Compact(seen)) != len(seen) {
			t.Errorf("%s: a row was read twice", typ)
		}
	}
}

func ids(rows []map[string]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r["id"])
	}
	return out
}
