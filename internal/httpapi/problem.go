package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Problem is an RFC 9457 problem document. Errors carries field errors for
// 400 and 422 answers.
type Problem struct {
	Type      string              `json:"type"`
	Title     string              `json:"title"`
	Status    int                 `json:"status"`
	Detail    string              `json:"detail,omitempty"`
	Errors    []portal.FieldError `json:"errors,omitempty"`
	Current   map[string]any      `json:"current,omitempty"`
	RequestID string              `json:"requestId,omitempty"`
}

// statusOf is the one mapping from domain error codes to HTTP statuses.
var statusOf = map[portal.Code]int{
	portal.CodeInvalid:            http.StatusBadRequest,
	portal.CodeUnprocessable:      http.StatusUnprocessableEntity,
	portal.CodeInvalidCredentials: http.StatusUnauthorized,
	portal.CodeUnauthenticated:    http.StatusNetworkAuthenticationRequired, // 511, SPEC §8
	portal.CodeForbidden:          http.StatusForbidden,
	portal.CodeNotFound:           http.StatusNotFound,
	portal.CodeConflict:           http.StatusConflict,
	portal.CodeStale:              http.StatusPreconditionFailed,
	portal.CodeRateLimited:        http.StatusTooManyRequests,
	portal.CodeUnavailable:        http.StatusServiceUnavailable,
	portal.CodeInternal:           http.StatusInternalServerError,
}

// writeError translates err into a problem document. A classified error
// shows its message; anything else is a 500 that says only "internal
// error" and the request id, while the cause goes to the request's one log
// line under the same id (withAccessLog). A request whose client has gone
// is answered with nothing: it is neither a failure nor an error (the log
// says 499). Work that ran out of its database time (boundedStore) or any
// other deadline is a 503, never a 500.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	id := requestID(r.Context())
	var pe *portal.Error
	if ee, ok := errors.AsType[*erp.Error](err); ok {
		pe = erpError(ee)
	} else if !errors.As(err, &pe) {
		pe = portal.Wrap(portal.CodeInternal, err, "")
	}
	status := statusOf[pe.Code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if status >= 500 && status != http.StatusNetworkAuthenticationRequired && r.Context().Err() != nil {
		// The client went away (or the server is stopping): whatever
		// failed, failed because of that.
		abandoned(r)
		return
	}
	switch {
	case status == http.StatusInternalServerError && errors.Is(err, context.DeadlineExceeded):
		pe, status = portal.Wrap(portal.CodeUnavailable, err, msgTooSlow), http.StatusServiceUnavailable
	case status == http.StatusInternalServerError && s.dbUnavailable != nil && s.dbUnavailable(err):
		pe, status = portal.Wrap(portal.CodeUnavailable, err, msgNoDatabase), http.StatusServiceUnavailable
	}
	if pe.Message == msgTooSlow || pe.Message == msgNoDatabase {
		w.Header().Set("Retry-After", "1") // the database: a moment, not a minute
	}
	p := Problem{
		Type:      "about:blank",
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    pe.Message,
		Errors:    pe.Fields,
		Current:   pe.Current,
		RequestID: id,
	}
	failed(r, pe.Code, err)
	if status == http.StatusInternalServerError {
		p.Detail = "Internal error. Quote request id " + id + " when reporting it."
	}
	writeProblem(w, p)
}

// msgTooSlow is what a request that ran out of time is told; msgNoDatabase
// one whose database connection was lost (Options.DBUnavailable).
const (
	msgTooSlow    = "The portal's database did not answer in time. Try again in a moment."
	msgNoDatabase = "The portal lost its connection to its database. Try again in a moment."
)

// erpError is what a user is told of an ERP failure during their
// request: NetSuite's own message when it refused the request (theirs or
// an administrator's to fix), else that it is not answering (503).
func erpError(e *erp.Error) *portal.Error {
	if e.Permanent && e.Detail != "" {
		return portal.Wrap(portal.CodeUnprocessable, e, "NetSuite refused it: "+e.Detail)
	}
	return portal.Wrap(portal.CodeUnavailable, e, "NetSuite is not answering right now. Try again in a minute.")
}

func writeProblem(w http.ResponseWriter, p Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	json.NewEncoder(w).Encode(p)
}

// writeData writes {"data": v} as JSON.
func writeData(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	// Pages of rows (most answers, and most of their bytes) write
	// themselves, the same bytes without reflection. Concrete types only:
	// a struct embedding a page would otherwise answer as the page alone.
	var appendPage func([]byte) ([]byte, error)
	switch p := v.(type) {
	case records.ListPage:
		appendPage = p.AppendJSON
	case records.TabPage:
		appendPage = p.AppendJSON
	default:
		json.NewEncoder(w).Encode(struct {
			Data any `json:"data"`
		}{v})
		return
	}
	buf := answerBuffers.Get().(*[]byte)
	b, err := appendPage(append((*buf)[:0], `{"data":`...))
	if err == nil { // as the encoder, nothing of a value it cannot write
		w.Write(append(b, "}\n"...))
	}
	if cap(b) <= 1<<20 { // a rare huge answer's buffer is not kept
		*buf = b[:0]
		answerBuffers.Put(buf)
	}
}

// answerBuffers hold the bytes of answers being written.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// apiNotFound answers API requests no route matched: 405 with Allow when
// the path exists for other methods, 404 otherwise.
func (s *Server) apiNotFound(w http.ResponseWriter, r *http.Request) {
	status := http.StatusNotFound
	if allow := s.allowedMethods(r); allow != "" {
		status = http.StatusMethodNotAllowed
		w.Header().Set("Allow", allow)
	}
	writeProblem(w, Problem{Type: "about:blank", Title: http.StatusText(status), Status: status,
		Detail: "No API endpoint " + strconv.Quote(r.Method+" "+r.URL.Path) + ".", RequestID: requestID(r.Context())})
}

// allowedMethods lists the methods some API route accepts for r's path.
func (s *Server) allowedMethods(r *http.Request) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/api/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	return strings.Join(allow, ", ")
}
