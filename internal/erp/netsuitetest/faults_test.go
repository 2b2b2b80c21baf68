package netsuitetest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
)

func TestConcurrencyLimit(t *testing.T) {
	f := jobsFixture(t)
	f.fake.SetConcurrency(2)
	f.fake.SetFaults(netsuitetest.Faults{Slow: 1, Latency: 400 * time.Millisecond})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if resp, body, err := f.do("GET", netsuitetest.RecordPath+"job/1", nil, nil); err != nil || resp.StatusCode != http.StatusOK {
				t.Errorf("a request within the limit: %v %v %s", err, resp, body)
			}
		})
	}
	// Wait until both hold their slots, then ask for a third.
	for deadline := time.Now().Add(5 * time.Second); f.fake.Stats().Slowed < 2; {
		if time.Now().After(deadline) {
			t.Fatal("the slow requests never arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
	began := time.Now()
	resp, body := f.mustDo("GET", netsuitetest.RecordPath+"job/1", nil, nil)
	e := wantError(t, resp, body, http.StatusTooManyRequests, "CONCURRENCY_LIMIT_EXCEEDED")
	if e.Details[0].Detail != "Concurrent request limit exceeded. Request blocked." || time.Since(began) > 300*time.Millisecond {
		t.Errorf("over the limit: %q after %v", e.Details[0].Detail, time.Since(began))
	}
	// A RESTlet is throttled the RESTlet way.
	resp, body = f.mustDo("GET", netsuitetest.RESTletPath+"?script=customscript_portico_restlet&deploy=customdeploy_portico_restlet&action=file&id=1", nil, nil)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"code":"SSS_REQUEST_LIMIT_EXCEEDED"`) {
		t.Errorf("RESTlet over the limit: %d %s", resp.StatusCode, body)
	}
	wg.Wait()
	st := f.fake.Stats()
	if st.ConcurrencyRejected != 2 || st.MaxInFlight != 3 {
		t.Errorf("stats %+v", st)
	}
}

func TestInjectedErrors(t *testing.T) {
	f := jobsFixture(t)
	f.fake.SetFaults(netsuitetest.Faults{Throttle: 1})
	resp, body := f.mustDo("GET", netsuitetest.RecordPath+"job/1", nil, nil)
	wantError(t, resp, body, http.StatusTooManyRequests, "CONCURRENCY_LIMIT_EXCEEDED")
	f.fake.SetFaults(netsuitetest.Faults{ServerError: 1})
	resp, body = f.mustDo("GET", netsuitetest.RecordPath+"job/1", nil, nil)
	wantError(t, resp, body, http.StatusInternalServerError, "UNEXPECTED_ERROR")
	f.fake.SetFaults(netsuitetest.Faults{Unavailable: 1})
	if resp, _ = f.mustDo("GET", netsuitetest.RecordPath+"job/1", nil, nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("503 fault: %d", resp.StatusCode)
	}
	f.fake.SetFaults(netsuitetest.Faults{Drop: 1})
	// A POST, which net/http does not resend by itself.
	if _, _, err := f.do("POST", netsuitetest.SuiteQLPath, map[string]string{"q": "SELECT id FROM job"}, map[string]string{"Prefer": "transient"}); err == nil {
		t.Error("a dropped connection answered")
	}
	f.fake.SetFaults(netsuitetest.Faults{})
	if resp, _ = f.mustDo("GET", netsuitetest.RecordPath+"job/1", nil, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("after the faults are cleared: %d", resp.StatusCode)
	}
	st := f.fake.Stats()
	if st.Throttled != 1 || st.ServerErrors != 1 || st.Unavailable != 1 || st.Dropped != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestFaultRates checks that rates are fractions of requests and that a
// seed repeats the same faults.
func TestFaultRates(t *testing.T) {
	outcomes := func() (string, int) {
		f := jobsFixture(t)
		f.fake.SetFaults(netsuitetest.Faults{Throttle: 0.15, ServerError: 0.15})
		var seq strings.Builder
		failed := 0
		for range 300 {
			resp, _ := f.mustDo("GET", netsuitetest.RecordPath+"job/1", nil, nil)
			seq.WriteString(http.StatusText(resp.StatusCode)[:1])
			if resp.StatusCode != http.StatusOK {
				failed++
			}
		}
		return seq.String(), failed
	}
	a, failed := outcomes()
	if failed < 60 || failed > 120 {
		t.Errorf("%d of 300 requests failed with a 30%% fault rate", failed)
	}
	if b, _ := outcomes(); a != b {
		t.Error("the same seed gave different faults")
	}
}

func TestDropAfterWriteWithIdempotency(t *testing.T) {
	f := jobsFixture(t)
	key := map[string]string{netsuitetest.IdempotencyHeader: "2b1d-drop"}
	f.fake.SetFaults(netsuitetest.Faults{DropAfterWrite: 1})
	if _, _, err := f.do("POST", netsuitetest.RecordPath+"job", map[string]any{"companyName": "Landed"}, key); err == nil {
		t.Fatal("the write answered though its connection was to be dropped")
	}
	if f.fake.Count("job") != 4 {
		t.Fatalf("the write did not land before the drop: %d jobs", f.fake.Count("job"))
	}
	f.fake.SetFaults(netsuitetest.Faults{})
	// The retry is refused as a repeat, pointing at the record that landed.
	resp, raw := f.mustDo("POST", netsuitetest.RecordPath+"job", map[string]any{"companyName": "Landed"}, key)
	wantIdempotencyError(t, resp, raw, f.srv.URL+netsuitetest.RecordPath+"job/4")
	if f.fake.Count("job") != 4 || f.fake.Writes("2b1d-drop") != (netsuitetest.WriteCount{Requests: 2, Applied: 1}) {
		t.Errorf("%d jobs, writes %+v", f.fake.Count("job"), f.fake.Writes("2b1d-drop"))
	}
	if f.fake.Stats().DroppedAfterWrite != 1 {
		t.Errorf("stats %+v", f.fake.Stats())
	}
	// With every write dropped, a retry still gets its answer: a repeat
	// is refused, not applied, so there is nothing to drop after.
	f.fake.SetFaults(netsuitetest.Faults{DropAfterWrite: 1})
	resp, raw = f.mustDo("POST", netsuitetest.RecordPath+"job", map[string]any{"companyName": "Landed"}, key)
	wantIdempotencyError(t, resp, raw, f.srv.URL+netsuitetest.RecordPath+"job/4")
	patch := map[string]string{netsuitetest.IdempotencyHeader: "2b1d-drop-patch"}
	if _, _, err := f.do("PATCH", netsuitetest.RecordPath+"job/2", map[string]any{"companyName": "Patched"}, patch); err == nil {
		t.Fatal("the PATCH answered though its connection was to be dropped")
	}
	resp, raw = f.mustDo("PATCH", netsuitetest.RecordPath+"job/2", map[string]any{"companyName": "Patched"}, patch)
	wantIdempotencyError(t, resp, raw, f.srv.URL+netsuitetest.RecordPath+"job/2")
	if r, _ := f.fake.Get("job", 2); r.Fields["companyName"] != "Patched" {
		t.Errorf("the dropped PATCH did not land: %+v", r)
	}
	if f.fake.Count("job") != 4 || f.fake.Writes("2b1d-drop") != (netsuitetest.WriteCount{Requests: 3, Applied: 1}) ||
		f.fake.Writes("2b1d-drop-patch") != (netsuitetest.WriteCount{Requests: 2, Applied: 1}) {
		t.Errorf("%d jobs, writes %+v %+v", f.fake.Count("job"), f.fake.Writes("2b1d-drop"), f.fake.Writes("2b1d-drop-patch"))
	}
	if f.fake.Stats().DroppedAfterWrite != 2 {
		t.Errorf("stats %+v", f.fake.Stats())
	}
}

func TestPageFault(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(30)
	q := "SELECT id FROM job ORDER BY lastmodifieddate, id"
	f.fake.SetFaults(netsuitetest.Faults{Page: netsuitetest.PageFault{Page: 2, Times: 2}})
	f.mustQuery(q, 10, 0)
	for range 2 {
		status, _, body := f.query(q, 10, 10)
		if status != http.StatusInternalServerError || !strings.Contains(string(body), "UNEXPECTED_ERROR") {
			t.Errorf("page 2: %d %s", status, body)
		}
	}
	if p := f.mustQuery(q, 10, 10); p.Count != 10 {
		t.Errorf("page 2 after its faults: %d rows", p.Count)
	}
	f.fake.SetFaults(netsuitetest.Faults{Page: netsuitetest.PageFault{Page: 3, Truncate: true}})
	resp, body, err := f.do("POST", netsuitetest.SuiteQLPath+"?limit=10&offset=20", map[string]string{"q": q}, map[string]string{"Prefer": "transient"})
	if err == nil && json.Valid(body) {
		t.Errorf("a truncated page arrived whole: %v %s", resp.StatusCode, body)
	}
	f.mustQuery(q, 10, 20)
	if st := f.fake.Stats(); st.PageFaults != 3 {
		t.Errorf("page faults %d, want 3", st.PageFaults)
	}
}

func TestAuthentication(t *testing.T) {
	f := jobsFixture(t)
	// No credentials, a wrong secret, a bearer token nobody issued.
	req, _ := http.NewRequest("GET", f.srv.URL+netsuitetest.RecordPath+"job/1", nil)
	tryReq := func(req *http.Request) {
		t.Helper()
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e envelope
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || resp.StatusCode != http.StatusUnauthorized ||
			len(e.Details) != 1 || e.Details[0].Code != "INVALID_LOGIN" {
			t.Errorf("unauthenticated request: %d %+v", resp.StatusCode, e)
		}
	}
	tryReq(req)
	bad := f.tba
	bad.TokenSecret = "wrong"
	req, _ = http.NewRequest("GET", f.srv.URL+netsuitetest.RecordPath+"job/1", nil)
	if err := bad.Authorize(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	tryReq(req)
	req, _ = http.NewRequest("GET", f.srv.URL+netsuitetest.RecordPath+"job/1", nil)
	req.Header.Set("Authorization", "Bearer made-up")
	tryReq(req)
	// A TBA-signed request whose URL has a query is accepted.
	if resp, body := f.mustDo("GET", netsuitetest.RecordPath+"job/1?expandSubResources=true", nil, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("signed request: %d %s", resp.StatusCode, body)
	}
	if f.fake.Stats().AuthFailures != 3 {
		t.Errorf("auth failures %d, want 3", f.fake.Stats().AuthFailures)
	}
	// Without an M2M verifier there is no token endpoint.
	resp, err := f.srv.Client().Post(f.srv.URL+netsuitetest.TokenPath, "application/x-www-form-urlencoded", strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("token endpoint without M2M: %d", resp.StatusCode)
	}
}

func TestRESTlet(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(5)
	f.fake.SetSavedSearch("customsearch_res_project_list", netsuitetest.SavedSearch{
		Columns: []string{"Name", "Status"}, Rows: [][]string{{"Red Creek", "Active"}}})
	restlet := netsuitetest.RESTletPath + "?script=customscript_portico_restlet&deploy=customdeploy_portico_restlet"
	get := func(query string, into any) (int, string) {
		t.Helper()
		resp, body := f.mustDo("GET", restlet+query, nil, nil)
		if into != nil && resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal(body, into); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode, string(body)
	}
	var list struct {
		Files []struct{ ID, Name, ContentType string }
	}
	if status, body := get("&action=files&recordtype=job&recordid=1", &list); status != http.StatusOK || len(list.Files) == 0 {
		t.Fatalf("files of job 1: %d %s", status, body)
	}
	var file struct {
		Name, ContentType, ContentBase64 string
		Size                             int
	}
	if status, body := get("&action=file&id="+list.Files[0].ID, &file); status != http.StatusOK || file.Size == 0 ||
		file.Name != list.Files[0].Name || file.ContentBase64 == "" {
		t.Errorf("file: %d %.200s", status, body)
	}
	// POST takes its arguments from a JSON body.
	resp, body := f.mustDo("POST", restlet, map[string]any{"action": "savedsearch", "id": "customsearch_res_project_list"}, nil)
	if resp.StatusCode != http.StatusOK || string(body) != `{"columns":["Name","Status"],"rows":[["Red Creek","Active"]]}` {
		t.Errorf("saved search: %d %s", resp.StatusCode, body)
	}
	for _, c := range []struct{ query, code string }{
		{"&action=file&id=999999", "RCRD_DSNT_EXIST"},
		{"&action=file", "SSS_MISSING_REQD_ARGUMENT"},
		{"&action=savedsearch&id=customsearch_nope", "RCRD_DSNT_EXIST"},
		{"&action=files&recordtype=nope&recordid=1", "SSS_MISSING_REQD_ARGUMENT"},
		{"&action=launch", "INVALID_ACTION"},
		{"", "SSS_MISSING_REQD_ARGUMENT"},
	} {
		if status, body := get(c.query, nil); status != http.StatusBadRequest || !strings.Contains(body, `"code":"`+c.code+`"`) {
			t.Errorf("%s: %d %s, want 400 %s", c.query, status, body, c.code)
		}
	}
	resp, body = f.mustDo("GET", netsuitetest.RESTletPath+"?script=customscript_other&deploy=1&action=file&id=1", nil, nil)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "SSS_INVALID_SCRIPTLET_ID") {
		t.Errorf("another script: %d %s", resp.StatusCode, body)
	}
}
