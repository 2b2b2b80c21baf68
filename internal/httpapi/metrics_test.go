package httpapi

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

var metricsToken = strings.Repeat("m", 32)

func newMetricsServer(t *testing.T, writeMetrics func(context.Context, io.Writer) error) *Server {
	t.Helper()
	s, err := NewServer(Options{Logger: slog.New(slog.DiscardHandler), Store: fakeStore{}, UI: testUI, ERP: "netsuite", Product: "portal",
		MetricsToken: metricsToken, WriteMetrics: writeMetrics, Instance: "web-2:8080"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func scrape(t *testing.T, s *Server) string {
	t.Helper()
	w := do(s, "GET", "/metrics", "Authorization", "Bearer "+metricsToken)
	if w.Code != 200 {
		t.Fatalf("scrape: %d %s", w.Code, w.Body)
	}
	return w.Body.String()
}

// The metrics are there on every instance that has a token, ERP or not,
// and refused to anyone without it.
func TestMetricsNeedTheTokenNotAnERP(t *testing.T) {
	plain, _ := newTestServer(t, fakeStore{})
	if w := do(plain, "GET", "/metrics", "Authorization", "Bearer "+metricsToken); w.Code != 404 {
		t.Errorf("no token configured: %d", w.Code)
	}
	s := newMetricsServer(t, nil)
	for _, auth := range []string{"", "Bearer wrong", "Basic " + metricsToken} {
		if w := do(s, "GET", "/metrics", "Authorization", auth); w.Code != 401 {
			t.Errorf("Authorization %q: %d", auth, w.Code)
		}
	}
	w := do(s, "GET", "/metrics", "Authorization", "Bearer "+metricsToken)
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("scrape without an ERP: %d %v", w.Code, w.Header())
	}
	if !strings.Contains(w.Body.String(), "portico_instance_info{instance=\"web-2:8080\"} 1\n") {
		t.Errorf("no instance info:\n%s", w.Body)
	}
}

// Requests are counted by the route pattern that served them and their
// status, never by raw path; paths no route serves count as "other".
func TestRequestMetricsByRoutePattern(t *testing.T) {
	s := newMetricsServer(t, func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, "portico_sync_pulled_records_total 7\n")
		return err
	})
	for range 3 {
		do(s, "GET", "/api/v1/health")
	}
	do(s, "GET", "/api/v1/auth/me")          // 511, no session
	do(s, "GET", "/api/v1/no/such/thing/42") // the API's catch-all
	do(s, "GET", "/api/v1/no/such/thing/43")
	do(s, "DELETE", "/api/v1/health") // 405 from the router
	do(s, "GET", "/some/client/route")
	body := scrape(t, s)
	inst := `instance="web-2:8080"`
	for _, want := range []string{
		`portico_http_requests_total{` + inst + `,route="GET /api/v1/health",code="200"} 3`,
		`portico_http_requests_total{` + inst + `,route="GET /api/v1/auth/me",code="511"} 1`,
		`portico_http_requests_total{` + inst + `,route="other",code="404"} 2`,
		`portico_http_requests_total{` + inst + `,route="other",code="405"} 1`,
		`portico_http_requests_total{` + inst + `,route="/",code="200"} 1`,
		`portico_http_request_duration_seconds_bucket{` + inst + `,route="GET /api/v1/health",code="200",le="+Inf"} 3`,
		`portico_http_request_duration_seconds_count{` + inst + `,route="GET /api/v1/health",code="200"} 3`,
		`portico_http_request_duration_seconds_sum{` + inst + `,route="GET /api/v1/health",code="200"} `,
		"# TYPE portico_http_request_duration_seconds histogram\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %s in\n%s", want, body)
		}
	}
	if strings.Contains(body, "no/such") || strings.Contains(body, "client/route") {
		t.Errorf("a raw path became a label:\n%s", body)
	}
	// The engine's series come after the server's own.
	if i, j := strings.Index(body, "portico_http_request_duration_seconds_count"), strings.Index(body, "portico_sync_pulled_records_total 7\n"); j < 0 || j < i {
		t.Errorf("engine series missing or not last:\n%s", body)
	}
	// Every series this package writes carries the instance.
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		if strings.HasPrefix(line, "portico_http_") || strings.HasPrefix(line, "portico_instance_") {
			if !strings.Contains(line, inst) {
				t.Errorf("no instance label: %s", line)
			}
		}
	}
}

// Buckets are cumulative and inclusive of their bound.
func TestRequestLatencyBuckets(t *testing.T) {
	m := newRequestMetrics("a")
	for _, d := range []time.Duration{500 * time.Microsecond, time.Millisecond, 30 * time.Millisecond, time.Minute} {
		m.observe("GET /x", 200, d)
	}
	var b strings.Builder
	m.write(&b)
	for _, want := range []string{
		`{instance="a",route="GET /x",code="200",le="0.001"} 2`,
		`{instance="a",route="GET /x",code="200",le="0.025"} 2`,
		`{instance="a",route="GET /x",code="200",le="0.05"} 3`,
		`{instance="a",route="GET /x",code="200",le="10"} 3`,
		`{instance="a",route="GET /x",code="200",le="+Inf"} 4`,
		`portico_http_request_duration_seconds_sum{instance="a",route="GET /x",code="200"} 60.0315`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %s in\n%s", want, b.String())
		}
	}
}

func BenchmarkObserveRequest(b *testing.B) {
	m := newRequestMetrics("a")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.observe("GET /api/v1/health", 200, 3*time.Millisecond)
		}
	})
}
