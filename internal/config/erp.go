package config

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/secretbox"
)

// NetSuite configures the NetSuite connection (issue 8). With no Account
// the portal is standalone: its own store is the system of record.
type NetSuite struct {
	Account     string // PORTICO_NETSUITE_ACCOUNT: 123456 or 123456_SB1; empty = standalone
	BaseURL     string // PORTICO_NETSUITE_BASE_URL: override of https://<account>.suitetalk.api.netsuite.com
	Auth        string // PORTICO_NETSUITE_AUTH: m2m (OAuth 2.0 client credentials) or tba
	MappingFile string // PORTICO_NETSUITE_MAPPING: the kind mapping; the shipped default when empty
	Concurrency int    // PORTICO_NETSUITE_CONCURRENCY: most requests in flight (default 3)

	// OAuth 2.0 client credentials (M2M).
	ClientID       string // PORTICO_NETSUITE_CLIENT_ID: the integration record's client id
	CertificateID  string // PORTICO_NETSUITE_CERTIFICATE_ID: the certificate id (kid) from the M2M setup
	PrivateKeyFile string // PORTICO_NETSUITE_PRIVATE_KEY_FILE: PEM private key of that certificate

	// Token-Based Authentication (OAuth 1.0a).
	ConsumerKey    string // PORTICO_NETSUITE_CONSUMER_KEY
	ConsumerSecret string // PORTICO_NETSUITE_CONSUMER_SECRET
	TokenID        string // PORTICO_NETSUITE_TOKEN_ID
	TokenSecret    string // PORTICO_NETSUITE_TOKEN_SECRET

	RESTletScript string // PORTICO_NETSUITE_RESTLET_SCRIPT: script id of the portal's RESTlet
	RESTletDeploy string // PORTICO_NETSUITE_RESTLET_DEPLOY: its deployment id

	SyncInterval time.Duration // PORTICO_SYNC_INTERVAL: time between pulls (default 1m)
}

// Enabled reports whether a NetSuite account is configured.
func (n NetSuite) Enabled() bool { return n.Account != "" }

// loadNetSuite reads and checks the NetSuite settings.
func loadNetSuite(env func(key, def string) string) (NetSuite, error) {
	n := NetSuite{
		Account:        env("PORTICO_NETSUITE_ACCOUNT", ""),
		BaseURL:        env("PORTICO_NETSUITE_BASE_URL", ""),
		Auth:           env("PORTICO_NETSUITE_AUTH", "m2m"),
		MappingFile:    env("PORTICO_NETSUITE_MAPPING", ""),
		ClientID:       env("PORTICO_NETSUITE_CLIENT_ID", ""),
		CertificateID:  env("PORTICO_NETSUITE_CERTIFICATE_ID", ""),
		PrivateKeyFile: env("PORTICO_NETSUITE_PRIVATE_KEY_FILE", ""),
		ConsumerKey:    env("PORTICO_NETSUITE_CONSUMER_KEY", ""),
		ConsumerSecret: env("PORTICO_NETSUITE_CONSUMER_SECRET", ""),
		TokenID:        env("PORTICO_NETSUITE_TOKEN_ID", ""),
		TokenSecret:    env("PORTICO_NETSUITE_TOKEN_SECRET", ""),
		RESTletScript:  env("PORTICO_NETSUITE_RESTLET_SCRIPT", "customscript_portico_restlet"),
		RESTletDeploy:  env("PORTICO_NETSUITE_RESTLET_DEPLOY", "customdeploy_portico_restlet"),
	}
	var err error
	if n.SyncInterval, err = time.ParseDuration(env("PORTICO_SYNC_INTERVAL", "1m")); err != nil || n.SyncInterval < time.Second {
		return n, fmt.Errorf("PORTICO_SYNC_INTERVAL: a duration of at least 1s such as 1m")
	}
	if n.Concurrency, err = strconv.Atoi(env("PORTICO_NETSUITE_CONCURRENCY", "3")); err != nil || n.Concurrency < 1 || n.Concurrency > 50 {
		return n, fmt.Errorf("PORTICO_NETSUITE_CONCURRENCY: a number of requests from 1 to 50")
	}
	if !n.Enabled() {
		return n, nil
	}
	if !netsuite.ValidAccount(n.Account) {
		return n, fmt.Errorf("PORTICO_NETSUITE_ACCOUNT: an account id such as 123456 or 123456_SB1")
	}
	if n.BaseURL != "" {
		u, err := url.Parse(n.BaseURL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname()))) {
			return n, fmt.Errorf("PORTICO_NETSUITE_BASE_URL: an https URL (http only on localhost)")
		}
	}
	switch n.Auth {
	case "m2m":
		if n.ClientID == "" || n.CertificateID == "" || n.PrivateKeyFile == "" {
			return n, fmt.Errorf("PORTICO_NETSUITE_AUTH=m2m needs PORTICO_NETSUITE_CLIENT_ID, PORTICO_NETSUITE_CERTIFICATE_ID and PORTICO_NETSUITE_PRIVATE_KEY_FILE")
		}
	case "tba":
		if n.ConsumerKey == "" || n.ConsumerSecret == "" || n.TokenID == "" || n.TokenSecret == "" {
			return n, fmt.Errorf("PORTICO_NETSUITE_AUTH=tba needs PORTICO_NETSUITE_CONSUMER_KEY, _CONSUMER_SECRET, _TOKEN_ID and _TOKEN_SECRET")
		}
	default:
		return n, fmt.Errorf("PORTICO_NETSUITE_AUTH: use m2m or tba")
	}
	return n, nil
}

// loadSecretKeys reads the keys that seal secrets at rest: from
// PORTICO_SECRET_KEYS, or from the file PORTICO_SECRET_KEYS_FILE names
// (not both). None is no error: only storing or reading a tenant's
// credentials needs them.
func loadSecretKeys(env func(key, def string) string) (secretbox.Keys, error) {
	text, file := env("PORTICO_SECRET_KEYS", ""), env("PORTICO_SECRET_KEYS_FILE", "")
	if text != "" && file != "" {
		return secretbox.Keys{}, fmt.Errorf("PORTICO_SECRET_KEYS and PORTICO_SECRET_KEYS_FILE: set one, not both")
	}
	name := "PORTICO_SECRET_KEYS"
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return secretbox.Keys{}, fmt.Errorf("PORTICO_SECRET_KEYS_FILE: %w", err)
		}
		text, name = string(b), "PORTICO_SECRET_KEYS_FILE"
	}
	keys, err := secretbox.ParseKeys(text)
	if err != nil {
		return keys, fmt.Errorf("%s: %w", name, err)
	}
	return keys, nil
}
