package httpapi

import (
	"context"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"testing"

	"github.com/portico/portico/internal/access"
)

func TestClientAddr(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, c := range []struct {
		name   string
		peer   string
		xff    []string
		fwd    []string
		want   string
		nobody bool // with no trusted proxies configured, the peer is the client
	}{
		{name: "direct client", peer: "198.51.100.7:5000", want: "198.51.100.7"},
		{name: "untrusted peer's header is ignored", peer: "198.51.100.7:5000", xff: []string{"203.0.113.9"}, want: "198.51.100.7"},
		{name: "untrusted peer's Forwarded is ignored", peer: "198.51.100.7:5000", fwd: []string{"for=203.0.113.9"}, want: "198.51.100.7"},
		{name: "balancer", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9"}, want: "203.0.113.9"},
		{name: "balancer without a header", peer: "10.0.0.2:40000", want: "10.0.0.2"},
		{name: "spoofed entries left of the client", peer: "10.0.0.2:40000", xff: []string{"1.1.1.1, 10.9.9.9, 203.0.113.9"}, want: "203.0.113.9"},
		{name: "a spoofed trusted address is skipped, the real client kept", peer: "10.0.0.2:40000", xff: []string{"10.1.1.1, 203.0.113.9, 10.0.0.3"}, want: "203.0.113.9"},
		{name: "chain of trusted proxies", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9, 10.0.0.5,10.0.0.6"}, want: "203.0.113.9"},
		{name: "every hop trusted: the leftmost", peer: "10.0.0.2:40000", xff: []string{"10.0.0.7, 10.0.0.5"}, want: "10.0.0.7"},
		{name: "several header lines read as one list", peer: "10.0.0.2:40000", xff: []string{"1.1.1.1, 203.0.113.9", "10.0.0.5"}, want: "203.0.113.9"},
		{name: "entry with a port", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9:51000"}, want: "203.0.113.9"},
		{name: "IPv6 entry", peer: "10.0.0.2:40000", xff: []string{"2001:db8::1"}, want: "2001:db8::1"},
		{name: "bracketed IPv6 entry with a port", peer: "10.0.0.2:40000", xff: []string{"[2001:db8::1]:4711"}, want: "2001:db8::1"},
		{name: "IPv6 balancer", peer: "[fd00::2]:40000", xff: []string{"203.0.113.9"}, want: "203.0.113.9"},
		{name: "IPv4-mapped peer matches an IPv4 prefix", peer: "[::ffff:10.0.0.2]:40000", xff: []string{"203.0.113.9"}, want: "203.0.113.9"},
		{name: "IPv4-mapped entry", peer: "10.0.0.2:40000", xff: []string{"::ffff:203.0.113.9"}, want: "203.0.113.9"},
		{name: "IPv6 peer, untrusted", peer: "[2001:db8::5]:40000", xff: []string{"203.0.113.9"}, want: "2001:db8::5"},
		{name: "garbage: the peer", peer: "10.0.0.2:40000", xff: []string{"<script>"}, want: "10.0.0.2"},
		{name: "garbage beside the balancer: the peer", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9, nonsense"}, want: "10.0.0.2"},
		{name: "garbage left of the client does not matter", peer: "10.0.0.2:40000", xff: []string{"nonsense, 203.0.113.9"}, want: "203.0.113.9"},
		{name: "empty entry: the peer", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9, "}, want: "10.0.0.2"},
		{name: "Forwarded", peer: "10.0.0.2:40000", fwd: []string{"for=203.0.113.9;proto=https;by=10.0.0.2"}, want: "203.0.113.9"},
		{name: "Forwarded, quoted IPv6 with a port", peer: "10.0.0.2:40000", fwd: []string{`for="[2001:db8::1]:4711"`}, want: "2001:db8::1"},
		{name: "Forwarded, case and spaces", peer: "10.0.0.2:40000", fwd: []string{`For=192.0.2.60 ; proto=http`}, want: "192.0.2.60"},
		{name: "Forwarded, several elements and lines", peer: "10.0.0.2:40000", fwd: []string{"for=1.1.1.1, for=203.0.113.9", "for=10.0.0.5"}, want: "203.0.113.9"},
		{name: "Forwarded, unknown: the peer", peer: "10.0.0.2:40000", fwd: []string{"for=unknown"}, want: "10.0.0.2"},
		{name: "Forwarded, obfuscated: the peer", peer: "10.0.0.2:40000", fwd: []string{`for="_hidden"`}, want: "10.0.0.2"},
		{name: "Forwarded element without for: the peer", peer: "10.0.0.2:40000", fwd: []string{"for=203.0.113.9, proto=https"}, want: "10.0.0.2"},
		{name: "X-Forwarded-For wins over Forwarded", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9"}, fwd: []string{"for=198.51.100.1"}, want: "203.0.113.9"},
		{name: "no trusted proxies configured", peer: "10.0.0.2:40000", xff: []string{"203.0.113.9"}, want: "10.0.0.2", nobody: true},
		{name: "peer without a port", peer: "198.51.100.7", want: "198.51.100.7"},
		{name: "peer that is not an address", peer: "@", want: "@"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.peer
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range c.fwd {
				r.Header.Add("Forwarded", v)
			}
			tp := trusted
			if c.nobody {
				tp = nil
			}
			if got := clientAddr(r, tp); got != c.want {
				t.Errorf("client %q, want %q", got, c.want)
			}
		})
	}
}

// Behind a trusted balancer the audit log records the user's address, not
// the balancer's; a client talking to the portal directly cannot choose the
// address it is recorded under.
func TestAuditRecordsTheClientBehindABalancer(t *testing.T) {
	e := newAuthEnv(t, 60)
	e.srv.trustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	for _, peer := range []string{"10.0.0.2:40000", "198.51.100.7:5000"} {
		r := httptest.NewRequest("GET", "/api/v1/auth/login?idToken="+url.QueryEscape(idToken("acme", "uid-ada", "ada@acme.test")), nil)
		r.RemoteAddr = peer
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		if w.Code != 200 {
			t.Fatalf("sign-in from %s: %d %s", peer, w.Code, w.Body)
		}
	}
	events, err := e.store.Tenant("acme").AuditEvents(context.Background(), access.AuditFilter{Event: "login", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var ips []string
	for _, ev := range events {
		ips = append(ips, ev.IP)
	}
	if want := []string{"198.51.100.7", "203.0.113.9"}; !slices.Equal(ips, want) {
		t.Errorf("audited addresses, newest first: %v, want %v", ips, want)
	}
}
