package identity

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/portal"
)

const project = "portico-prod"

// keySet serves a JWK set holding the public half of key under kid.
func keySet(t *testing.T, kid string, key *rsa.PrivateKey) string {
	t.Helper()
	b64 := func(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]string{
		"kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
		"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
	}}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(jwks)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func claims(now time.Time, mutate func(jwt.MapClaims)) jwt.MapClaims {
	c := jwt.MapClaims{
		"iss": "https://securetoken.google.com/" + project, "aud": project, "sub": "uid-123",
		"iat": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(), "auth_time": now.Add(-time.Minute).Unix(),
		"email": "Ada.Admin@Portico.Test", "email_verified": true, "name": "Ada Admin",
		"firebase": map[string]any{"tenant": "portico-demo", "sign_in_provider": "password"},
	}
	if mutate != nil {
		mutate(c)
	}
	return c
}

func sign(t *testing.T, key *rsa.PrivateKey, kid string, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func unsigned(t *testing.T, c jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodNone, c).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestVerifyProductionTokens(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	v, err := NewVerifier(ctx, Config{ProjectID: project, KeysURL: keySet(t, "k1", key)}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	got, err := v.Verify(sign(t, key, "k1", claims(now, nil)))
	if err != nil {
		t.Fatal(err)
	}
	want := Claims{UID: "uid-123", Email: "ada.admin@portico.test", EmailVerified: true, Name: "Ada Admin", Tenant: "portico-demo", Provider: "password"}
	if got != want {
		t.Errorf("claims = %+v, want %+v", got, want)
	}

	for name, token := range map[string]string{
		"wrong signature":  sign(t, other, "k1", claims(now, nil)),
		"unknown key id":   sign(t, key, "k2", claims(now, nil)),
		"alg none":         unsigned(t, claims(now, nil)),
		"wrong audience":   sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["aud"] = "other-project" })),
		"wrong issuer":     sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["iss"] = "https://evil.example" })),
		"expired":          sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Hour).Unix() })),
		"no expiry":        sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { delete(c, "exp") })),
		"issued in future": sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["iat"] = now.Add(time.Hour).Unix() })),
		"auth in future":   sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["auth_time"] = now.Add(time.Hour).Unix() })),
		"empty subject":    sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["sub"] = "" })),
		"long subject":     sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["sub"] = strings.Repeat("x", 129) })),
		"no tenant":        sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["firebase"] = map[string]any{} })),
		"bad tenant":       sign(t, key, "k1", claims(now, func(c jwt.MapClaims) { c["firebase"] = map[string]any{"tenant": "../x"} })),
		"garbage":          "not.a.token",
		"empty":            "",
	} {
		_, err := v.Verify(token)
		if portal.ErrorCode(err) != portal.CodeInvalidCredentials {
			t.Errorf("%s: err = %v, want invalid credentials", name, err)
		}
	}
}

func TestEmulatorModeNeedsDemoProject(t *testing.T) {
	if _, err := NewVerifier(context.Background(), Config{ProjectID: project, EmulatorHost: "127.0.0.1:9099"}, quiet); err == nil {
		t.Fatal("emulator mode was enabled for a non-demo project")
	}
}

func TestEmulatorModeStillChecksClaims(t *testing.T) {
	var logs strings.Builder
	v, err := NewVerifier(context.Background(), Config{ProjectID: "demo-portal", EmulatorHost: "127.0.0.1:9099"},
		slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "EMULATOR MODE") {
		t.Error("emulator mode was not loudly logged")
	}
	now := time.Now()
	demo := func(m func(jwt.MapClaims)) jwt.MapClaims {
		return claims(now, func(c jwt.MapClaims) {
			c["aud"], c["iss"] = "demo-portal", "https://securetoken.google.com/demo-portal"
			if m != nil {
				m(c)
			}
		})
	}
	if _, err := v.Verify(unsigned(t, demo(nil))); err != nil {
		t.Errorf("emulator token refused: %v", err)
	}
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	for name, token := range map[string]string{
		"expired":        unsigned(t, demo(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Hour).Unix() })),
		"wrong audience": unsigned(t, demo(func(c jwt.MapClaims) { c["aud"] = "demo-other" })),
		"no tenant":      unsigned(t, demo(func(c jwt.MapClaims) { c["firebase"] = map[string]any{} })),
		"signed RS256":   sign(t, key, "k1", demo(nil)),
	} {
		if _, err := v.Verify(token); portal.ErrorCode(err) != portal.CodeInvalidCredentials {
			t.Errorf("%s: err = %v, want invalid credentials", name, err)
		}
	}
}
