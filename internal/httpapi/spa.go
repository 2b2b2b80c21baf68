package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// headMarker is where index.html receives the per-request nonce and the
// client configuration.
const headMarker = "<!--portico:head-->"

// precompressed are the content codings the web build stores beside a file
// (web/scripts/compress.mjs writes app.js.br and app.js.gz next to app.js),
// in the server's order of preference when a browser accepts several as much.
var precompressed = []struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// spa serves the built single-page app.
type spa struct {
	files  fs.FS
	before []byte // index.html up to the marker
	after  []byte // and after it
	// assets are the files served as they are (every file but index.html
	// and the stored variants), by path.
	assets map[string]*asset
}

// asset is one built file and its stored variants.
type asset struct {
	contentType  string
	cacheControl string
	// variants: the file itself (coding ""), then each precompressed copy,
	// in the order of precompressed.
	variants []variant
}

// variant is one stored representation of an asset.
type variant struct {
	file   string // path in the app's file system
	coding string // Content-Encoding; "" for the file itself
	size   int64
	etag   string // strong, of these very bytes: each coding has its own
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
	assets, err := loadAssets(files)
	if err != nil {
		return nil, err
	}
	return &spa{files: files, before: before, after: after, assets: assets}, nil
}

// loadAssets indexes the built files once, at start: type, caching, and
// the precompressed variants each has. A stored variant is not a file of its
// own: /assets/app.js.br is not served.
func loadAssets(files fs.FS) (map[string]*asset, error) {
	names := map[string]bool{}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			names[name] = true
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	isVariant := func(name string) bool {
		for _, p := range precompressed {
			if base, ok := strings.CutSuffix(name, p.suffix); ok && names[base] {
				return true
			}
		}
		return false
	}
	assets := map[string]*asset{}
	for name := range names {
		if name == "index.html" || isVariant(name) {
			continue
		}
		a := &asset{contentType: contentType(name), cacheControl: "no-cache"}
		if strings.HasPrefix(name, "assets/") {
			// Hashed names: a new build has new names.
			a.cacheControl = "public, max-age=31536000, immutable"
		}
		if a.contentType == "" {
			a.contentType = "application/octet-stream"
		}
		for _, v := range append([]struct{ coding, suffix string }{{"", ""}}, precompressed...) {
			if !names[name+v.suffix] {
				continue
			}
			size, sum, err := digest(files, name+v.suffix)
			if err != nil {
				return nil, fmt.Errorf("ui: %w", err)
			}
			a.variants = append(a.variants, variant{file: name + v.suffix, coding: v.coding, size: size, etag: `"` + sum + `"`})
		}
		assets[name] = a
	}
	return assets, nil
}

// contentType is the media type of a built file, by its extension; the web
// app manifest's is not in every system's table.
func contentType(name string) string {
	if path.Ext(name) == ".webmanifest" {
		return "application/manifest+json"
	}
	return mime.TypeByExtension(path.Ext(name))
}

// digest answers a file's size and the start of its SHA-256, in hex.
func digest(files fs.FS, name string) (int64, string, error) {
	f, err := files.Open(name)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)[:12]), nil
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
		if a, ok := s.spa.assets[name]; ok {
			s.spa.serveAsset(w, r, a)
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

// serveAsset answers with the variant of the file the browser prefers
// (Accept-Encoding), with its own Content-Length and ETag. Conditional
// requests, HEAD and ranges are http.ServeContent's; a range counts bytes
// of the variant sent, which its ETag names (RFC 9110 §14: ranges apply to
// the selected representation).
func (p *spa) serveAsset(w http.ResponseWriter, r *http.Request, a *asset) {
	h := w.Header()
	h.Set("Cache-Control", a.cacheControl)
	codings := make([]string, 0, len(a.variants))
	for _, v := range a.variants {
		if v.coding != "" {
			codings = append(codings, v.coding)
		}
	}
	if len(codings) > 0 {
		h.Add("Vary", "Accept-Encoding")
	}
	chosen := negotiateEncoding(r.Header.Values("Accept-Encoding"), codings)
	v := a.variants[0]
	for _, c := range a.variants {
		if c.coding == chosen {
			v = c
		}
	}
	f, err := p.files.Open(v.file)
	if err != nil {
		http.Error(w, "Not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	content, ok := f.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "Internal server error", http.StatusInternalServerError)
			return
		}
		content = bytes.NewReader(data)
	}
	h.Set("Content-Type", a.contentType)
	h.Set("ETag", v.etag)
	if v.coding != "" {
		h.Set("Content-Encoding", v.coding)
		// ServeContent leaves the length out when a coding is set.
		h.Set("Content-Length", strconv.FormatInt(v.size, 10))
	}
	http.ServeContent(w, r, "", time.Time{}, content)
}

// negotiateEncoding picks the content coding to send among the available
// ones (in the server's order of preference) from the request's
// Accept-Encoding fields (RFC 9110 §12.5.3); "" means none (identity).
//
// The coding with the highest q-value wins, ties going to the server's
// order, identity last. q=0 refuses a coding; "*" stands for every coding
// not named; identity is acceptable unless refused. Without an
// Accept-Encoding field, or when nothing acceptable is available, the
// answer is identity: every client can read that.
func negotiateEncoding(fields []string, available []string) string {
	if len(fields) == 0 || len(available) == 0 {
		return ""
	}
	named := map[string]float64{}
	for _, field := range fields {
		for _, item := range strings.Split(field, ",") {
			token, params, _ := strings.Cut(item, ";")
			token = strings.ToLower(strings.TrimSpace(token))
			if token == "" {
				continue
			}
			if token == "x-gzip" {
				token = "gzip" // RFC 9110 §8.4.1.3
			}
			q, ok := qValue(params)
			if !ok {
				continue
			}
			if old, seen := named[token]; !seen || q > old {
				named[token] = q
			}
		}
	}
	weight := func(coding string) float64 {
		if q, ok := named[coding]; ok {
			return q
		}
		if q, ok := named["*"]; ok {
			return q
		}
		if coding == "identity" {
			return 0.0001 // acceptable, below any coding named with a weight
		}
		return 0
	}
	best, bestQ := "", 0.0
	for _, coding := range available {
		if q := weight(coding); q > bestQ {
			best, bestQ = coding, q
		}
	}
	if weight("identity") > bestQ {
		return ""
	}
	return best
}

// qValue reads the weight from an Accept-Encoding item's parameters ("q=0.5");
// 1 without one. ok is false when the weight is malformed.
func qValue(params string) (float64, bool) {
	for _, param := range strings.Split(params, ";") {
		key, value, _ := strings.Cut(param, "=")
		if !strings.EqualFold(strings.TrimSpace(key), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || q < 0 || q > 1 {
			return 0, false
		}
		return q, true
	}
	return 1, true
}

// writeIndex answers index.html with a fresh nonce and the client
// configuration, gzip-compressed when the browser accepts it (it differs on
// every request, so it cannot be stored compressed).
func (s *Server) writeIndex(w http.ResponseWriter, r *http.Request) {
	nonce := newNonce()
	h := w.Header()
	h.Set("Content-Security-Policy", s.csp.header(nonce))
	cfg, _ := json.Marshal(s.clientConfig(r)) // json escapes <, > and & for a script element
	var b bytes.Buffer
	b.Write(s.spa.before)
	b.WriteString(`<meta name="csp-nonce" content="` + html.EscapeString(nonce) + `">` + "\n")
	b.WriteString(`<script type="application/json" id="portico-config">`)
	b.Write(cfg)
	b.WriteString("</script>")
	b.Write(s.spa.after)
	body := b.Bytes()
	h.Add("Vary", "Accept-Encoding")
	if negotiateEncoding(r.Header.Values("Accept-Encoding"), []string{"gzip"}) == "gzip" {
		var packed bytes.Buffer
		zw := gzipWriters.Get().(*gzip.Writer)
		zw.Reset(&packed)
		zw.Write(body)
		zw.Close()
		gzipWriters.Put(zw)
		body = packed.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}
