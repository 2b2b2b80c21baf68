package httpapi

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
)

type clientIPKey struct{}

// withClientIP works out the client's address once per request (see
// clientAddr) and keeps it in the request's context for clientIP: the
// sign-in limits and the audit log use it.
func (s *Server) withClientIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := clientAddr(r, s.trustedProxies)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientIPKey{}, ip)))
	})
}

// clientIP is the address of the request's client as withClientIP found
// it; a request that did not pass through it gets its peer's address.
func clientIP(r *http.Request) string {
	if ip, ok := r.Context().Value(clientIPKey{}).(string); ok {
		return ip
	}
	return clientAddr(r, nil)
}

// clientAddr is the address of r's client. It is the direct peer's unless
// that peer is one of the trusted proxies; then it is read from the
// forwarding header, walked from the right (the entry the trusted peer
// added) leftwards, skipping entries that are themselves trusted proxies:
// the first untrusted one is the client. Entries to its left were written
// by the client or by proxies we do not know, so they are never believed.
//
// The header is X-Forwarded-For when the request has one, else RFC 7239
// Forwarded (its for= parameters). X-Forwarded-For wins because common
// balancers (haproxy, nginx, cloud load balancers) append to it and pass a
// client's own Forwarded header through untouched; a proxy that writes only
// Forwarded must drop X-Forwarded-For from its clients. Several lines of
// one header read as one list, in order.
//
// When every entry is trusted, the client is the leftmost one. An entry
// that is not an address (garbage, "unknown", an obfuscated identifier)
// ends the walk: the answer is then the peer itself, never a guess.
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	peer, ok := parseHost(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !isTrusted(peer, trusted) {
		return peer.String()
	}
	var hops []string
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		hops = splitList(xff)
	} else {
		hops = forwardedFor(r.Header.Values("Forwarded"))
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHost(hops[i])
		if !ok {
			return peer.String()
		}
		client = a
		if !isTrusted(a, trusted) {
			break
		}
	}
	return client.String()
}

// parseHost reads an address with or without a port, IPv6 optionally in
// brackets ("192.0.2.1", "192.0.2.1:80", "2001:db8::1", "[2001:db8::1]:80").
// An IPv4-mapped IPv6 address becomes IPv4 and a zone is dropped, so the
// trusted prefixes match however the address was written.
func parseHost(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	a, err := netip.ParseAddr(s)
	if err != nil {
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			a, err = netip.ParseAddr(s[1 : len(s)-1])
		} else {
			var ap netip.AddrPort
			ap, err = netip.ParseAddrPort(s)
			a = ap.Addr()
		}
	}
	if err != nil || !a.IsValid() {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// splitList splits the lines of a comma-separated header into its
// entries, in order.
func splitList(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(l, ",")...)
	}
	return out
}

// forwardedFor lists the for= values of RFC 7239 Forwarded header lines,
// one per element, in order, unquoted. An element without for= gives ""
// (not an address), so it stops the walk rather than being skipped. A
// quoted value holds no comma or semicolon in any address form, so a plain
// split is exact for every value clientAddr can accept.
func forwardedFor(lines []string) []string {
	var out []string
	for _, element := range splitList(lines) {
		v := ""
		for _, pair := range strings.Split(element, ";") {
			name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if ok && strings.EqualFold(name, "for") {
				v = value
				if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
					v = v[1 : len(v)-1]
				}
			}
		}
		out = append(out, v)
	}
	return out
}
