package httpapi

import (
	"compress/gzip"
	"mime"
	"net/http"
	"sync"
)

// compressMin is the size under which an answer goes out as it is: gzip's
// header and trailer and a round of inflating cost more than they save on
// a small answer (most writes' answers, a 204).
const compressMin = 1024

// gzipWriters are reused, by the API's answers and index.html: a
// gzip.Writer holds about 800 KB of tables. BestSpeed: a list page or the kinds compress to a fifth to a tenth at
// it, and it keeps to microseconds where level 6 costs several times more.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// withCompression gzips the API's answers (and /metrics) for a client that
// accepts it (Accept-Encoding, q-values honoured): JSON, problem
// documents, CSV and plain text of compressMin bytes or more. Everything
// else passes as written: files (already compressed, most of them), the
// event stream, small answers. A streamed answer (a CSV export) stays
// streamed: Flush sends what is compressed so far. The app's files are
// stored compressed by the build and served by serveApp.
func (s *Server) withCompression(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !policyApplies(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodHead || negotiateEncoding(r.Header.Values("Accept-Encoding"), []string{"gzip"}) != "gzip" {
			next.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w}
		defer cw.close()
		next.ServeHTTP(cw, r)
	})
}

// compressWriter holds an answer's status and first bytes until it knows
// whether to compress it: when compressMin bytes are in, at a Flush, or at
// the end.
type compressWriter struct {
	http.ResponseWriter
	status  int
	held    []byte
	decided bool
	gz      *gzip.Writer // when compressing
}

// compressible reports whether an answer with these headers is worth
// compressing: a text type we send, not already encoded.
func compressible(h http.Header) bool {
	if h.Get("Content-Encoding") != "" {
		return false
	}
	ct, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	switch ct {
	case "application/json", "application/problem+json", "text/csv", "text/plain":
		return true
	}
	return false
}

func (c *compressWriter) WriteHeader(code int) {
	if c.decided {
		c.ResponseWriter.WriteHeader(code)
		return
	}
	if code < http.StatusOK {
		c.ResponseWriter.WriteHeader(code) // 1xx: informational, not the answer
		return
	}
	if c.status != 0 {
		return // as net/http: the first status stands
	}
	c.status = code
	if code == http.StatusNoContent || code == http.StatusNotModified || !compressible(c.Header()) {
		c.decide(false)
	}
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if !c.decided {
		if c.status == 0 {
			c.status = http.StatusOK
		}
		if !compressible(c.Header()) {
			c.decide(false)
		} else {
			c.held = append(c.held, b...)
			if len(c.held) < compressMin {
				return len(b), nil
			}
			held := c.held
			c.held = nil
			c.decide(true)
			if _, err := c.gz.Write(held); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	if c.gz != nil {
		return c.gz.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// Flush sends what is written so far: compressed when the answer is
// being compressed or could be (a stream's first part decides for it).
func (c *compressWriter) Flush() {
	if !c.decided {
		if c.status == 0 {
			c.status = http.StatusOK // what flushing sends when nothing was written
		}
		held := c.held
		c.held = nil
		c.decide(len(held) > 0 && compressible(c.Header()))
		c.writeHeld(held)
	}
	if c.gz != nil {
		c.gz.Flush()
	}
	http.NewResponseController(c.ResponseWriter).Flush()
}

// decide sends the status, and the headers of a compressed answer when
// compress is set.
func (c *compressWriter) decide(compress bool) {
	c.decided = true
	if compress {
		h := c.Header()
		h.Set("Content-Encoding", "gzip")
		h.Del("Content-Length")
		c.gz = gzipWriters.Get().(*gzip.Writer)
		c.gz.Reset(c.ResponseWriter)
	}
	if c.status != 0 {
		c.ResponseWriter.WriteHeader(c.status)
	}
}

func (c *compressWriter) writeHeld(held []byte) {
	if len(held) == 0 {
		return
	}
	if c.gz != nil {
		c.gz.Write(held)
	} else {
		c.ResponseWriter.Write(held)
	}
}

// close ends the answer: a small one goes out as it is, a compressed one
// gets its trailer.
func (c *compressWriter) close() {
	if !c.decided && (c.status != 0 || len(c.held) > 0) {
		held := c.held
		c.held = nil
		c.decide(false)
		c.writeHeld(held)
	}
	if c.gz != nil {
		c.gz.Close()
		c.gz.Reset(nil)
		gzipWriters.Put(c.gz)
		c.gz = nil
	}
}

// Unwrap lets http.ResponseController reach the real writer (write
// deadlines); Flush is the compressWriter's own.
func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
