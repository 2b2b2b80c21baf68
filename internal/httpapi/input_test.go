package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/portico/portico/internal/search"
)

func TestCheckText(t *testing.T) {
	line, lines := textRule{max: 5}, textRule{max: 5, multiline: true}
	for _, c := range []struct {
		v    string
		rule textRule
		ok   bool
	}{
		{"héllo", line, true},
		{"héllo!", line, false}, // six characters
		{"a\nb", line, false},
		{"a\nb", lines, true},
		{"a\r\n\tb", lines, true},
		{"a\x00b", lines, false},
		{"a\x1bb", lines, false}, // ESC
		{"a\x7fb", line, false},  // DEL
		{"a\u0085b", line, false},
		{"a\u2028b", line, false},
		{"\xff", line, false},
		{"", line, true},
		// Issue 36: format characters in a line of text (a name).
		{"a\u202Eb", line, false},
		{"\u200Eab", line, false},
		{"a\u200Bb", line, false},
		{"a\u200Cb", line, true},  // a non-joiner inside a word (Persian)
		{"a\u200Fb", lines, true}, // prose of several lines may hold direction marks
	} {
		if got := checkText(c.v, c.rule) == ""; got != c.ok {
			t.Errorf("%q (multiline %v): ok = %v", c.v, c.rule.multiline, got)
		}
	}
}

// Issue 17, finding 9: inputs were checked unevenly. The list's q took
// invalid UTF-8 (search refused it), the feedback message took NUL and
// ESC, list names took CR/LF. One policy now answers them all, naming the
// field.
func TestOneInputPolicy(t *testing.T) {
	e, tok := recordsEnv(t)
	field := func(body string) string {
		var p Problem
		json.Unmarshal([]byte(body), &p)
		if len(p.Errors) == 0 {
			return ""
		}
		return p.Errors[0].Field
	}
	list := "/api/v1/netsuite/portal-list?type=project&q="
	for name, q := range map[string]string{
		"invalid UTF-8": "%ff%fe",
		"NUL":           "ac%00me",
		"line break":    "ac%0Ame",
		"too long":      strings.Repeat("x", 201),
	} {
		w := e.call("GET", list+q, tok, 10, "")
		if w.Code != 400 || w.Header().Get("Content-Type") != "application/problem+json" || field(w.Body.String()) != "q" {
			t.Errorf("list q %s: %d %s", name, w.Code, w.Body)
		}
	}
	if w := e.call("GET", list+url.QueryEscape("ünïcödé"), tok, 10, ""); w.Code != 200 {
		t.Errorf("list q in plain Unicode: %d %s", w.Code, w.Body)
	}
	// The search's text: the same policy, the search's own bound.
	if w := e.call("GET", "/api/v1/netsuite/portal?method=search&query="+strings.Repeat("x", search.MaxQuery+1), tok, 10, ""); w.Code != 400 || field(w.Body.String()) != "query" {
		t.Errorf("long search: %d %s", w.Code, w.Body)
	}

	good := map[string]string{"category": "bug", "message": "Line one\r\nLine two\twith a tab", "page": "/project/list"}
	if w := e.sendFeedbackForm(tok, 10, good, "", nil); w.Code != 201 {
		t.Errorf("a message of several lines: %d %s", w.Code, w.Body)
	}
	for name, msg := range map[string]string{"NUL": "a\x00b", "ESC": "a\x1b[31mred", "invalid UTF-8": "a\xffb"} {
		form := map[string]string{"category": "bug", "message": msg, "page": "/project/list"}
		if w := e.sendFeedbackForm(tok, 10, form, "", nil); w.Code != 422 || field(w.Body.String()) != "message" {
			t.Errorf("feedback message with %s: %d %s", name, w.Code, w.Body)
		}
	}

	for name, listName := range map[string]string{"CR/LF": "Mine\r\nInjected: yes", "tab": "a\tb", "NUL": "a\x00"} {
		body, _ := json.Marshal(map[string]any{"name": listName, "columns": []string{"companyname"}, "visibility": "private"})
		w := e.call("POST", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, string(body))
		if w.Code != 422 || field(w.Body.String()) != "name" {
			t.Errorf("list name with %s: %d %s", name, w.Code, w.Body)
		}
	}
	if w := e.call("POST", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, "{\"name\": \"a\xff\"}"); w.Code != 400 {
		t.Errorf("a body that is not UTF-8: %d %s", w.Code, w.Body)
	}
	// Nested members are checked too, by their own name.
	body := `{"fields": {"companyname": "Acme\u001b"}}`
	if w := e.call("POST", "/api/v1/netsuite/portal-crud?type=customer", tok, 10, body); w.Code != 422 || field(w.Body.String()) != "companyname" {
		t.Errorf("record field with ESC: %d %s", w.Code, w.Body)
	}
	// A malformed query string.
	if w := e.call("GET", "/api/v1/kinds?a=%zz", tok, 10, ""); w.Code != 400 || field(w.Body.String()) != "query" {
		t.Errorf("malformed query: %d %s", w.Code, w.Body)
	}
}

// The policy holds whatever the request says about its body: a JSON body
// sent as a form, or padded past the size the policy reads, is checked or
// refused, never stored unchecked (a review found both ways past a
// middleware that chose bodies by their Content-Type and size).
func TestInputPolicyHasNoWayAround(t *testing.T) {
	e, tok := recordsEnv(t)
	send := func(contentType, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/api/v1/netsuite/listConfiguration?type=project", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+tok)
		r.Header.Set("X-Role-Id", "10")
		r.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		return w
	}
	body, _ := json.Marshal(map[string]any{"name": "Mine\r\nInjected: yes", "columns": []string{"companyname"}, "visibility": "private"})
	if w := send("multipart/form-data; boundary=x", string(body)); w.Code != 422 {
		t.Errorf("JSON sent as a form: %d %s", w.Code, w.Body)
	}
	padded := string(body[:len(body)-1]) + strings.Repeat(" ", 70<<10) + "}"
	if w := send("application/json", padded); w.Code != 400 {
		t.Errorf("JSON padded past 64 KB: %d %s", w.Code, w.Body)
	}
	w := e.call("GET", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, "")
	if strings.Contains(w.Body.String(), "Injected") {
		t.Errorf("a list name with a line break was stored: %s", w.Body)
	}
}

// Issue 36: bidi controls and other format characters (Unicode Cf) passed
// the policy in names and file names: a file named with a right-to-left
// override reached the administrator under that name. A line of text
// refuses them wherever it comes from; a message of several lines keeps
// them.
func TestInputPolicyRefusesHiddenFormatInNames(t *testing.T) {
	e, tok := recordsEnv(t)
	field := func(body string) string {
		var p Problem
		json.Unmarshal([]byte(body), &p)
		if len(p.Errors) == 0 {
			return ""
		}
		return p.Errors[0].Field
	}
	if w := e.call("GET", "/api/v1/netsuite/portal-list?type=project&q="+url.QueryEscape("\u202Eacme"), tok, 10, ""); w.Code != 400 || field(w.Body.String()) != "q" {
		t.Errorf("list q with an override: %d %s", w.Code, w.Body)
	}
	body, _ := json.Marshal(map[string]any{"name": "\u200EMine", "columns": []string{"companyname"}, "visibility": "private"})
	if w := e.call("POST", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, string(body)); w.Code != 422 || field(w.Body.String()) != "name" {
		t.Errorf("list name with a direction mark: %d %s", w.Code, w.Body)
	}
	body, _ = json.Marshal(map[string]any{"fields": map[string]any{"companyname": "Acme\u202Edtl"}})
	if w := e.call("POST", "/api/v1/netsuite/portal-crud?type=customer", tok, 10, string(body)); w.Code != 422 || field(w.Body.String()) != "companyname" {
		t.Errorf("record name with an override: %d %s", w.Code, w.Body)
	}
	form := map[string]string{"category": "bug", "message": "\u200Fשלום, the list is slow", "page": "/project/list"}
	if w := e.sendFeedbackForm(tok, 10, form, "", nil); w.Code != 201 {
		t.Errorf("a message with a direction mark: %d %s", w.Code, w.Body)
	}
	if w := e.sendFeedbackForm(tok, 10, form, "screen\u202Egnp.exe", pngBytes); w.Code != 422 || field(w.Body.String()) != "attachment" {
		t.Errorf("feedback attachment named with an override: %d %s", w.Code, w.Body)
	}
	if w := e.upload(tok, 10, fileURL+"?type=customer&id=1", "file", "plan\u202Etxt.pdf", []byte("%PDF-1.7\n"), nil); w.Code != 422 || field(w.Body.String()) != "file" {
		t.Errorf("record file named with an override: %d %s", w.Code, w.Body)
	}
}
