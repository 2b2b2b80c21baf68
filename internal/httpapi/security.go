package httpapi

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"
)

// cspPolicy renders the Content-Security-Policy. Scripts come only from our
// own origin (no inline script, no eval). Styles come from our origin plus
// <style> elements carrying the per-request nonce (the UI library writes its
// CSS variables that way); inline style attributes in markup are refused.
type cspPolicy struct{ script, connect, frame string }

// CSPSources are origins added to the policy for the identity service:
// Script for the SDK's sign-in popup helper, Connect for its REST calls,
// Frame for its auth-domain iframe. Empty in emulator mode but Connect.
type CSPSources struct {
	Script, Connect, Frame []string
}

func newCSP(src CSPSources) cspPolicy {
	list := func(extra []string) string { return strings.Join(append([]string{"'self'"}, extra...), " ") }
	return cspPolicy{script: list(src.Script), connect: list(src.Connect), frame: list(src.Frame)}
}

// header renders the policy; nonce, when set, admits <style> elements
// carrying it.
func (p cspPolicy) header(nonce string) string {
	style := "'self'"
	if nonce != "" {
		style += " 'nonce-" + nonce + "'"
	}
	return "default-src 'self'; script-src " + p.script + "; style-src " + style + "; " +
		"img-src 'self' data: blob:; font-src 'self' data:; connect-src " + p.connect + "; frame-src " + p.frame + "; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// withSecurityHeaders sets the headers every answer carries. The policy
// here has no style nonce: only index.html needs one, and writeIndex
// replaces the policy with a fresh nonce of its own.
func (s *Server) withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", s.csp.header(""))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin-allow-popups")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if s.hsts {
			// Served over https (PORTICO_PUBLIC_URL): browsers keep to
			// https for a year, whatever a link or a typed address says.
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// newNonce returns a fresh random style nonce.
func newNonce() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawStdEncoding.EncodeToString(b[:])
}
