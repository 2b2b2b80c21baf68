// Package identity verifies the ID tokens of the hosted identity service
// (Google Cloud Identity Platform / Firebase Authentication). Production
// tokens are RS256, checked against the service's published key set;
// emulator tokens are unsigned and accepted only in an explicitly
// configured, demo- project.
package identity

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/portal"
)

// GoogleKeysURL is the identity service's public key set (JWK).
const GoogleKeysURL = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

// Config selects how tokens are verified.
type Config struct {
	ProjectID string // the identity project: the token's audience
	KeysURL   string // JWK set URL; GoogleKeysURL when empty
	// EmulatorHost, when set, accepts the Firebase Auth Emulator's unsigned
	// tokens instead of signed ones. It is refused unless ProjectID starts
	// with "demo-", so it cannot verify a real project's users.
	EmulatorHost string
}

// Claims is what Portico takes from a verified token.
type Claims struct {
	UID           string
	Email         string
	EmailVerified bool
	Name          string
	Tenant        portal.TenantID
	Provider      string // firebase.sign_in_provider: password, microsoft.com, emailLink, ...
}

// Verifier checks ID tokens. It is safe for concurrent use.
type Verifier struct {
	projectID string
	emulator  bool
	keys      jwt.Keyfunc
	now       func() time.Time
}

// NewVerifier builds a Verifier. In production mode it fetches the key set
// (and keeps it fresh in the background until ctx ends).
func NewVerifier(ctx context.Context, cfg Config, log *slog.Logger) (*Verifier, error) {
	if cfg.ProjectID == "" {
		return nil, errors.New("identity: a project id is required")
	}
	v := &Verifier{projectID: cfg.ProjectID, now: time.Now}
	if cfg.EmulatorHost != "" {
		if !strings.HasPrefix(cfg.ProjectID, "demo-") {
			return nil, fmt.Errorf("identity: emulator mode needs a demo- project id, not %q", cfg.ProjectID)
		}
		log.Warn("IDENTITY EMULATOR MODE: unsigned identity tokens are accepted. Never use this in production.",
			"emulator", cfg.EmulatorHost, "project", cfg.ProjectID)
		v.emulator = true
		v.keys = func(*jwt.Token) (any, error) { return jwt.UnsafeAllowNoneSignatureType, nil }
		return v, nil
	}
	url := cfg.KeysURL
	if url == "" {
		url = GoogleKeysURL
	}
	kf, err := keyfunc.NewDefaultCtx(ctx, []string{url})
	if err != nil {
		return nil, fmt.Errorf("identity: key set %s: %w", url, err)
	}
	v.keys = kf.Keyfunc
	return v, nil
}

// firebaseClaims is the token's payload.
type firebaseClaims struct {
	jwt.RegisteredClaims
	AuthTime      int64  `json:"auth_time"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
	Name          string `json:"name"`
	Firebase      struct {
		Tenant   string `json:"tenant"`
		Provider string `json:"sign_in_provider"`
	} `json:"firebase"`
}

// errBadToken is the one answer for every kind of bad token: the caller
// learns nothing about which check failed (the log does).
var errBadToken = "Your sign-in could not be verified. Please sign in again."

// Verify checks token and returns its claims: the signature (RS256 only,
// or unsigned in emulator mode), audience, issuer, expiry, issue and
// authentication times, subject and the presence of a tenant. Any failure
// is a CodeInvalidCredentials error whose cause names the failed check.
func (v *Verifier) Verify(token string) (Claims, error) {
	methods := []string{"RS256"}
	if v.emulator {
		methods = []string{"none"}
	}
	var c firebaseClaims
	_, err := jwt.ParseWithClaims(token, &c, v.keys,
		jwt.WithValidMethods(methods),
		jwt.WithAudience(v.projectID),
		jwt.WithIssuer("https://securetoken.google.com/"+v.projectID),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(30*time.Second),
		jwt.WithTimeFunc(v.now),
	)
	if err != nil {
		return Claims{}, portal.Wrap(portal.CodeInvalidCredentials, err, errBadToken)
	}
	now := v.now().Add(30 * time.Second).Unix()
	switch {
	case len(c.Subject) == 0 || len(c.Subject) > 128:
		err = errors.New("subject must be 1-128 characters")
	case c.AuthTime == 0 || c.AuthTime > now:
		err = errors.New("auth_time missing or in the future")
	case c.IssuedAt == nil:
		err = errors.New("iat missing")
	case c.Firebase.Tenant == "":
		err = errors.New("no tenant claim")
	}
	if err != nil {
		return Claims{}, portal.Wrap(portal.CodeInvalidCredentials, err, errBadToken)
	}
	tenant, err := portal.ParseTenantID(c.Firebase.Tenant)
	if err != nil {
		return Claims{}, portal.Wrap(portal.CodeInvalidCredentials, err, errBadToken)
	}
	return Claims{
		UID: c.Subject, Email: strings.ToLower(c.Email), EmailVerified: c.EmailVerified, Name: c.Name,
		Tenant: tenant, Provider: c.Firebase.Provider,
	}, nil
}
