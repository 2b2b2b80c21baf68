package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	outcomeKey
)

// requestID returns the id withRequestID gave the request.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

var safeRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// withRequestID gives every request an id: the caller's X-Request-Id when a
// proxy set a sane one, else a fresh random one. It is echoed in the answer,
// in every log line and in every problem document.
func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !safeRequestID.MatchString(id) {
			var b [12]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

// statusRecorder remembers the status and size of an answer for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// outcome is what a request's handlers tell its log line and metrics: why
// it failed, that its client left before the answer, and the route pattern
// that served it ("" when none matched).
type outcome struct {
	code      portal.Code
	err       error
	abandoned bool
	pattern   string
}

func outcomeOf(r *http.Request) *outcome {
	o, _ := r.Context().Value(outcomeKey).(*outcome)
	return o
}

// failed records why r is answered with an error (writeError calls it).
func failed(r *http.Request, code portal.Code, err error) {
	if o := outcomeOf(r); o != nil {
		o.code, o.err = code, err
	}
}

// abandoned records that r's client went away before the answer.
func abandoned(r *http.Request) {
	if o := outcomeOf(r); o != nil {
		o.abandoned = true
	}
}

// streamFailed records a failure after the answer began (a later page of
// a CSV export): too late for a problem document, not too late for the
// log. A stream its client left is not a failure.
func streamFailed(r *http.Request, err error) {
	if r.Context().Err() != nil {
		abandoned(r)
		return
	}
	failed(r, portal.CodeInternal, err)
}

// statusClientGone is what the log says of a request whose client went
// away before the answer (nginx's "client closed request"). It is never
// sent: there is no one to send it to.
const statusClientGone = 499

// withRoutePattern notes the pattern the router chose for the request (the
// router sets it on the request it was given, so this must wrap the router
// directly), for the metrics; a handler's panic still has its pattern.
func withRoutePattern(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if o := outcomeOf(r); o != nil {
				o.pattern = r.Pattern
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// withAccessLog writes exactly one structured line per request, whose level
// says whether anyone should look at it: ERROR for a 5xx (with its cause)
// and for a failure after the answer began; INFO for everything else —
// 2xx, 3xx, 4xx and 511 (with the error code), and requests their client
// abandoned (status 499). It logs the path only, never the query string:
// sign-in passes identity tokens there. It counts the request, by route
// pattern and the status it logs, in the HTTP metrics.
func (s *Server) withAccessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		o := &outcome{}
		r = r.WithContext(context.WithValue(r.Context(), outcomeKey, o))
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		elapsed := time.Since(start)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		level := slog.LevelInfo
		attrs := make([]slog.Attr, 0, 8)
		switch {
		case o.abandoned:
			status = statusClientGone
		case (status >= 500 && status != http.StatusNetworkAuthenticationRequired) || (status < 400 && o.err != nil):
			level = slog.LevelError
			if o.err != nil {
				attrs = append(attrs, slog.Any("err", o.err))
			}
		case status >= 400 && o.code != "":
			attrs = append(attrs, slog.String("code", string(o.code)))
		}
		attrs = append(attrs,
			slog.String("request_id", requestID(r.Context())),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", status),
			slog.Int64("bytes", rec.bytes),
			slog.Duration("duration", elapsed),
		)
		s.log.LogAttrs(r.Context(), level, "http", attrs...)
		if o.pattern == "" { // refused before routing (the input policy), or no route
			_, o.pattern = s.mux.Handler(r)
		}
		s.requests.observe(o.pattern, status, elapsed)
	})
}

// withProblemDocuments makes every error answer of the API and of
// /metrics a problem document, including those the handlers do not write
// themselves (the router's, a plain http.Error): an error status written
// with any other content type is replaced by a problem document of that
// status.
func (s *Server) withProblemDocuments(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !policyApplies(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&problemGuard{ResponseWriter: w, r: r}, r)
	})
}

// policyApplies reports whether a path is the API's or the metrics
// endpoint's: answered in problem documents, its input checked by the
// input policy. The app's pages take no input the server reads.
func policyApplies(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/metrics"
}

type problemGuard struct {
	http.ResponseWriter
	r           *http.Request
	wroteHeader bool
	replaced    bool // the answer is our problem document; drop the handler's body
}

func (g *problemGuard) WriteHeader(code int) {
	if g.wroteHeader {
		return
	}
	g.wroteHeader = true
	if code >= 400 && g.Header().Get("Content-Type") != "application/problem+json" {
		g.replaced = true
		g.Header().Del("Content-Length")
		writeProblem(g.ResponseWriter, Problem{Type: "about:blank", Title: http.StatusText(code), Status: code,
			RequestID: requestID(g.r.Context())})
		return
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *problemGuard) Write(b []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	if g.replaced {
		return len(b), nil
	}
	return g.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (g *problemGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// withRecover turns a panic into a logged 500, so one bad request never
// takes the process down.
func (s *Server) withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.writeError(w, r, portal.Errorf(portal.CodeInternal, "panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
