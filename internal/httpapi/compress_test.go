package httpapi

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCompressionOfTheAPIsAnswers(t *testing.T) {
	s := &Server{}
	big := `{"data":"` + strings.Repeat("wetland ", 400) + `"}`
	cases := []struct {
		name, accept, path string
		handler            http.HandlerFunc
		gzipped            bool
		body               string
	}{
		{"a large JSON answer", "gzip, deflate, br", "/api/v1/kinds", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, big[:600])
			io.WriteString(w, big[600:])
		}, true, big},
		{"a small one", "gzip", "/api/v1/auth/me", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"data":{}}`)
		}, false, `{"data":{}}`},
		{"a client that does not take gzip", "br;q=1, gzip;q=0", "/api/v1/kinds", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, big)
		}, false, big},
		{"a file", "gzip", "/api/v1/netsuite/portal-file", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			io.WriteString(w, big)
		}, false, big},
		{"a large problem document", "gzip", "/api/v1/kinds", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, big)
		}, true, big},
		{"the app's pages (served compressed by serveApp)", "gzip", "/project/list", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, big)
		}, false, big},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", c.path, nil)
		r.Header.Set("Accept-Encoding", c.accept)
		w := httptest.NewRecorder()
		s.withCompression(c.handler).ServeHTTP(w, r)
		got := w.Body.String()
		if c.gzipped {
			if w.Header().Get("Content-Encoding") != "gzip" {
				t.Errorf("%s: not compressed: %v", c.name, w.Header())
				continue
			}
			if w.Body.Len() > len(c.body)/4 {
				t.Errorf("%s: %d bytes compressed from %d", c.name, w.Body.Len(), len(c.body))
			}
			got = string(gunzip(t, w.Body.Bytes()))
		} else if enc := w.Header().Get("Content-Encoding"); enc != "" {
			t.Errorf("%s: compressed (%s)", c.name, enc)
		}
		if got != c.body {
			t.Errorf("%s: body %.60q", c.name, got)
		}
		if api := strings.HasPrefix(c.path, "/api/"); api != strings.Contains(w.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q", c.name, w.Header().Get("Vary"))
		}
	}
}

// A stream stays a stream: each flushed part reaches the client at once,
// compressed (a CSV export) or not (the event stream).
func TestCompressionKeepsStreamsFlowing(t *testing.T) {
	s := &Server{}
	for _, c := range []struct {
		contentType string
		gzipped     bool
	}{{"text/csv; charset=utf-8", true}, {"text/event-stream", false}} {
		flushed := make(chan struct{})
		next := make(chan struct{})
		h := s.withCompression(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", c.contentType)
			io.WriteString(w, "first part\n")
			http.NewResponseController(w).Flush()
			close(flushed)
			<-next
			io.WriteString(w, "second part\n")
		}))
		srv := httptest.NewServer(h)
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/events", nil)
		req.Header.Set("Accept-Encoding", "gzip") // set by hand: the client leaves the body as sent
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		<-flushed
		body := io.Reader(res.Body)
		if got := res.Header.Get("Content-Encoding"); (got == "gzip") != c.gzipped {
			t.Fatalf("%s: Content-Encoding %q", c.contentType, got)
		}
		if c.gzipped {
			if body, err = gzip.NewReader(res.Body); err != nil {
				t.Fatal(err)
			}
		}
		first := make([]byte, len("first part\n"))
		if _, err := io.ReadFull(body, first); err != nil || string(first) != "first part\n" {
			t.Fatalf("%s: before the end: %q %v", c.contentType, first, err)
		}
		close(next)
		rest, _ := io.ReadAll(body)
		res.Body.Close()
		srv.Close()
		if string(rest) != "second part\n" {
			t.Errorf("%s: then %q", c.contentType, rest)
		}
	}
}

func TestTheKindsGoOutCompressed(t *testing.T) {
	e, tok := recordsEnv(t)
	plain := e.call("GET", "/api/v1/kinds", tok, 10, "")
	packed := e.callWith("GET", "/api/v1/kinds", tok, 10, "", http.Header{"Accept-Encoding": {"gzip, deflate, br, zstd"}})
	if plain.Code != 200 || packed.Code != 200 || packed.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("%d %d %v", plain.Code, packed.Code, packed.Header())
	}
	if got := gunzip(t, packed.Body.Bytes()); string(got) != plain.Body.String() {
		t.Fatal("the compressed kinds differ from the plain ones")
	}
	t.Logf("/api/v1/kinds: %d bytes, %d gzipped", plain.Body.Len(), packed.Body.Len())
}
