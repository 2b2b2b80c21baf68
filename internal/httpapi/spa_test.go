package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNegotiateEncoding(t *testing.T) {
	both := []string{"br", "gzip"}
	cases := []struct {
		name      string
		fields    []string
		available []string
		want      string
	}{
		{"no Accept-Encoding", nil, both, ""},
		{"empty field", []string{""}, both, ""},
		{"a browser's", []string{"gzip, deflate, br, zstd"}, both, "br"},
		{"gzip only", []string{"gzip"}, both, "gzip"},
		{"equal weights go to the server's order", []string{"gzip;q=1.0, br;q=1"}, both, "br"},
		{"higher weight wins", []string{"br;q=0.5, gzip;q=0.8"}, both, "gzip"},
		{"q=0 refuses", []string{"br;q=0, gzip"}, both, "gzip"},
		{"q=0 with spaces and case", []string{"BR ; Q=0 , GZip"}, both, "gzip"},
		{"wildcard", []string{"*"}, both, "br"},
		{"wildcard, one refused", []string{"br;q=0, *"}, both, "gzip"},
		{"wildcard refused: identity anyway", []string{"*;q=0"}, both, ""},
		{"identity only", []string{"identity"}, both, ""},
		{"identity preferred", []string{"gzip;q=0.5, identity"}, both, ""},
		{"identity refused, nothing else: identity anyway", []string{"identity;q=0"}, both, ""},
		{"x-gzip is gzip", []string{"x-gzip"}, both, "gzip"},
		{"malformed weight ignores the item", []string{"br;q=high, gzip"}, both, "gzip"},
		{"weight out of range ignores the item", []string{"br;q=2"}, both, ""},
		{"several fields", []string{"gzip;q=0.5", "br"}, both, "br"},
		{"unknown codings", []string{"deflate, zstd"}, both, ""},
		{"br not stored: gzip", []string{"br, gzip"}, []string{"gzip"}, "gzip"},
		{"br not stored, gzip not accepted", []string{"br"}, []string{"gzip"}, ""},
		{"nothing stored", []string{"br, gzip"}, nil, ""},
	}
	for _, c := range cases {
		if got := negotiateEncoding(c.fields, c.available); got != c.want {
			t.Errorf("%s: %q of %v → %q, want %q", c.name, c.fields, c.available, got, c.want)
		}
	}
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("bad gzip: %v", err)
	}
	return out
}

// precompressedServer serves an app whose script has gzip and brotli
// variants, whose stylesheet has only a gzip one and whose icon has none.
// (The "brotli" bytes are a stand-in: the server never decodes them.)
func precompressedServer(t *testing.T) (*Server, map[string][]byte) {
	t.Helper()
	script := []byte(strings.Repeat("console.log('portico');\n", 200))
	style := []byte(strings.Repeat("body { margin: 0 }\n", 100))
	files := map[string][]byte{
		"index.html":              []byte("<!doctype html><html><head>\n<!--portico:head-->\n</head><body>" + strings.Repeat("<p>app</p>", 50) + "</body></html>"),
		"assets/app-1.js":         script,
		"assets/app-1.js.gz":      gzipped(t, script),
		"assets/app-1.js.br":      []byte("brotli stand-in for the script"),
		"assets/style-1.css":      style,
		"assets/style-1.css.gz":   gzipped(t, style),
		"assets/logo-1.svg":       []byte("<svg/>"),
		"assets/orphan-1.json.gz": gzipped(t, []byte(`{"a":1}`)),
		"sw.js":                   []byte("self.addEventListener('fetch', () => {});"),
		"manifest.webmanifest":    []byte(`{"name":"Portico"}`),
	}
	ui := fstest.MapFS{}
	for name, data := range files {
		ui[name] = &fstest.MapFile{Data: data}
	}
	s, err := NewServer(Options{Logger: slog.New(slog.DiscardHandler), Store: fakeStore{}, UI: ui, ERP: "netsuite", Product: "portal"})
	if err != nil {
		t.Fatal(err)
	}
	return s, files
}

func TestAssetsAreServedPrecompressed(t *testing.T) {
	s, files := precompressedServer(t)
	etags := map[string]string{}
	for _, c := range []struct {
		accept, coding, file string
	}{
		{"gzip, deflate, br, zstd", "br", "assets/app-1.js.br"},
		{"br;q=0, gzip", "gzip", "assets/app-1.js.gz"},
		{"", "", "assets/app-1.js"},
		{"identity", "", "assets/app-1.js"},
	} {
		w := do(s, "GET", "/assets/app-1.js", "Accept-Encoding", c.accept)
		h := w.Header()
		if w.Code != 200 || h.Get("Content-Encoding") != c.coding {
			t.Fatalf("Accept-Encoding %q: %d, Content-Encoding %q, want %q", c.accept, w.Code, h.Get("Content-Encoding"), c.coding)
		}
		if !bytes.Equal(w.Body.Bytes(), files[c.file]) {
			t.Errorf("Accept-Encoding %q: the body is not %s", c.accept, c.file)
		}
		if h.Get("Content-Length") != strconv.Itoa(len(files[c.file])) {
			t.Errorf("Accept-Encoding %q: Content-Length %q, want %d", c.accept, h.Get("Content-Length"), len(files[c.file]))
		}
		if !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") || h.Get("Vary") != "Accept-Encoding" ||
			h.Get("Cache-Control") != "public, max-age=31536000, immutable" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("Accept-Encoding %q: headers %v", c.accept, h)
		}
		etags[c.coding] = h.Get("ETag")
	}
	if len(etags) != 3 || etags["br"] == "" || etags["br"] == etags["gzip"] || etags["gzip"] == etags[""] {
		t.Errorf("each coding needs its own ETag: %v", etags)
	}
	if got := gunzip(t, files["assets/app-1.js.gz"]); !bytes.Equal(got, files["assets/app-1.js"]) {
		t.Error("the gzip variant does not decode to the script")
	}

	// A missing variant falls back to the next acceptable one, then to the file.
	if w := do(s, "GET", "/assets/style-1.css", "Accept-Encoding", "br, gzip"); w.Header().Get("Content-Encoding") != "gzip" ||
		!bytes.Equal(gunzip(t, w.Body.Bytes()), files["assets/style-1.css"]) || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") {
		t.Errorf("stylesheet, br and gzip accepted: %q %v", w.Header().Get("Content-Encoding"), w.Header())
	}
	if w := do(s, "GET", "/assets/style-1.css", "Accept-Encoding", "br"); w.Header().Get("Content-Encoding") != "" ||
		!bytes.Equal(w.Body.Bytes(), files["assets/style-1.css"]) || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("stylesheet, only br accepted: %q", w.Header().Get("Content-Encoding"))
	}
	// A file without variants: as it is, nothing varies.
	if w := do(s, "GET", "/assets/logo-1.svg", "Accept-Encoding", "br, gzip"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" ||
		w.Header().Get("Vary") != "" || w.Header().Get("Content-Type") != "image/svg+xml" || w.Body.String() != "<svg/>" {
		t.Errorf("icon: %d %v %q", w.Code, w.Header(), w.Body.String())
	}
	// The stored variants are not files of their own; one without its file is.
	if w := do(s, "GET", "/assets/app-1.js.br"); w.Code != 404 {
		t.Errorf("a stored variant was served by its own name: %d", w.Code)
	}
	if w := do(s, "GET", "/assets/orphan-1.json.gz"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("a .gz file without its original: %d %v", w.Code, w.Header())
	}
}

func TestPrecompressedAssetsHeadConditionalAndRange(t *testing.T) {
	s, files := precompressedServer(t)
	br := files["assets/app-1.js.br"]

	w := do(s, "HEAD", "/assets/app-1.js", "Accept-Encoding", "br")
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Encoding") != "br" || w.Header().Get("Content-Length") != strconv.Itoa(len(br)) {
		t.Errorf("HEAD: %d, %d body bytes, %v", w.Code, w.Body.Len(), w.Header())
	}
	etag := w.Header().Get("ETag")

	if w := do(s, "GET", "/assets/app-1.js", "Accept-Encoding", "br", "If-None-Match", etag); w.Code != 304 || w.Body.Len() != 0 {
		t.Errorf("If-None-Match of the brotli variant: %d", w.Code)
	}
	if w := do(s, "GET", "/assets/app-1.js", "Accept-Encoding", "gzip", "If-None-Match", etag); w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("the brotli ETag validated the gzip variant: %d", w.Code)
	}

	// A range counts bytes of the variant sent.
	w = do(s, "GET", "/assets/app-1.js", "Accept-Encoding", "br", "Range", "bytes=0-5")
	if w.Code != 206 || w.Header().Get("Content-Range") != "bytes 0-5/"+strconv.Itoa(len(br)) || !bytes.Equal(w.Body.Bytes(), br[:6]) ||
		w.Header().Get("Content-Length") != "6" || w.Header().Get("Content-Encoding") != "br" {
		t.Errorf("range of the brotli variant: %d %v %q", w.Code, w.Header(), w.Body.String())
	}
	raw := files["assets/app-1.js"]
	w = do(s, "GET", "/assets/app-1.js", "Range", "bytes=10-19")
	if w.Code != 206 || !bytes.Equal(w.Body.Bytes(), raw[10:20]) || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("range of the script: %d %v", w.Code, w.Header())
	}
	if w := do(s, "GET", "/assets/app-1.js", "Accept-Encoding", "gzip", "Range", "bytes=100000-"); w.Code != 416 || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("unsatisfiable range: %d %v", w.Code, w.Header())
	}
}

func TestIndexIsGzippedWhenAccepted(t *testing.T) {
	s, _ := precompressedServer(t)
	for _, c := range []struct {
		accept, coding string
	}{
		{"gzip, deflate, br, zstd", "gzip"},
		{"br", ""}, // not stored as brotli: it changes on every request
		{"gzip;q=0, identity", ""},
		{"", ""},
	} {
		for _, path := range []string{"/", "/project/list"} {
			w := do(s, "GET", path, "Accept-Encoding", c.accept)
			h := w.Header()
			if w.Code != 200 || h.Get("Content-Encoding") != c.coding || h.Get("Vary") != "Accept-Encoding" ||
				h.Get("Content-Length") != strconv.Itoa(w.Body.Len()) || h.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("%s, Accept-Encoding %q: %d %v", path, c.accept, w.Code, h)
			}
			body := w.Body.Bytes()
			if c.coding == "gzip" {
				body = gunzip(t, body)
			}
			if !bytes.Contains(body, []byte(`name="csp-nonce"`)) || !bytes.HasSuffix(body, []byte("</body></html>")) {
				t.Errorf("%s, Accept-Encoding %q: index %q", path, c.accept, body)
			}
		}
	}
	plain := do(s, "GET", "/")
	w := do(s, "HEAD", "/", "Accept-Encoding", "gzip")
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("HEAD /: %d %v", w.Code, w.Header())
	}
	if n, _ := strconv.Atoi(w.Header().Get("Content-Length")); n == 0 || n >= plain.Body.Len() {
		t.Errorf("HEAD /: Content-Length %d, the plain page is %d bytes", n, plain.Body.Len())
	}
}

// The installable app's files: the service worker and the manifest are
// revalidated on every load (a new build replaces them under the same
// name), each with its own media type.
func TestServiceWorkerAndManifest(t *testing.T) {
	s, _ := precompressedServer(t)
	for name, media := range map[string]string{"/sw.js": "text/javascript", "/manifest.webmanifest": "application/manifest+json"} {
		w := do(s, "GET", name)
		if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), media) || w.Header().Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: %d %v", name, w.Code, w.Header())
		}
	}
}
