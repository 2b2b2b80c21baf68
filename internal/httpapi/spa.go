package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// headMarker is where index.html receives the per-request nonce and the
// client configuration.
const headMarker = "<!--portico:head-->"

// spa serves the built single-page app.
type spa struct {
	files  fs.FS
	before []byte // index.html up to the marker
	after  []byte // and after it
	static http.Handler
}

func newSPA(files fs.FS) (*spa, error) {
	index, err := fs.ReadFile(files, "index.html")
	if err != nil {
		return nil, errors.New("ui: index.html is missing (run the web build)")
	}
	before, after, ok := bytes.Cut(index, []byte(headMarker))
	if !ok {
		return nil, errors.New("ui: index.html has no " + headMarker + " marker")
	}
	return &spa{files: files, before: before, after: after, static: http.FileServerFS(files)}, nil
}

// serveApp serves a built file when one exists at the path, and index.html
// for every other path, so client-side routes survive a reload. Hashed
// assets are cached for a year; index.html is revalidated every time.
func (s *Server) serveApp(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if s.spa == nil {
		http.NotFound(w, r)
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name != "" && name != "index.html" {
		if st, err := fs.Stat(s.spa.files, name); err == nil && !st.IsDir() {
			if strings.HasPrefix(name, "assets/") {
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			} else {
				w.Header().Set("Cache-Control", "no-cache")
			}
			s.spa.static.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(name, "assets/") {
			// A stale page asking for an asset of an older build: a real 404,
			// so the app's chunk-load error handling can reload.
			http.NotFound(w, r)
			return
		}
	}
	s.writeIndex(w, r)
}

func (s *Server) writeIndex(w http.ResponseWriter, r *http.Request) {
	nonce := newNonce()
	w.Header().Set("Content-Security-Policy", s.csp.header(nonce))
	cfg, _ := json.Marshal(s.client) // json escapes <, > and & for a script element
	var b bytes.Buffer
	b.Write(s.spa.before)
	b.WriteString(`<meta name="csp-nonce" content="` + html.EscapeString(nonce) + `">` + "\n")
	b.WriteString(`<script type="application/json" id="portico-config">`)
	b.Write(cfg)
	b.WriteString("</script>")
	b.Write(s.spa.after)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}
