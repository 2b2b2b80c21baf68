package httpapi

import (
	"context"
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

func (p cspPolicy) header(nonce string) string {
	return "default-src 'self'; script-src " + p.script + "; style-src 'self' 'nonce-" + nonce + "'; " +
		"img-src 'self' data: blob:; font-src 'self' data:; connect-src " + p.connect + "; frame-src " + p.frame + "; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

const nonceKey ctxKey = iota + 100

// cspNonce returns the request's style nonce.
func cspNonce(ctx context.Context) string {
	n, _ := ctx.Value(nonceKey).(string)
	return n
}

// withSecurityHeaders sets the headers every answer carries, with a fresh
// style nonce per request.
func (s *Server) withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b [16]byte
		rand.Read(b[:])
		nonce := base64.RawStdEncoding.EncodeToString(b[:])
		h := w.Header()
		h.Set("Content-Security-Policy", s.csp.header(nonce))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin-allow-popups")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), nonceKey, nonce)))
	})
}
