package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

const (
	noteURL = "/api/v1/netsuite/portal-note"
	fileURL = "/api/v1/netsuite/portal-file"
)

type notesAnswer struct {
	Data struct {
		Columns []records.ColumnInfo
		Rows    []map[string]any
	}
}

func (e *authEnv) addNote(t *testing.T, tok string, role int64, target, note string, header http.Header) (int, notesAnswer, Problem) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"note": note})
	w := e.callWith("POST", target, tok, role, string(b), header)
	var a notesAnswer
	var p Problem
	if w.Code < 300 {
		json.Unmarshal(w.Body.Bytes(), &a)
	} else {
		json.Unmarshal(w.Body.Bytes(), &p)
	}
	return w.Code, a, p
}

func TestAddNote(t *testing.T) {
	e, tok := recordsEnv(t)
	target := noteURL + "?type=project&id=1"
	var before notesAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1&tab=notes", &before)
	var view viewAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1", &view)

	code, a, p := e.addNote(t, tok, 10, target, "Walked the site.\nCulverts clear.", nil)
	if code != 201 || len(a.Data.Rows) != len(before.Data.Rows)+1 {
		t.Fatalf("add: %d %+v %+v", code, a.Data, p)
	}
	last := a.Data.Rows[len(a.Data.Rows)-1]
	if last["text"] != "Walked the site.\nCulverts clear." || last["author"] != "Ada Admin" {
		t.Fatalf("the note: %+v", last)
	}
	// The record keeps its version: an edit form opened before still saves.
	var after viewAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1", &after)
	if !after.Data.Version.Equal(view.Data.Version) {
		t.Fatalf("version moved: %v → %v", view.Data.Version, after.Data.Version)
	}
	// With an Idempotency-Key: added once, the repeat answers 200.
	key := http.Header{"Idempotency-Key": {`"note-1"`}}
	if code, a, _ = e.addNote(t, tok, 10, target, "Once.", key); code != 201 {
		t.Fatalf("keyed: %d", code)
	}
	n := len(a.Data.Rows)
	if code, a, _ = e.addNote(t, tok, 10, target, "Once.", key); code != 200 || len(a.Data.Rows) != n {
		t.Fatalf("repeat: %d, %d rows (want %d)", code, len(a.Data.Rows), n)
	}
	if code, _, _ = e.addNote(t, tok, 10, target, "Another.", key); code != 422 {
		t.Fatalf("key reused for another note: %d", code)
	}
	// The history names it.
	var hist tabAnswerJSON
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1&tab=history", &hist)
	if len(hist.Data.Rows) == 0 || hist.Data.Rows[0]["action"] != "Added a note" || hist.Data.Rows[0]["changes"] != "Once." {
		t.Fatalf("history %+v", hist.Data.Rows)
	}

	// Refusals, each clear, none a 500.
	for name, c := range map[string]struct {
		role         int64
		target, note string
		code         int
		field        string
	}{
		"empty":          {10, target, "  \n ", 422, "note"},
		"too long":       {10, target, strings.Repeat("x", records.MaxNote+1), 422, "note"},
		"control":        {10, target, "a\x00b", 422, "note"},
		"no such record": {10, noteURL + "?type=project&id=999999", "x", 404, ""},
		"no id":          {10, noteURL + "?type=project", "x", 400, "id"},
		"unknown kind":   {10, noteURL + "?type=nope&id=1", "x", 400, "type"},
		"may not edit":   {10, noteURL + "?type=vendor&id=1", "x", 403, ""},
		"viewer":         {14, target, "x", 403, ""},
		"invoice":        {10, noteURL + "?type=invoice&id=1", "x", 403, ""},
	} {
		tk := tok
		if c.role == 14 {
			viewer, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
			tk = viewer.Data.Token
		}
		code, _, p := e.addNote(t, tk, c.role, c.target, c.note, nil)
		if code != c.code || (c.field != "" && !hasField(p, c.field)) {
			t.Errorf("%s: %d %+v", name, code, p)
		}
	}
	if w := e.call("POST", target, tok, 10, `{"note": 5}`); w.Code != 400 {
		t.Errorf("not text: %d", w.Code)
	}
}

// upload posts a multipart form with one file part named part.
func (e *authEnv) upload(tok string, role int64, target, part, name string, content []byte, header http.Header) *httptest.ResponseRecorder {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile(part, name)
	fw.Write(content)
	mw.Close()
	h := http.Header{"Content-Type": {mw.FormDataContentType()}}
	for k, v := range header {
		h[k] = v
	}
	return e.callWith("POST", target, tok, role, body.String(), h)
}

type fileAnswer struct {
	Data struct {
		ID          int64
		Name        string
		Size        int64
		ContentType string
		Write       *records.WriteState
	}
}

func TestUploadFile(t *testing.T) {
	e, tok := recordsEnv(t)
	target := fileURL + "?type=customer&id=1"
	pdf := []byte("%PDF-1.7\n% a plan\n")
	w := e.upload(tok, 10, target, "file", "Site plan.pdf", pdf, nil)
	var a fileAnswer
	json.Unmarshal(w.Body.Bytes(), &a)
	if w.Code != 201 || a.Data.Name != "Site plan.pdf" || a.Data.Size != int64(len(pdf)) || a.Data.ContentType != "application/pdf" ||
		a.Data.Write != nil {
		t.Fatalf("upload: %d %s", w.Code, w.Body)
	}
	// It is in the Files tab and downloads as sent.
	var files struct{ Data []fileInfo }
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-file?type=customer&id=1", &files)
	found := false
	for _, f := range files.Data {
		found = found || f.ID == a.Data.ID
	}
	if !found {
		t.Fatalf("not listed: %+v", files.Data)
	}
	dl := e.call("GET", fmt.Sprintf("%s&fileId=%d", target, a.Data.ID), tok, 10, "")
	if dl.Code != 200 || !bytes.Equal(dl.Body.Bytes(), pdf) || dl.Header().Get("Content-Type") != "application/pdf" {
		t.Fatalf("download: %d %q", dl.Code, dl.Header())
	}
	// An Idempotency-Key attaches it once.
	key := http.Header{"Idempotency-Key": {"upload-1"}}
	first := e.upload(tok, 10, target, "file", "once.txt", []byte("hello"), key)
	again := e.upload(tok, 10, target, "file", "once.txt", []byte("hello"), key)
	var a1, a2 fileAnswer
	json.Unmarshal(first.Body.Bytes(), &a1)
	json.Unmarshal(again.Body.Bytes(), &a2)
	if first.Code != 201 || again.Code != 200 || a1.Data.ID != a2.Data.ID {
		t.Fatalf("repeat: %d %d %d %d", first.Code, again.Code, a1.Data.ID, a2.Data.ID)
	}

	viewer, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	for name, c := range map[string]struct {
		w     *httptest.ResponseRecorder
		code  int
		field string
	}{
		"program":        {e.upload(tok, 10, target, "file", "setup.exe", []byte("MZ\x90"), nil), 422, "file"},
		"not a pdf":      {e.upload(tok, 10, target, "file", "plan.pdf", []byte("MZ\x90"), nil), 422, "file"},
		"empty":          {e.upload(tok, 10, target, "file", "plan.pdf", nil, nil), 422, "file"},
		"too big":        {e.upload(tok, 10, target, "file", "big.pdf", append([]byte("%PDF-"), make([]byte, records.MaxFileSize)...), nil), 422, "file"},
		"no file part":   {e.upload(tok, 10, target, "attachment", "plan.pdf", pdf, nil), 422, "file"},
		"not multipart":  {e.call("POST", target, tok, 10, `{"file": "x"}`), 400, "file"},
		"viewer":         {e.upload(viewer.Data.Token, 14, target, "file", "plan.pdf", pdf, nil), 403, ""},
		"no such record": {e.upload(tok, 10, fileURL+"?type=customer&id=999999", "file", "plan.pdf", pdf, nil), 404, ""},
		"no files tab":   {e.upload(tok, 10, fileURL+"?type=projectrequest&id=1", "file", "plan.pdf", pdf, nil), 404, ""},
	} {
		var p Problem
		json.Unmarshal(c.w.Body.Bytes(), &p)
		if c.w.Code != c.code || (c.field != "" && !hasField(p, c.field)) {
			t.Errorf("%s: %d %s", name, c.w.Code, c.w.Body)
		}
	}
}

// In ERP mode a note and a file are queued for the ERP: the answer says
// so, the outbox holds them, and the file is listed as on its way.
func TestQueuedNoteAndFile(t *testing.T) {
	e, tok := recordsEnv(t)
	ten := e.store.Tenant("acme")
	eng := erpsync.New(nil, ten, erpsync.Options{})
	e.syncs = map[portal.TenantID]Syncer{"acme": eng}
	if code, _, p := e.addNote(t, tok, 10, noteURL+"?type=customer&id=2", "For NetSuite.", nil); code != 201 {
		t.Fatalf("note: %d %+v", code, p)
	}
	w := e.upload(tok, 10, fileURL+"?type=customer&id=2", "file", "w9.pdf", []byte("%PDF-1.4"), nil)
	var a fileAnswer
	json.Unmarshal(w.Body.Bytes(), &a)
	if w.Code != 201 || a.Data.ID < records.ProvisionalBase || a.Data.Write == nil || a.Data.Write.State != records.WritePending {
		t.Fatalf("file: %d %s", w.Code, w.Body)
	}
	var files struct{ Data []fileInfo }
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-file?type=customer&id=2", &files)
	if len(files.Data) != 1 || files.Data[0].Write == nil || files.Data[0].Write.State != records.WritePending {
		t.Fatalf("files while on their way: %+v", files.Data)
	}
	var st syncStatusAnswer
	e.getJSON(t, tok, 10, "/api/v1/sync/status", &st)
	if st.Data.Outbox[erpsync.EntryPending] != 2 {
		t.Fatalf("outbox %+v", st.Data.Outbox)
	}
	var view viewAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=customer&id=2", &view)
	if view.Data.Write.State != records.WritePending {
		t.Fatalf("record write state %+v", view.Data.Write)
	}
}

func TestUnchangedEditWritesNothing(t *testing.T) {
	e, tok := recordsEnv(t)
	var before viewAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=customer&id=3", &before)
	fields := map[string]any{}
	k, _ := records.Lookup("customer")
	for _, g := range before.Data.Groups {
		for _, f := range g.Fields {
			if kf, ok := k.FieldNamed(f.Name); ok && !kf.ReadOnly {
				if ref, isRef := f.Value.(map[string]any); isRef {
					fields[f.Name] = ref["id"]
				} else if _, seen := fields[f.Name]; !seen {
					fields[f.Name] = f.Value
				}
			}
		}
	}
	var hist tabAnswerJSON
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=customer&id=3&tab=history", &hist)
	w := e.call("PUT", "/api/v1/netsuite/portal-crud?type=customer&id=3", tok, 10,
		mustJSON(map[string]any{"fields": fields, "version": before.Data.Version}))
	var ans struct {
		Data struct {
			Unchanged bool
			Version   string
		}
	}
	json.Unmarshal(w.Body.Bytes(), &ans)
	if w.Code != 200 || !ans.Data.Unchanged {
		t.Fatalf("unchanged save: %d %s", w.Code, w.Body)
	}
	var after viewAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=customer&id=3", &after)
	var hist2 tabAnswerJSON
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=customer&id=3&tab=history", &hist2)
	if !after.Data.Version.Equal(before.Data.Version) || len(hist2.Data.Rows) != len(hist.Data.Rows) {
		t.Fatalf("wrote: version %v → %v, history %d → %d", before.Data.Version, after.Data.Version, len(hist.Data.Rows), len(hist2.Data.Rows))
	}
	// A real change is saved, and not marked unchanged.
	fields[k.Fields[0].Name] = "Renamed Client"
	w = e.call("PUT", "/api/v1/netsuite/portal-crud?type=customer&id=3", tok, 10,
		mustJSON(map[string]any{"fields": fields, "version": before.Data.Version}))
	ans.Data.Unchanged = false
	if json.Unmarshal(w.Body.Bytes(), &ans); w.Code != 200 || ans.Data.Unchanged || strings.Contains(w.Body.String(), "unchanged") {
		t.Fatalf("change: %d %s", w.Code, w.Body)
	}
}

func TestReadOnlyFieldsAreRefused(t *testing.T) {
	e, tok := recordsEnv(t)
	k, _ := records.Lookup("customer")
	var readOnly []string
	for _, f := range k.Fields {
		if f.ReadOnly {
			readOnly = append(readOnly, f.Name)
		}
	}
	if len(readOnly) == 0 {
		t.Fatal("the client has no read-only field (its balance, its id)")
	}
	for _, name := range readOnly {
		fields := validFields(k, "Acme")
		fields[name] = 5
		code, _, p := e.save(t, tok, 10, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": fields})
		if code != 422 || !hasField(p, name) || !strings.Contains(p.Errors[0].Message, "set by the system") {
			t.Errorf("%s on create: %d %+v", name, code, p)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
