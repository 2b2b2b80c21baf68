package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/feedback"
)

// sendFeedbackForm posts a multipart feedback form; file may be nil.
func (e *authEnv) sendFeedbackForm(tok string, role int64, fields map[string]string, fileName string, file []byte) *httptest.ResponseRecorder {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("attachment", fileName)
		fw.Write(file)
	}
	mw.Close()
	r := httptest.NewRequest("POST", "/api/v1/feedback", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.Header.Set("Authorization", "Bearer "+tok)
	r.Header.Set("X-Role-Id", fmt.Sprint(role))
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	return w
}

var pngBytes = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 64)...)

func TestFeedbackWithAndWithoutAttachment(t *testing.T) {
	e, tok := recordsEnv(t)
	form := map[string]string{"category": "bug", "message": "The list is slow", "page": "/project/list"}
	if w := e.sendFeedbackForm(tok, 10, form, "", nil); w.Code != 201 {
		t.Fatalf("without attachment: %d %s", w.Code, w.Body)
	}
	w := e.sendFeedbackForm(tok, 10, form, "screen.png", pngBytes)
	var sent struct{ Data feedback.Submission }
	json.Unmarshal(w.Body.Bytes(), &sent)
	if w.Code != 201 || sent.Data.FileType != "image/png" || sent.Data.FileSize != int64(len(pngBytes)) || sent.Data.ERPState != "" {
		t.Fatalf("with attachment: %d %s", w.Code, w.Body)
	}
	// Administrators see both, and can download the attachment.
	var list struct{ Data []feedback.Submission }
	e.getJSON(t, tok, 10, "/api/v1/feedback", &list)
	if len(list.Data) != 2 || list.Data[0].User != "Ada Admin" || list.Data[0].Message != "The list is slow" {
		t.Fatalf("list: %+v", list.Data)
	}
	dl := e.call("GET", fmt.Sprintf("/api/v1/feedback/%d/attachment", sent.Data.ID), tok, 10, "")
	if dl.Code != 200 || dl.Header().Get("Content-Type") != "image/png" || !bytes.Equal(dl.Body.Bytes(), pngBytes) ||
		!strings.Contains(dl.Header().Get("Content-Disposition"), "screen.png") {
		t.Fatalf("download: %d %v", dl.Code, dl.Header())
	}
	// Issue 36: a text file named as a web page reaches the administrator as
	// the text file it is.
	w = e.sendFeedbackForm(tok, 10, form, "report.html", []byte("hello <b>there</b>"))
	json.Unmarshal(w.Body.Bytes(), &sent)
	if w.Code != 201 || sent.Data.FileName != "report.html.txt" || sent.Data.FileType != "text/plain" {
		t.Fatalf("text named .html: %d %s", w.Code, w.Body)
	}
	dl = e.call("GET", fmt.Sprintf("/api/v1/feedback/%d/attachment", sent.Data.ID), tok, 10, "")
	if dl.Code != 200 || dl.Header().Get("Content-Type") != "text/plain" ||
		dl.Header().Get("Content-Disposition") != `attachment; filename=report.html.txt` {
		t.Fatalf("download of the text named .html: %d %v", dl.Code, dl.Header())
	}
	// Audited.
	events, _ := e.store.Tenant("acme").AuditEvents(t.Context(), access.AuditFilter{Event: "feedback"})
	if len(events) != 3 || events[0].RoleID != 10 || events[0].Detail["erpType"] != feedback.ERPType {
		t.Fatalf("audit: %+v", events)
	}
	// The viewer may send feedback? Not without feedback.create; nor read it.
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	if w := e.sendFeedbackForm(vic.Data.Token, 14, form, "", nil); w.Code != 403 {
		t.Errorf("feedback without permission: %d", w.Code)
	}
	if w := e.call("GET", "/api/v1/feedback", vic.Data.Token, 14, ""); w.Code != 403 {
		t.Errorf("feedback list without permission: %d", w.Code)
	}
}

func TestFeedbackRefusesBadInput(t *testing.T) {
	e, tok := recordsEnv(t)
	good := map[string]string{"category": "idea", "message": "More charts", "page": "/reports/list"}
	for name, c := range map[string]struct {
		fields map[string]string
		file   []byte
		field  string
	}{
		"no category":   {map[string]string{"message": "x"}, nil, "category"},
		"no message":    {map[string]string{"category": "bug", "message": "  "}, nil, "message"},
		"long message":  {map[string]string{"category": "bug", "message": strings.Repeat("x", 5001)}, nil, "message"},
		"external page": {map[string]string{"category": "bug", "message": "x", "page": "https://evil.test/"}, nil, "page"},
		// Issue 17, finding 4: both were taken as paths of the portal.
		"scheme-relative page": {map[string]string{"category": "bug", "message": "x", "page": "//evil.example/login"}, nil, "page"},
		"backslash page":       {map[string]string{"category": "bug", "message": "x", "page": "/\\evil.example/login"}, nil, "page"},
		"tab page":             {map[string]string{"category": "bug", "message": "x", "page": "/\t/evil.example"}, nil, "page"},
		"wrong type":           {good, []byte("MZ\x90\x00 an executable"), "attachment"},
		"html":                 {good, []byte("<html><script>alert(1)</script></html>"), "attachment"},
		"oversize":             {good, append(pngBytes, bytes.Repeat([]byte{0}, feedback.MaxAttachment)...), "attachment"},
		"empty file":           {good, []byte{}, "attachment"},
	} {
		w := e.sendFeedbackForm(tok, 10, c.fields, "f.bin", c.file)
		var p Problem
		json.Unmarshal(w.Body.Bytes(), &p)
		if w.Code != 422 || !hasField(p, c.field) {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
	}
	if w := e.call("POST", "/api/v1/feedback", tok, 10, `{"category":"bug"}`); w.Code != 400 {
		t.Errorf("JSON body: %d", w.Code)
	}
	var list struct{ Data []feedback.Submission }
	e.getJSON(t, tok, 10, "/api/v1/feedback", &list)
	if len(list.Data) != 0 {
		t.Errorf("refused feedback was stored: %+v", list.Data)
	}
}

func TestAuditLogAPI(t *testing.T) {
	e, tok := recordsEnv(t)
	var events struct{ Data []access.AuditEvent }
	if code := e.getJSON(t, tok, 10, "/api/v1/audit?event=login", &events); code != 200 || len(events.Data) == 0 || events.Data[0].User != "Ada Admin" {
		t.Fatalf("audit: %d %+v", code, events.Data)
	}
	for _, ev := range events.Data {
		if ev.Event != "login" {
			t.Fatalf("filter: %+v", ev)
		}
		// A sign-in carries the role it started in.
		if ev.RoleID != 10 || ev.Role != "Project Manager" {
			t.Errorf("sign-in without its role: %+v", ev)
		}
	}
	// A role switch names both roles.
	if w := e.call("POST", "/api/v1/auth/role", tok, 10, `{"roleId":11}`); w.Code != 200 {
		t.Fatalf("switch: %d %s", w.Code, w.Body)
	}
	e.getJSON(t, tok, 10, "/api/v1/audit?event=role_switch&userId=1", &events)
	if len(events.Data) != 1 || events.Data[0].Role != "Accountant" || events.Data[0].DetailNames["from"] != "Project Manager" ||
		events.Data[0].DetailNames["to"] != "Accountant" {
		t.Errorf("role switch: %+v", events.Data)
	}
	if w := e.call("GET", "/api/v1/audit?userId=abc", tok, 10, ""); w.Code != 400 {
		t.Errorf("bad filter: %d", w.Code)
	}
	// The user filter's choices: the tenant's users by name, not another tenant's.
	var users struct {
		Data []struct {
			ID              int64
			FullName, Email string
		}
	}
	if code := e.getJSON(t, tok, 10, "/api/v1/audit/users", &users); code != 200 || len(users.Data) != len(acmeAccess.Users) ||
		users.Data[0].FullName != "Ada Admin" || users.Data[0].Email != "ada@acme.test" {
		t.Errorf("users: %d %+v", code, users.Data)
	}
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	for _, path := range []string{"/api/v1/audit", "/api/v1/audit/users"} {
		if w := e.call("GET", path, vic.Data.Token, 14, ""); w.Code != 403 {
			t.Errorf("%s without permission: %d", path, w.Code)
		}
	}
}

// A page stored before pages had to be paths of the portal is not handed
// to the administrators' page, which renders it as a link.
func TestFeedbackListDropsPagesOutsideThePortal(t *testing.T) {
	e, tok := recordsEnv(t)
	for _, page := range []string{"//evil.example/login", "/project/list"} {
		if _, err := e.store.Tenant("acme").PutFeedback(t.Context(), feedback.Submission{At: time.Now(), UserID: 1, RoleID: 10,
			Category: "bug", Message: "old", Page: page}); err != nil {
			t.Fatal(err)
		}
	}
	var list struct{ Data []feedback.Submission }
	e.getJSON(t, tok, 10, "/api/v1/feedback", &list)
	if len(list.Data) != 2 || list.Data[0].Page != "/project/list" || list.Data[1].Page != "" {
		t.Errorf("pages listed: %+v", list.Data)
	}
}
