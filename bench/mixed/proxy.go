package main

import (
	"bytes"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// proxy is the small reverse proxy in front of several instances, as an
// operator would run one: round robin, X-Forwarded-For appended (the
// instances trust 127.0.0.1), and a request that fails to reach an
// instance tried on the next one when that is safe: always when the
// connection could not be made (nothing was sent), and after any other
// connection failure for idempotent methods and for requests carrying an
// Idempotency-Key.
type proxy struct {
	backends  []*url.URL
	next      atomic.Uint64
	retries   atomic.Int64
	transport *http.Transport
}

// startProxy serves a proxy in front of the instances on a loopback port.
func startProxy(instances []*harness.Instance, conns int) (*proxy, *http.Server, string, error) {
	p := &proxy{transport: &http.Transport{
		MaxIdleConnsPerHost: conns,
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
	}}
	for _, in := range instances {
		u, err := url.Parse(in.URL)
		if err != nil {
			return nil, nil, "", err
		}
		p.backends = append(p.backends, u)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
			pr.SetXForwarded()
		},
		Transport: p,
		ErrorLog:  log.New(io.Discard, "", 0), // a failure is the client's 502, counted there
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, "", err
	}
	srv := &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return p, srv, "http://" + ln.Addr().String(), nil
}

// RoundTrip sends req to the next instance in turn, and on to the others
// while a failure may be retried.
func (p *proxy) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	retryable := idempotent(req.Method) || req.Header.Get("Idempotency-Key") != ""
	first := p.next.Add(1)
	var err error
	for i := range uint64(len(p.backends)) {
		b := p.backends[(first+i)%uint64(len(p.backends))]
		out := req.Clone(req.Context())
		out.URL.Scheme, out.URL.Host, out.Host = b.Scheme, b.Host, ""
		out.Body, out.ContentLength = http.NoBody, 0
		if len(body) > 0 {
			out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		}
		var resp *http.Response
		if resp, err = p.transport.RoundTrip(out); err == nil {
			return resp, nil
		}
		if req.Context().Err() != nil || !(retryable || notConnected(err)) {
			return nil, err
		}
		p.retries.Add(1)
	}
	return nil, err
}

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// notConnected says the request never left: the connection was refused or
// could not be made.
func notConnected(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
