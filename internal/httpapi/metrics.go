package httpapi

import (
	"bufio"
	"cmp"
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/portal"
)

// metrics answers GET /metrics in Prometheus' text format to a scraper
// that sends the configured token as a bearer token; without a token
// configured the route does not exist (a 404). Every instance answers,
// with or without an ERP: the server's own series first, then
// Options.WriteMetrics' (the store's, and the sync engine's when there is
// one). Refusals are problem documents like every
// other error answer.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if s.metricsToken == "" {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "No endpoint %q.", r.Method+" "+r.URL.Path))
		return
	}
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(s.metricsToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		s.writeError(w, r, portal.Errorf(portal.CodeInvalidCredentials, "Send the metrics token as a bearer token."))
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	bw := bufio.NewWriter(w)
	s.requests.write(bw)
	if s.writeMetrics != nil {
		if err := s.writeMetrics(r.Context(), bw); err != nil {
			streamFailed(r, err)
		}
	}
	if err := bw.Flush(); err != nil {
		abandoned(r)
	}
}

// latencyBounds are the upper bounds, in seconds, of the request latency
// histogram's buckets: from a cached page (about a millisecond) to the
// database deadline and beyond.
var latencyBounds = [...]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// requestMetrics counts this instance's HTTP requests by route pattern and
// status, with their latencies. Recording a request is a map lookup and a
// few atomic additions; the map holds one entry per pattern and status
// seen, so it stays small (patterns are the registered ones, or "other").
type requestMetrics struct {
	instance string
	series   sync.Map // routeStatus → *latencies
}

type routeStatus struct {
	route  string
	status int
}

// latencies is one series' histogram; buckets are not cumulative here
// (write sums them).
type latencies struct {
	nanos   atomic.Int64
	buckets [len(latencyBounds) + 1]atomic.Uint64 // the last is +Inf
}

func newRequestMetrics(instance string) *requestMetrics {
	return &requestMetrics{instance: instance}
}

// observe counts one request answered with status after d. pattern is the
// route pattern as registered in routes.go; "" (no route) and the API's
// catch-all count as "other", so the labels never hold a raw path.
func (m *requestMetrics) observe(pattern string, status int, d time.Duration) {
	if pattern == "" || pattern == apiMiss {
		pattern = "other"
	}
	k := routeStatus{pattern, status}
	v, ok := m.series.Load(k)
	if !ok {
		v, _ = m.series.LoadOrStore(k, &latencies{})
	}
	l := v.(*latencies)
	l.nanos.Add(int64(d))
	i, _ := slices.BinarySearch(latencyBounds[:], d.Seconds())
	l.buckets[i].Add(1)
}

// write writes the instance's info gauge, the request counter and the
// latency histogram in Prometheus' text format, every series labelled
// with the instance, in a stable order.
func (m *requestMetrics) write(w io.Writer) {
	inst := promLabel(m.instance)
	fmt.Fprintf(w, "# HELP portico_instance_info This instance, by its PORTICO_INSTANCE name.\n# TYPE portico_instance_info gauge\n")
	fmt.Fprintf(w, "portico_instance_info{instance=\"%s\"} 1\n", inst)
	type row struct {
		k routeStatus
		l *latencies
	}
	var rows []row
	m.series.Range(func(k, v any) bool {
		rows = append(rows, row{k.(routeStatus), v.(*latencies)})
		return true
	})
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(strings.Compare(a.k.route, b.k.route), cmp.Compare(a.k.status, b.k.status))
	})
	// Each series' numbers are read once, so its count, buckets and sum
	// agree within one scrape even while requests go on.
	type snapshot struct {
		labels  string
		count   uint64
		seconds float64
		buckets [len(latencyBounds) + 1]uint64
	}
	snaps := make([]snapshot, len(rows))
	for i, r := range rows {
		s := &snaps[i]
		s.labels = fmt.Sprintf(`instance="%s",route="%s",code="%d"`, inst, promLabel(r.k.route), r.k.status)
		for j := range s.buckets {
			s.buckets[j] = r.l.buckets[j].Load()
			s.count += s.buckets[j]
		}
		s.seconds = time.Duration(r.l.nanos.Load()).Seconds()
	}
	fmt.Fprintf(w, "# HELP portico_http_requests_total HTTP requests answered, by route pattern and status code.\n# TYPE portico_http_requests_total counter\n")
	for _, s := range snaps {
		fmt.Fprintf(w, "portico_http_requests_total{%s} %d\n", s.labels, s.count)
	}
	fmt.Fprintf(w, "# HELP portico_http_request_duration_seconds Time to answer HTTP requests, by route pattern and status code.\n# TYPE portico_http_request_duration_seconds histogram\n")
	for _, s := range snaps {
		var cum uint64
		for j, le := range latencyBounds {
			cum += s.buckets[j]
			fmt.Fprintf(w, "portico_http_request_duration_seconds_bucket{%s,le=\"%s\"} %d\n", s.labels, strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(w, "portico_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %d\n", s.labels, s.count)
		fmt.Fprintf(w, "portico_http_request_duration_seconds_sum{%s} %g\n", s.labels, s.seconds)
		fmt.Fprintf(w, "portico_http_request_duration_seconds_count{%s} %d\n", s.labels, s.count)
	}
}

// promLabel escapes a label value for the text format.
func promLabel(v string) string { return labelEscaper.Replace(v) }

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
