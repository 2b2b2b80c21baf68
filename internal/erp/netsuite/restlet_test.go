package netsuite_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

var tbaAuth = netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts"}

// restletAccount is a fake account with two customers, files attached to
// the first, one saved search, served through wrap (nil: as is), and a
// TBA client of it that knows the RESTlet.
func restletAccount(t *testing.T, wrap func(http.Handler) http.Handler, edit func(*netsuite.Config)) (*netsuitetest.Server, *netsuite.Client) {
	t.Helper()
	fake, err := netsuitetest.New(netsuitetest.Config{
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
			return "cs", "ts", ck == "ck" && tid == "tid"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Red Creek", "Blue Hill"} {
		if _, err := fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyname": name}}); err != nil {
			t.Fatal(err)
		}
	}
	mod := time.Date(2024, 3, 5, 14, 30, 0, 0, time.UTC)
	err = fake.PutFiles(context.Background(), []records.File{
		{ID: 501, Kind: "customer", RecordID: 1, Name: "contract.pdf", ContentType: "application/pdf",
			ModifiedAt: mod, Content: []byte("%PDF-1.7 \x00\xff binary")},
		{ID: 500, Kind: "customer", RecordID: 1, Name: "notes.txt", ContentType: "text/plain", Content: []byte("hello")},
		{ID: 502, Kind: "customer", RecordID: 2, Name: "other.txt", ContentType: "text/plain", Content: []byte("x")},
	})
	if err != nil {
		t.Fatal(err)
	}
	fake.SetSavedSearch("customsearch_res_project_list", netsuitetest.SavedSearch{
		Columns: []string{"Name", "Status"}, Rows: [][]string{{"Red Creek", "Active"}, {"Blue Hill", ""}}})
	var h http.Handler = fake
	if wrap != nil {
		h = wrap(fake)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cfg := netsuite.Config{Account: testAccount, BaseURL: srv.URL, Backoff: time.Millisecond, Auth: tbaAuth,
		RESTletScript: netsuitetest.DefaultRESTletScript, RESTletDeploy: netsuitetest.DefaultRESTletDeploy}
	if edit != nil {
		edit(&cfg)
	}
	c, err := netsuite.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fake, c
}

func TestRESTletFiles(t *testing.T) {
	_, c := restletAccount(t, nil, nil)
	ctx := context.Background()
	k, _ := records.Lookup("customer")
	list, err := c.RecordFiles(ctx, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != 500 || list[1].ID != 501 {
		t.Fatalf("files of customer 1: %+v", list)
	}
	pdf := list[1]
	if pdf.Kind != "customer" || pdf.RecordID != 1 || pdf.Name != "contract.pdf" || pdf.ContentType != "application/pdf" ||
		pdf.Size != int64(len("%PDF-1.7 \x00\xff binary")) || pdf.Content != nil || !pdf.ModifiedAt.Equal(time.Date(2024, 3, 5, 14, 30, 0, 0, time.UTC)) {
		t.Fatalf("listed file: %+v", pdf)
	}
	if !list[0].ModifiedAt.IsZero() {
		t.Errorf("a file without a modified time: %v", list[0].ModifiedAt)
	}
	if none, err := c.RecordFiles(ctx, k, 99); err != nil || len(none) != 0 || none == nil {
		t.Fatalf("files of a record without any: %#v %v", none, err)
	}

	f, err := c.File(ctx, 501)
	if err != nil {
		t.Fatal(err)
	}
	if f.ID != 501 || f.Name != "contract.pdf" || f.ContentType != "application/pdf" || f.Size != pdf.Size ||
		!bytes.Equal(f.Content, []byte("%PDF-1.7 \x00\xff binary")) {
		t.Fatalf("file: %+v", f)
	}
	if _, err := c.File(ctx, 999); !portal.IsNotFound(err) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestRESTletSavedSearch(t *testing.T) {
	fake, c := restletAccount(t, nil, nil)
	ctx := context.Background()
	res, err := c.SavedSearch(ctx, "customsearch_res_project_list")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Columns) != "[Name Status]" || len(res.Rows) != 2 || res.Rows[1][0] != "Blue Hill" || res.Rows[1][1] != "" || res.Truncated {
		t.Fatalf("saved search: %+v", res)
	}
	if _, err := c.SavedSearch(ctx, "customsearch_nope"); !portal.IsNotFound(err) {
		t.Fatalf("missing search: %v", err)
	}
	big := netsuitetest.SavedSearch{Columns: []string{"N"}}
	for i := range netsuite.MaxSavedSearchRows + 5 {
		big.Rows = append(big.Rows, []string{fmt.Sprint(i)})
	}
	fake.SetSavedSearch("customsearch_big", big)
	res, err = c.SavedSearch(ctx, "customsearch_big")
	if err != nil || len(res.Rows) != netsuite.MaxSavedSearchRows || !res.Truncated {
		t.Fatalf("a search past the cap: %d rows, truncated %v, %v", len(res.Rows), res.Truncated, err)
	}
	fake.SetSavedSearch("customsearch_ragged", netsuitetest.SavedSearch{Columns: []string{"A", "B"}, Rows: [][]string{{"1"}}})
	if _, err := c.SavedSearch(ctx, "customsearch_ragged"); err == nil {
		t.Fatal("a row shorter than the columns was accepted")
	}
}

func TestRESTletRefusesBadArguments(t *testing.T) {
	fake, c := restletAccount(t, nil, nil)
	ctx := context.Background()
	before := fake.Stats().Requests
	for _, id := range []string{"", "customsearch", "customsearch_Res", "customsearch_x&action=file", "123", "../customsearch_x", "customsearch_x\n"} {
		_, err := c.SavedSearch(ctx, id)
		if pe, ok := errors.AsType[*portal.Error](err); !ok || pe.Code != portal.CodeInvalid {
			t.Errorf("saved search id %q: %v", id, err)
		}
	}
	for _, id := range []int64{0, -3} {
		if _, err := c.File(ctx, id); !portal.IsNotFound(err) {
			t.Errorf("file %d: %v", id, err)
		}
	}
	k, _ := records.Lookup("customer")
	if _, err := c.RecordFiles(ctx, k, 0); err == nil {
		t.Error("record 0 accepted")
	}
	if _, err := c.RecordFiles(ctx, nil, 1); err == nil {
		t.Error("no kind accepted")
	}
	if n := fake.Stats().Requests - before; n != 0 {
		t.Fatalf("%d requests sent for bad arguments", n)
	}
}

func TestRESTletNeedsItsIDs(t *testing.T) {
	_, c := restletAccount(t, nil, func(cfg *netsuite.Config) { cfg.RESTletDeploy = "" })
	if _, err := c.File(context.Background(), 500); !errors.Is(err, netsuite.ErrNoRESTlet) {
		t.Fatalf("no deploy id: %v", err)
	}
	// A script the account does not have is a permanent, explained error.
	_, c = restletAccount(t, nil, func(cfg *netsuite.Config) { cfg.RESTletScript = "customscript_other" })
	_, err := c.File(context.Background(), 500)
	e, ok := errors.AsType[*erp.Error](err)
	if !ok || e.Code != "SSS_INVALID_SCRIPTLET_ID" || !e.Permanent || !strings.Contains(e.Detail, "customscript_other") {
		t.Fatalf("unknown script: %#v", err)
	}
}

func TestRESTletThrottlingIsRetried(t *testing.T) {
	// The first two requests are throttled the RESTlet way (400
	// SSS_REQUEST_LIMIT_EXCEEDED), the third is served.
	var fake *netsuitetest.Server
	var n atomic.Int64
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 3 {
				fake.SetFaults(netsuitetest.Faults{})
			}
			h.ServeHTTP(w, r)
		})
	}
	fake, c := restletAccount(t, wrap, nil)
	fake.SetFaults(netsuitetest.Faults{Throttle: 1})
	f, err := c.File(context.Background(), 500)
	if err != nil || string(f.Content) != "hello" {
		t.Fatalf("throttled then served: %+v %v", f, err)
	}
	if st := fake.Stats(); st.Throttled != 2 || n.Load() != 3 {
		t.Fatalf("throttled %d times in %d requests, want 2 in 3", st.Throttled, n.Load())
	}

	// Throttled on every attempt: a throttling error, not a permanent one.
	fake2, c2 := restletAccount(t, nil, func(cfg *netsuite.Config) { cfg.Attempts = 3 })
	fake2.SetFaults(netsuitetest.Faults{Throttle: 1})
	_, err = c2.SavedSearch(context.Background(), "customsearch_res_project_list")
	e, ok := errors.AsType[*erp.Error](err)
	if !ok || !e.Throttled || e.Permanent || e.Status != http.StatusBadRequest || e.Code != "SSS_REQUEST_LIMIT_EXCEEDED" {
		t.Fatalf("always throttled: %#v", err)
	}
	if st := fake2.Stats(); st.Throttled != 3 {
		t.Fatalf("%d attempts, want 3", st.Throttled)
	}
}

// recorder answers every request with an empty 200 and records the URLs
// asked.
type recorder struct{ urls []string }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.urls = append(r.urls, req.URL.String())
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: http.NoBody, Request: req}, nil
}

func TestRESTletURL(t *testing.T) {
	for _, c := range []struct {
		base, restlet, want string
	}{
		{"", "", "https://123456-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?"},
		{"http://127.0.0.1:9000", "", "http://127.0.0.1:9000/app/site/hosting/restlet.nl?"},
		{"http://127.0.0.1:9000", "https://proxy.example/ns/", "https://proxy.example/ns/app/site/hosting/restlet.nl?"},
	} {
		rec := &recorder{}
		cl, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: c.base, RESTletURL: c.restlet, Auth: tbaAuth,
			RESTletScript: "customscript_portico_restlet", RESTletDeploy: "customdeploy_portico_restlet",
			HTTP: &http.Client{Transport: rec}, Attempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		cl.SavedSearch(context.Background(), "customsearch_x") // the empty answer does not decode
		if len(rec.urls) != 1 || !strings.HasPrefix(rec.urls[0], c.want) {
			t.Errorf("base %q, RESTlet %q: asked %v, want %s…", c.base, c.restlet, rec.urls, c.want)
			continue
		}
		if !strings.HasSuffix(rec.urls[0], "?action=savedsearch&deploy=customdeploy_portico_restlet&id=customsearch_x&script=customscript_portico_restlet") {
			t.Errorf("query: %s", rec.urls[0])
		}
	}
	if _, err := netsuite.New(netsuite.Config{Account: testAccount, Auth: tbaAuth, RESTletURL: "ftp://x"}); err == nil {
		t.Error("an ftp RESTlet URL was accepted")
	}
}

func TestRESTletFileSizeIsChecked(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"short", `{"id":"7","name":"a.txt","contentType":"text/plain","size":5,"contentBase64":"aGk="}`},
		{"not base64", `{"id":"7","name":"a.txt","contentType":"text/plain","size":2,"contentBase64":"!!"}`},
		{"another file", `{"id":"8","name":"a.txt","contentType":"text/plain","size":2,"contentBase64":"aGk="}`},
		{"no id", `{"name":"a.txt","size":2,"contentBase64":"aGk="}`},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, c.body)
		}))
		cl, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: srv.URL, Auth: tbaAuth, Attempts: 1,
			RESTletScript: "customscript_portico_restlet", RESTletDeploy: "customdeploy_portico_restlet"})
		if err != nil {
			t.Fatal(err)
		}
		if f, err := cl.File(context.Background(), 7); err == nil {
			t.Errorf("%s: accepted %+v", c.name, f)
		}
		srv.Close()
	}
	// Base64 broken into lines is still read.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"id":"7","name":"a.txt","size":6,"contentBase64":"aGVs\r\nbG8h"}`)
	}))
	defer srv.Close()
	cl, _ := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: srv.URL, Auth: tbaAuth,
		RESTletScript: "customscript_portico_restlet", RESTletDeploy: "customdeploy_portico_restlet"})
	if f, err := cl.File(context.Background(), 7); err != nil || string(f.Content) != "hello!" || f.ContentType != "application/octet-stream" {
		t.Fatalf("wrapped base64: %+v %v", f, err)
	}
}

// TestRESTletScriptMatchesTheFake runs restlet/portico_restlet.js under
// Node, with stand-ins for NetSuite's modules holding the same files and
// saved searches as a fake account, and checks that the script and the
// fake answer the same calls alike (error messages aside).
func TestRESTletScriptMatchesTheFake(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	type scriptFile struct {
		ID             int64  `json:"id"`
		Name           string `json:"name"`
		FileType       string `json:"fileType"`
		IsText         bool   `json:"isText"`
		Contents       string `json:"contents"`
		DocumentSizeKB int    `json:"documentSizeKB"`
		Modified       string `json:"modified,omitempty"`
		RecordType     string `json:"recordType"`
		RecordID       int64  `json:"recordId"`
	}
	mod := time.Date(2024, 3, 5, 14, 30, 0, 0, time.UTC)
	files := []struct {
		f          records.File
		recordType string
		fileType   string
		text       bool
	}{
		{records.File{ID: 500, Kind: "customer", RecordID: 1, Name: "notes.txt", ContentType: "text/plain", Content: []byte("hello")}, "customer", "PLAINTEXT", true},
		{records.File{ID: 501, Kind: "customer", RecordID: 1, Name: "contract.pdf", ContentType: "application/pdf", ModifiedAt: mod,
			Content: []byte("%PDF-1.7 \x00\xff\xfe binary")}, "customer", "PDF", false},
		{records.File{ID: 502, Kind: "customer", RecordID: 2, Name: "other.csv", ContentType: "text/csv", Content: []byte("a,b\n1,2\n")}, "customer", "CSV", true},
		{records.File{ID: 503, Kind: "project", RecordID: 7, Name: "plan.docx", ModifiedAt: mod.Add(time.Hour),
			ContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", Content: []byte("PK\x03\x04docx")}, "job", "WORD", false},
		{records.File{ID: 504, Kind: "project", RecordID: 7, Name: "café.txt", ContentType: "text/plain", Content: []byte("déjà vu €")}, "job", "PLAINTEXT", true},
		{records.File{ID: 505, Kind: "project", RecordID: 7, Name: "photo.png", ContentType: "image/png", Content: []byte("\x89PNG\r\n\x1a\n")}, "job", "PNGIMAGE", false},
	}
	fake, err := netsuitetest.New(netsuitetest.Config{
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
			return "cs", "ts", ck == "ck" && tid == "tid"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	var fakeFiles []records.File
	type scriptRecord struct {
		RecordType string `json:"recordType"`
		Family     string `json:"family"`
		ID         int64  `json:"id"`
		RecType    int64  `json:"rectype,omitempty"`
	}
	var input struct {
		Files        []scriptFile   `json:"files"`
		Searches     map[string]any `json:"searches"`
		Records      []scriptRecord `json:"records"`
		UploadFolder int64          `json:"uploadFolder"`
		Calls        []any          `json:"calls"`
	}
	// The records notes and files are added to: an entity, a custom record
	// (its type's internal id 286, as the vendor questionnaire link's), a
	// transaction.
	if err := fake.PutRecords(context.Background(), []records.Record{
		{Kind: "customer", ID: 1, ModifiedAt: mod, Fields: []byte(`{"companyName":"Acme"}`)},
		{Kind: "project", ID: 7, ModifiedAt: mod, Fields: []byte(`{"companyName":"Red Creek"}`)},
		{Kind: "projectrequest", ID: 3, ModifiedAt: mod, Fields: []byte(`{"name":"Wetland survey"}`)},
		{Kind: "invoice", ID: 100001, ModifiedAt: mod, Fields: []byte(`{"memo":"March"}`)},
	}); err != nil {
		t.Fatal(err)
	}
	input.Records = []scriptRecord{{"customer", "entity", 1, 0}, {"job", "entity", 7, 0},
		{"customrecord_res_project_request", "custom", 3, 286}, {"invoice", "transaction", 100001, 0}}
	input.UploadFolder = netsuitetest.DefaultUploadFolder
	for _, x := range files {
		fakeFiles = append(fakeFiles, x.f)
		sf := scriptFile{ID: x.f.ID, Name: x.f.Name, FileType: x.fileType, IsText: x.text, DocumentSizeKB: (len(x.f.Content) + 1023) / 1024,
			RecordType: x.recordType, RecordID: x.f.RecordID, Contents: base64.StdEncoding.EncodeToString(x.f.Content)}
		if x.text {
			sf.Contents = string(x.f.Content)
		}
		if !x.f.ModifiedAt.IsZero() {
			sf.Modified = x.f.ModifiedAt.Format(time.RFC3339)
		}
		input.Files = append(input.Files, sf)
	}
	if err := fake.PutFiles(context.Background(), fakeFiles); err != nil {
		t.Fatal(err)
	}
	type cell struct {
		Text  *string `json:"text"`
		Value string  `json:"value"`
	}
	text := func(s string) *string { return &s }
	cols := []map[string]string{{"label": "Name", "name": "entityid"}, {"label": "Status", "name": "entitystatus"}, {"label": "", "name": "formulatext"}}
	fake.SetSavedSearch("customsearch_res_project_list", netsuitetest.SavedSearch{
		Columns: []string{"Name", "Status", "formulatext"}, Rows: [][]string{{"Red Creek", "Active", "x"}, {"Blue Hill", "", ""}}})
	small := map[string]any{"columns": cols, "rows": [][]cell{
		{{Value: "Red Creek"}, {Text: text("Active"), Value: "13"}, {Value: "x"}},
		{{Value: "Blue Hill"}, {Text: text(""), Value: ""}, {}},
	}}
	big := netsuitetest.SavedSearch{Columns: []string{"N"}}
	var bigRows [][]cell
	for i := range netsuite.MaxSavedSearchRows + 5 {
		big.Rows = append(big.Rows, []string{strconv.Itoa(i)})
		bigRows = append(bigRows, []cell{{Value: strconv.Itoa(i)}})
	}
	fake.SetSavedSearch("customsearch_big", big)
	exact := netsuitetest.SavedSearch{Columns: []string{"N"}, Rows: big.Rows[:netsuite.MaxSavedSearchRows]}
	fake.SetSavedSearch("customsearch_exact", exact)
	input.Searches = map[string]any{
		"customsearch_res_project_list": small,
		"customsearch_big":              map[string]any{"columns": []map[string]string{{"label": "N", "name": "n"}}, "rows": bigRows},
		"customsearch_exact":            map[string]any{"columns": []map[string]string{{"label": "N", "name": "n"}}, "rows": bigRows[:netsuite.MaxSavedSearchRows]},
	}
	type call struct {
		Method string         `json:"method"`
		Args   map[string]any `json:"args"`
	}
	calls := []call{
		{"GET", map[string]any{"action": "file", "id": "501"}},
		{"GET", map[string]any{"action": "file", "id": "500"}},
		{"GET", map[string]any{"action": "file", "id": "503"}},
		{"GET", map[string]any{"action": "file", "id": "504"}},
		{"POST", map[string]any{"action": "file", "id": 505}},
		{"GET", map[string]any{"action": "files", "recordtype": "customer", "recordid": "1"}},
		{"GET", map[string]any{"action": "files", "recordtype": "job", "recordid": "7"}},
		{"GET", map[string]any{"action": "files", "recordtype": "customer", "recordid": "99"}},
		{"GET", map[string]any{"action": "savedsearch", "id": "customsearch_res_project_list"}},
		{"POST", map[string]any{"action": "savedsearch", "id": "customsearch_big"}},
		{"GET", map[string]any{"action": "savedsearch", "id": "customsearch_exact"}},
		{"GET", map[string]any{"action": "file", "id": "999"}},
		{"GET", map[string]any{"action": "file", "id": "abc"}},
		{"GET", map[string]any{"action": "file"}},
		{"GET", map[string]any{"action": "savedsearch", "id": "customsearch_nope"}},
		{"GET", map[string]any{"action": "savedsearch", "id": "123"}},
		{"GET", map[string]any{"action": "savedsearch"}},
		{"GET", map[string]any{"action": "files", "recordtype": "nope", "recordid": "1"}},
		{"GET", map[string]any{"action": "files", "recordtype": "customer"}},
		{"GET", map[string]any{"action": "launch"}},
		{"GET", map[string]any{}},
		// The additions: notes on an entity, a custom record and a
		// transaction (a repeated external id adds nothing), files.
		{"POST", map[string]any{"action": "addnote", "recordtype": "customer", "recordid": "1", "link": "entity",
			"title": "Ada (Portico)", "note": "Called about the permit.", "externalid": "portico-k1"}},
		{"POST", map[string]any{"action": "addnote", "recordtype": "customer", "recordid": "1", "link": "entity",
			"title": "Ada (Portico)", "note": "Called about the permit.", "externalid": "portico-k1"}},
		{"POST", map[string]any{"action": "addnote", "recordtype": "customrecord_res_project_request", "recordid": "3",
			"link": "record", "title": "Ada (Portico)", "note": "Scope agreed.\nNext: quote.", "externalid": "portico-k2"}},
		{"POST", map[string]any{"action": "addnote", "recordtype": "invoice", "recordid": "100001", "link": "transaction",
			"title": "Pete (Portico)", "note": "Sent again.", "externalid": "portico-k3"}},
		{"POST", map[string]any{"action": "addnote", "recordtype": "customer", "recordid": "99", "link": "entity",
			"note": "x", "externalid": "portico-k4"}},
		{"POST", map[string]any{"action": "addnote", "recordtype": "customer", "recordid": "1", "link": "entity",
			"note": "", "externalid": "portico-k5"}},
		{"GET", map[string]any{"action": "addnote", "recordtype": "customer", "recordid": "1", "link": "entity",
			"note": "x", "externalid": "portico-k6"}},
		{"POST", map[string]any{"action": "addfile", "recordtype": "job", "recordid": "7", "name": "plan.pdf", "filetype": "PDF",
			"contentBase64": base64.StdEncoding.EncodeToString([]byte("%PDF-1.7 \x00\xff")), "key": "portico-f1"}},
		{"POST", map[string]any{"action": "addfile", "recordtype": "job", "recordid": "7", "name": "plan.pdf", "filetype": "PDF",
			"contentBase64": base64.StdEncoding.EncodeToString([]byte("%PDF-1.7 \x00\xff")), "key": "portico-f1"}},
		{"POST", map[string]any{"action": "addfile", "recordtype": "customer", "recordid": "1", "name": "café.txt",
			"filetype": "PLAINTEXT", "contentBase64": base64.StdEncoding.EncodeToString([]byte("déjà vu €")), "key": "portico-f2"}},
		{"POST", map[string]any{"action": "addfile", "recordtype": "job", "recordid": "7", "name": "x.exe", "filetype": "EXE",
			"contentBase64": "TVo=", "key": "portico-f3"}},
		{"GET", map[string]any{"action": "file", "id": "506"}},
		{"GET", map[string]any{"action": "file", "id": "507"}},
	}
	for _, c := range calls {
		input.Calls = append(input.Calls, c)
	}
	in, _ := json.Marshal(input)
	cmd := exec.Command(node, filepath.Join("restlet", "testdata", "harness.js"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var script []struct {
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(out, &script); err != nil || len(script) != len(calls) {
		t.Fatalf("harness answered %d of %d calls: %v %.300s", len(script), len(calls), err, out)
	}

	srv := httptest.NewServer(fake)
	defer srv.Close()
	restlet := srv.URL + netsuitetest.RESTletPath + "?script=" + netsuitetest.DefaultRESTletScript + "&deploy=" + netsuitetest.DefaultRESTletDeploy
	for i, c := range calls {
		var req *http.Request
		if c.Method == "POST" {
			b, _ := json.Marshal(c.Args)
			req, _ = http.NewRequest("POST", restlet, bytes.NewReader(b))
		} else {
			u := restlet
			for k, v := range c.Args {
				u += "&" + url.QueryEscape(k) + "=" + url.QueryEscape(fmt.Sprint(v))
			}
			req, _ = http.NewRequest("GET", u, nil)
		}
		req.Header.Set("Content-Type", "application/json")
		if err := tbaAuth.Authorize(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got := script[i]
		if resp.StatusCode != got.Status {
			t.Errorf("%s %v: fake %d %.200s, script %d %.200s", c.Method, c.Args, resp.StatusCode, body, got.Status, got.Body)
			continue
		}
		var fakeBody, scriptBody any
		json.Unmarshal(body, &fakeBody)
		json.Unmarshal(got.Body, &scriptBody)
		if got.Status != http.StatusOK {
			// Errors: the same code; messages may differ.
			fakeBody = fakeBody.(map[string]any)["error"].(map[string]any)["code"]
			scriptBody = scriptBody.(map[string]any)["error"].(map[string]any)["code"]
		}
		if !reflect.DeepEqual(fakeBody, scriptBody) {
			t.Errorf("%s %v:\n fake   %.300s\n script %.300s", c.Method, c.Args, body, got.Body)
		}
	}
	// The additions landed once each, where they were sent.
	notes := fake.Notes()
	if len(notes) != 3 || notes[0].RecordType != "customer" || notes[1].RecordType != "customrecord_res_project_request" ||
		notes[2].RecordID != 100001 || notes[0].Author != netsuitetest.IntegrationUser {
		t.Errorf("notes added: %+v", notes)
	}
	if f, ok := fake.File(506); !ok || f.Kind != "project" || f.RecordID != 7 || string(f.Content) != "%PDF-1.7 \x00\xff" {
		t.Errorf("file 506: %+v", f)
	}
	if _, ok := fake.File(508); ok {
		t.Error("the refused upload was saved")
	}
}
