package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
)

// leaks are what an error answer must never show: stack traces, source
// and file paths, SQL and driver messages.
var leaks = regexp.MustCompile(`goroutine \d|\.go:\d|/work/|/home/|/tmp/|runtime\.|panic|SELECT |INSERT |UPDATE |DELETE FROM|` +
	`(?i:sqlite|sqlstate|pgx|pq:|sql:|syntax error|modernc|sqlstore|near ")`)

// publicRoutes reads the routes registered with s.public from routes.go:
// the private ones the server lists itself.
func publicRoutes(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`s\.public\("([^"]+)"`).FindAllStringSubmatch(string(src), -1) {
		out = append(out, m[1])
	}
	if len(out) < 4 {
		t.Fatalf("found only %d public routes in routes.go", len(out))
	}
	return out
}

// TestEveryRouteRefusesBadInput walks every route of routes.go with bad
// input — invalid UTF-8, control characters, overlong values, a malformed
// query, malformed JSON, JSON of the wrong types — and, on the private
// routes, absent, forged and foreign credentials. Every answer must be a
// 4xx problem document (511 for a missing or forged session, as SPEC §8
// wants) that leaks nothing, and nothing may be logged as an error.
func TestEveryRouteRefusesBadInput(t *testing.T) {
	e, tok := recordsEnv(t)
	gus, w := e.login(t, "globex", "uid-gus", "gus@globex.test")
	if w.Code != 200 {
		t.Fatalf("globex login: %d %s", w.Code, w.Body)
	}
	forged := tok[:len(tok)-4] + "AAAA"
	long := strings.Repeat("x", 300)

	queries := map[string]string{
		"invalid UTF-8 value":   "type=%ff%fe&id=1",
		"invalid UTF-8 name":    "%ff=1",
		"NUL":                   "type=project%00&id=1",
		"escape sequence":       "type=project&id=1&q=%1b%5b2J",
		"line break":            "type=project&id=1&event=login%0d%0aforged",
		"DEL":                   "type=pro%7fject",
		"C1 control":            "type=project%c2%85",
		"overlong value":        "type=" + long,
		"overlong filter":       "type=project&filter=" + strings.Repeat("x", 17<<10),
		"overlong token":        "idToken=" + strings.Repeat("x", 17<<10),
		"overlong name":         strings.Repeat("k", 200) + "=1",
		"malformed escape":      "type=%zz",
		"malformed escape name": "a%=1",
	}
	bodies := map[string]string{
		"malformed JSON":      `{"name": `,
		"not JSON":            `name=x&roleId=1`,
		"array":               `[1, "two", {"three": null}]`,
		"wrong member types":  `{"name": 7, "fields": "x", "roleId": "ten", "refreshToken": 5, "report": []}`,
		"invalid UTF-8":       "{\"name\": \"\xff\xfe\"}",
		"NUL in a string":     `{"name": "a\u0000b", "refreshToken": "a\u0000b"}`,
		"ESC in a member":     `{"fields": {"companyname": "\u001b[2J"}}`,
		"line break in name":  `{"name": "a\r\nb"}`,
		"overlong string":     `{"name": "` + strings.Repeat("x", 2000) + `"}`,
		"control in a member": "{\"na\\u0007me\": 1}",
	}

	calls := 0
	check := func(t *testing.T, what, method, target string, w *httptest.ResponseRecorder, allow511 bool) {
		t.Helper()
		calls++
		ok := w.Code >= 400 && w.Code < 500 || (allow511 && w.Code == 511)
		if !ok {
			t.Errorf("%s %s (%s): status %d: %.300s", method, target, what, w.Code, w.Body)
			return
		}
		if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("%s %s (%s): %d with content type %q", method, target, what, w.Code, ct)
			return
		}
		var p Problem
		if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Status != w.Code || p.Title == "" || p.RequestID == "" {
			t.Errorf("%s %s (%s): problem %+v, err %v", method, target, what, p, err)
		}
		if m := leaks.FindString(w.Body.String()); m != "" {
			t.Errorf("%s %s (%s): the answer shows %q: %s", method, target, what, m, w.Body)
		}
	}

	routes := append(publicRoutes(t), e.srv.private...)
	for _, pattern := range routes {
		method, path, _ := strings.Cut(pattern, " ")
		path = strings.NewReplacer("{layoutId}", "pm", "{id}", "1", "{action}", "retry").Replace(path)
		private := !strings.Contains(strings.Join(publicRoutes(t), "\n"), pattern)
		token := ""
		if private {
			token = tok
		}
		for what, q := range queries {
			check(t, what, method, path+"?"+q, e.call(method, path+"?"+q, token, 10, ""), false)
		}
		if method == "POST" || method == "PUT" || method == "DELETE" {
			target := path + "?type=project&id=1"
			for what, body := range bodies {
				check(t, what, method, target, e.call(method, target, token, 10, body), false)
			}
		}
		if private {
			target := path + "?type=project&id=1"
			for what, c := range map[string]struct {
				token string
				role  int64
			}{
				"no credentials":                   {"", 0},
				"no token":                         {"", 10},
				"forged token":                     {forged, 10},
				"token and role of another tenant": {gus.Data.Token, 10},
				"another tenant's token, our role": {gus.Data.Token, 11},
				"a role not held":                  {tok, 12},
			} {
				w := e.call(method, target, c.token, c.role, "{}")
				if what == "token and role of another tenant" {
					// Gus acts inside globex: whatever he gets, it is
					// globex's, and never an error that leaks.
					if w.Code >= 500 || leaks.MatchString(w.Body.String()) {
						t.Errorf("%s %s as globex: %d %.300s", method, target, w.Code, w.Body)
					}
					continue
				}
				check(t, what, method, target, w, true)
			}
		}
	}
	t.Logf("%d routes, %d bad requests", len(routes), calls)
	if strings.Contains(e.logs.String(), "level=ERROR") {
		t.Errorf("bad input was logged as an error:\n%s", e.logs)
	}
}
