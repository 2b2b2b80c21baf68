// Package config reads Portico's configuration once, from the environment
// (and a few command-line flags), into a Config that is passed explicitly to
// whatever needs it. Nothing else reads the environment.
package config

import (
	"flag"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/secretbox"
)

// Config is the whole configuration. The README's configuration table lists
// every variable; keep the two in step.
type Config struct {
	Addr          string          // PORTICO_ADDR: listen address
	DataDir       string          // PORTICO_DATA_DIR: where the embedded SQLite file lives
	DatabaseURL   string          // PORTICO_DATABASE_URL: postgres://... selects PostgreSQL
	LogFormat     string          // PORTICO_LOG_FORMAT: text or json
	LogLevel      slog.Level      // PORTICO_LOG_LEVEL: debug, info, warn, error
	Environment   string          // PORTICO_ENVIRONMENT: shown as a badge unless "Production"
	ProductName   string          // PORTICO_PRODUCT_NAME: the name in the top bar and title
	ERP           string          // PORTICO_ERP: the {erp} API path segment
	Product       string          // PORTICO_PRODUCT: the {product} API path segment
	DefaultTenant portal.TenantID // PORTICO_DEFAULT_TENANT: the tenant `seed` fills and `serve` shows
	// TenantDatabases place tenants in databases of their own, by
	// tenant: PORTICO_TENANT_DATABASES, "ID=URL" pairs separated by
	// spaces or semicolons. A tenant not named lives in the main database
	// (PORTICO_DATABASE_URL), which also keeps every tenant's directory
	// entry (hosts, suspension, NetSuite connection).
	TenantDatabases map[portal.TenantID]string
	ShutdownTimeout time.Duration // PORTICO_SHUTDOWN_TIMEOUT: grace period for in-flight requests
	// GCPercent is the garbage collector's target a serving process sets:
	// ServerGCPercent when the environment has no GOGC, else 0 (the
	// runtime already applies GOGC, and GOMEMLIMIT beside it).
	GCPercent int

	Identity      Identity
	ApplicationID string // PORTICO_APPLICATION_ID: the app's id, handed to the client (SPEC §3)
	ERPUIURL      string // PORTICO_ERP_UI_URL: origin of the ERP's UI, for "Open in NetSuite" links
	// Currency is the ISO 4217 code of the company's base currency when
	// no ERP account gives it (the sync reads a NetSuite account's own):
	// PORTICO_CURRENCY, default USD.
	Currency string

	AccessTokenTTL  time.Duration // PORTICO_ACCESS_TOKEN_TTL: life of a portal access token
	RefreshTokenTTL time.Duration // PORTICO_REFRESH_TOKEN_TTL: life of one refresh token (renewed on use)
	SessionMaxAge   time.Duration // PORTICO_SESSION_MAX_AGE: absolute life of a sign-in
	// SessionCacheTTL is how long one instance reuses a session's check
	// (session, user, roles) between requests; 0 checks every request.
	SessionCacheTTL time.Duration // PORTICO_SESSION_CACHE_TTL

	LoginPerMinuteIP      int // PORTICO_LOGIN_RATE_IP: sign-in attempts per minute per client address
	LoginPerMinuteAccount int // PORTICO_LOGIN_RATE_ACCOUNT: sign-ins per minute per account

	Equipment Equipment
	NetSuite  NetSuite
	// SecretKeys seal the secrets kept in the database (tenants' NetSuite
	// credentials): PORTICO_SECRET_KEYS, or the file PORTICO_SECRET_KEYS_FILE
	// names, the sealing key first (see package secretbox).
	SecretKeys secretbox.Keys
	// MetricsToken, when set, opens GET /metrics (Prometheus text) to a
	// scraper that sends it as a bearer token.
	MetricsToken string // PORTICO_METRICS_TOKEN
	// OperatorToken, when set, opens the operator API (/operator/v1:
	// tenants for automation) to a caller that sends it as a bearer
	// token; unset, its routes do not exist.
	OperatorToken string // PORTICO_OPERATOR_TOKEN

	// TenantConcurrency, TenantRate and TenantDBTime are each tenant's
	// budget on an instance while it serves several (tenancy.Budget):
	// requests at once (0: a quarter of the database pool, at least 1), requests
	// a second, and database time a second (0: an eighth of the pool's, at least 0.5 s).
	TenantConcurrency int           // PORTICO_TENANT_CONCURRENCY
	TenantRate        float64       // PORTICO_TENANT_RATE
	TenantDBTime      time.Duration // PORTICO_TENANT_DB_TIME

	// DBTimeout bounds each piece of a request's database work: a call
	// still running after it is interrupted and the request answers 503.
	DBTimeout time.Duration // PORTICO_DB_TIMEOUT
	// PublicURL is the origin users reach the portal at (behind a proxy
	// that ends TLS, say); https turns on Strict-Transport-Security. Empty
	// when unknown.
	PublicURL string // PORTICO_PUBLIC_URL
	// TrustedProxies are the peers (a load balancer, a reverse proxy)
	// whose X-Forwarded-For / Forwarded headers name the client; from any
	// other peer those headers are ignored. Empty trusts none.
	TrustedProxies []netip.Prefix // PORTICO_TRUSTED_PROXIES: comma-separated CIDRs or addresses
	// DatabaseMaxConns caps this instance's database connections; 0 lets
	// the engine's default stand (PostgreSQL: max(4, 2×GOMAXPROCS)).
	DatabaseMaxConns int // PORTICO_DATABASE_MAX_CONNS
	// SQLiteWALLimit is the size in bytes SQLite's write-ahead log is kept
	// within: past it the log is started over and its file truncated.
	SQLiteWALLimit int64 // PORTICO_SQLITE_WAL_LIMIT: a size such as 64MB
	// Instance names this process in metrics and in the sync lease;
	// the host name and listen port by default.
	Instance string // PORTICO_INSTANCE
}

// Equipment configures the external equipment-charge service (SPEC §7),
// whose charges show on a project's cost-details tab. An empty URL turns
// the feature off.
type Equipment struct {
	URL    string // PORTICO_EQUIPMENT_URL: the service's base URL
	Secret Secret // PORTICO_EQUIPMENT_SECRET: signs the calls' JWTs; set with URL, at least 32 bytes
}

// Secret is a credential. It prints and logs as "[redacted]", so a
// Config never leaks it through fmt or log/slog.
type Secret string

// String hides the value from fmt.
func (Secret) String() string { return "[redacted]" }

// GoString hides the value from fmt's %#v.
func (Secret) GoString() string { return "[redacted]" }

// LogValue hides the value from log/slog.
func (Secret) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// Identity configures the hosted identity service (Identity Platform /
// Firebase Authentication) for the server and, through index.html, the app.
type Identity struct {
	ProjectID    string // PORTICO_IDENTITY_PROJECT_ID: the tokens' audience
	APIKey       string // PORTICO_IDENTITY_API_KEY: the browser API key (public by design)
	AuthDomain   string // PORTICO_IDENTITY_AUTH_DOMAIN: where popup pages live
	AppID        string // PORTICO_IDENTITY_APP_ID
	KeysURL      string // PORTICO_IDENTITY_KEYS_URL: JWK set; Google's when empty
	EmulatorHost string // PORTICO_IDENTITY_EMULATOR_HOST: host:port of the Auth Emulator (demo- projects only)
}

var segment = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// ServerGCPercent is the collector's target (as GOGC) Portico serves with
// unless GOGC is set. A request allocates tens of kilobytes and keeps
// almost none, so at Go's default (100) the live heap stays a few
// megabytes and the collector ran dozens of times a second under load:
// at 400, 50 connections over a million projects answered a record view
// 43% faster, a page of 50 31% and a common word's list filter 30%, with
// the same peak resident memory (about 105 MB, most of it SQLite's page
// cache). At 800 the common word gained another 2–4% and the ERP pull's
// peak Go heap went from 62 to 110 MB, its peak resident memory from
// 1,049 to 1,068 MB (200,000 records), at the same speed.
const ServerGCPercent = 800

// currencyCode is the form of an ISO 4217 code.
var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// Load builds a Config from getenv, then applies the flags in args that fs
// defines (fs may be nil when a command takes no flags). It returns the
// remaining arguments. Every value is validated here, so a bad setting
// stops the program at start with a message naming the variable.
func Load(getenv func(string) string, fs *flag.FlagSet, args []string) (Config, []string, error) {
	env := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	c := Config{
		Addr:          env("PORTICO_ADDR", "127.0.0.1:8080"),
		DataDir:       env("PORTICO_DATA_DIR", "data"),
		DatabaseURL:   env("PORTICO_DATABASE_URL", ""),
		LogFormat:     env("PORTICO_LOG_FORMAT", "text"),
		Environment:   env("PORTICO_ENVIRONMENT", "Production"),
		ProductName:   env("PORTICO_PRODUCT_NAME", "Portico"),
		ERP:           env("PORTICO_ERP", "netsuite"),
		Product:       env("PORTICO_PRODUCT", "portal"),
		DefaultTenant: portal.TenantID(env("PORTICO_DEFAULT_TENANT", "portico-demo")),
		ApplicationID: env("PORTICO_APPLICATION_ID", "portico"),
		ERPUIURL:      env("PORTICO_ERP_UI_URL", "https://system.netsuite.com"),
		Currency:      strings.ToUpper(env("PORTICO_CURRENCY", "USD")),
		Identity: Identity{
			ProjectID:    env("PORTICO_IDENTITY_PROJECT_ID", "demo-portal"),
			APIKey:       env("PORTICO_IDENTITY_API_KEY", "demo-api-key"),
			AuthDomain:   env("PORTICO_IDENTITY_AUTH_DOMAIN", ""),
			AppID:        env("PORTICO_IDENTITY_APP_ID", ""),
			KeysURL:      env("PORTICO_IDENTITY_KEYS_URL", ""),
			EmulatorHost: env("PORTICO_IDENTITY_EMULATOR_HOST", ""),
		},
		Equipment: Equipment{
			URL:    env("PORTICO_EQUIPMENT_URL", ""),
			Secret: Secret(env("PORTICO_EQUIPMENT_SECRET", "")),
		},
	}
	if strings.TrimSpace(getenv("GOGC")) == "" {
		c.GCPercent = ServerGCPercent
	}
	if fs != nil {
		fs.StringVar(&c.Addr, "addr", c.Addr, "listen address (PORTICO_ADDR)")
		fs.StringVar(&c.DataDir, "data", c.DataDir, "data directory for the embedded SQLite file (PORTICO_DATA_DIR)")
		if err := fs.Parse(args); err != nil {
			return c, nil, err
		}
		args = fs.Args()
	}
	var err error
	if !currencyCode.MatchString(c.Currency) {
		return c, nil, fmt.Errorf("PORTICO_CURRENCY: an ISO 4217 currency code such as USD or EUR")
	}
	if err = c.LogLevel.UnmarshalText([]byte(env("PORTICO_LOG_LEVEL", "info"))); err != nil {
		return c, nil, fmt.Errorf("PORTICO_LOG_LEVEL: use debug, info, warn or error")
	}
	if c.ShutdownTimeout, err = time.ParseDuration(env("PORTICO_SHUTDOWN_TIMEOUT", "15s")); err != nil || c.ShutdownTimeout <= 0 {
		return c, nil, fmt.Errorf("PORTICO_SHUTDOWN_TIMEOUT: a positive duration such as 15s")
	}
	durations := []struct {
		key  string
		def  string
		into *time.Duration
	}{
		{"PORTICO_ACCESS_TOKEN_TTL", "15m", &c.AccessTokenTTL},
		{"PORTICO_REFRESH_TOKEN_TTL", "720h", &c.RefreshTokenTTL},
		{"PORTICO_SESSION_MAX_AGE", "2160h", &c.SessionMaxAge},
	}
	for _, d := range durations {
		if *d.into, err = time.ParseDuration(env(d.key, d.def)); err != nil || *d.into < time.Minute {
			return c, nil, fmt.Errorf("%s: a duration of at least 1m such as %s", d.key, d.def)
		}
	}
	if c.SessionCacheTTL, err = time.ParseDuration(env("PORTICO_SESSION_CACHE_TTL", "1s")); err != nil ||
		c.SessionCacheTTL < 0 || c.SessionCacheTTL > 10*time.Second {
		return c, nil, fmt.Errorf("PORTICO_SESSION_CACHE_TTL: a duration from 0s to 10s such as 1s")
	}
	rates := []struct {
		key  string
		def  string
		into *int
	}{
		{"PORTICO_LOGIN_RATE_IP", "60", &c.LoginPerMinuteIP},
		{"PORTICO_LOGIN_RATE_ACCOUNT", "20", &c.LoginPerMinuteAccount},
	}
	for _, r := range rates {
		if *r.into, err = strconv.Atoi(env(r.key, r.def)); err != nil || *r.into < 1 {
			return c, nil, fmt.Errorf("%s: a positive number of attempts per minute", r.key)
		}
	}
	if c.DBTimeout, err = time.ParseDuration(env("PORTICO_DB_TIMEOUT", "5s")); err != nil ||
		c.DBTimeout < 100*time.Millisecond || c.DBTimeout > time.Minute {
		return c, nil, fmt.Errorf("PORTICO_DB_TIMEOUT: a duration from 100ms to 1m such as 5s")
	}
	c.PublicURL = strings.TrimSuffix(env("PORTICO_PUBLIC_URL", ""), "/")
	if u, err := url.Parse(c.PublicURL); c.PublicURL != "" && (err != nil || (u.Scheme != "https" && u.Scheme != "http") ||
		u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil) {
		return c, nil, fmt.Errorf("PORTICO_PUBLIC_URL: an origin such as https://portal.example.com")
	}
	if c.Identity.EmulatorHost != "" && !strings.HasPrefix(c.Identity.ProjectID, "demo-") {
		return c, nil, fmt.Errorf("PORTICO_IDENTITY_EMULATOR_HOST is only allowed with a demo- PORTICO_IDENTITY_PROJECT_ID")
	}
	if u, err := url.Parse(c.ERPUIURL); err != nil || u.Scheme != "https" || u.Host == "" || u.Path != "" {
		return c, nil, fmt.Errorf("PORTICO_ERP_UI_URL: an https origin such as https://123456.app.netsuite.com")
	}
	if c.NetSuite, err = loadNetSuite(env); err != nil {
		return c, nil, err
	}
	if c.SecretKeys, err = loadSecretKeys(env); err != nil {
		return c, nil, err
	}
	if c.TrustedProxies, err = parsePrefixes(env("PORTICO_TRUSTED_PROXIES", "")); err != nil {
		return c, nil, fmt.Errorf("PORTICO_TRUSTED_PROXIES: %w", err)
	}
	if c.DatabaseMaxConns, err = strconv.Atoi(env("PORTICO_DATABASE_MAX_CONNS", "0")); err != nil ||
		c.DatabaseMaxConns < 0 || c.DatabaseMaxConns > 1000 {
		return c, nil, fmt.Errorf("PORTICO_DATABASE_MAX_CONNS: a number of connections from 1 to 1000 (0 for the default)")
	}
	if c.SQLiteWALLimit, err = parseSize(env("PORTICO_SQLITE_WAL_LIMIT", "64MB")); err != nil ||
		c.SQLiteWALLimit < 1<<20 || c.SQLiteWALLimit > 64<<30 {
		return c, nil, fmt.Errorf("PORTICO_SQLITE_WAL_LIMIT: a size from 1MB to 64GB such as 64MB")
	}
	c.Instance = env("PORTICO_INSTANCE", "")
	if c.Instance == "" {
		host, _ := os.Hostname()
		_, port, _ := net.SplitHostPort(c.Addr)
		c.Instance = host + ":" + port
	}
	if !instanceName.MatchString(c.Instance) {
		return c, nil, fmt.Errorf("PORTICO_INSTANCE: up to 64 letters, digits and . _ : -")
	}
	if c.TenantConcurrency, err = strconv.Atoi(env("PORTICO_TENANT_CONCURRENCY", "0")); err != nil || c.TenantConcurrency < 0 || c.TenantConcurrency > 10000 {
		return c, nil, fmt.Errorf("PORTICO_TENANT_CONCURRENCY: a number of requests from 1 to 10000 (0 for a quarter of the database pool)")
	}
	if c.TenantRate, err = strconv.ParseFloat(env("PORTICO_TENANT_RATE", "200"), 64); err != nil || c.TenantRate < 0 || math.IsInf(c.TenantRate, 0) {
		return c, nil, fmt.Errorf("PORTICO_TENANT_RATE: requests a second, such as 200 (0 for no limit)")
	}
	if c.TenantDBTime, err = time.ParseDuration(env("PORTICO_TENANT_DB_TIME", "0s")); err != nil || c.TenantDBTime < 0 {
		return c, nil, fmt.Errorf("PORTICO_TENANT_DB_TIME: database time a second, such as 2s (0 for an eighth of the database pool's)")
	}
	if c.TenantDatabases, err = parseTenantDatabases(env("PORTICO_TENANT_DATABASES", "")); err != nil {
		return c, nil, err
	}
	c.MetricsToken = env("PORTICO_METRICS_TOKEN", "")
	if c.MetricsToken != "" && len(c.MetricsToken) < 32 {
		return c, nil, fmt.Errorf("PORTICO_METRICS_TOKEN: at least 32 characters")
	}
	c.OperatorToken = env("PORTICO_OPERATOR_TOKEN", "")
	if c.OperatorToken != "" && len(c.OperatorToken) < 32 {
		return c, nil, fmt.Errorf("PORTICO_OPERATOR_TOKEN: at least 32 characters (openssl rand -hex 32)")
	}
	if err := checkEquipment(c.Equipment); err != nil {
		return c, nil, err
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return c, nil, fmt.Errorf("PORTICO_ADDR: %q is not host:port", c.Addr)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return c, nil, fmt.Errorf("PORTICO_LOG_FORMAT: use text or json")
	}
	if !segment.MatchString(c.ERP) || !segment.MatchString(c.Product) {
		return c, nil, fmt.Errorf("PORTICO_ERP and PORTICO_PRODUCT: lower-case path segments such as netsuite and portal")
	}
	if _, err := portal.ParseTenantID(string(c.DefaultTenant)); err != nil {
		return c, nil, fmt.Errorf("PORTICO_DEFAULT_TENANT: %w", err)
	}
	return c, args, nil
}

var instanceName = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// parseSize reads a size in bytes: a whole number, alone or followed by
// B, KB, MB or GB (binary: 1KB is 1,024 bytes; KiB, MiB, GiB are the
// same), in any case.
func parseSize(v string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"kib", 10}, {"mib", 20}, {"gib", 30}, {"kb", 10}, {"mb", 20}, {"gb", 30}, {"b", 0}}
	num, shift := strings.ToLower(strings.TrimSpace(v)), uint(0)
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, shift = strings.TrimSpace(n), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is not a size such as 64MB", v)
	}
	return n << shift, nil
}

// parsePrefixes reads a comma-separated list of CIDRs ("10.0.0.0/8") or
// single addresses ("10.0.0.7", taken as /32 or /128).
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR such as 10.0.0.0/8 or an address such as 10.0.0.7", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// checkEquipment validates the equipment-charge service's settings: both or
// neither; an https base URL (http only on a loopback host, for local
// fakes) without query or fragment; a secret long enough for HS256.
func checkEquipment(e Equipment) error {
	if e.URL == "" {
		if e.Secret != "" {
			return fmt.Errorf("PORTICO_EQUIPMENT_SECRET is set but PORTICO_EQUIPMENT_URL is not")
		}
		return nil
	}
	u, err := url.Parse(e.URL)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil ||
		(u.Scheme != "https" && (u.Scheme != "http" || !isLoopback(u.Hostname()))) {
		return fmt.Errorf("PORTICO_EQUIPMENT_URL: an https base URL such as https://equipment.example.com (http only on localhost)")
	}
	if e.Secret == "" {
		return fmt.Errorf("PORTICO_EQUIPMENT_SECRET: required when PORTICO_EQUIPMENT_URL is set")
	}
	if len(e.Secret) < 32 {
		return fmt.Errorf("PORTICO_EQUIPMENT_SECRET: at least 32 bytes")
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Placed reports whether PORTICO_TENANT_DATABASES places tenant t in a
// database of its own.
func (c Config) Placed(t portal.TenantID) bool {
	_, ok := c.TenantDatabases[t]
	return ok
}

// parseTenantDatabases reads PORTICO_TENANT_DATABASES: "ID=URL" pairs,
// separated by spaces or semicolons, each a tenant id and a postgres://
// URL, no tenant twice.
func parseTenantDatabases(text string) (map[portal.TenantID]string, error) {
	out := map[portal.TenantID]string{}
	for _, pair := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || unicode.IsSpace(r) }) {
		id, u, ok := strings.Cut(pair, "=")
		tenant, err := portal.ParseTenantID(id)
		switch {
		case !ok || err != nil:
			return nil, fmt.Errorf("PORTICO_TENANT_DATABASES: %q is not TENANT=postgres://…", pair)
		case !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://"):
			return nil, fmt.Errorf("PORTICO_TENANT_DATABASES: tenant %s's database must be a postgres:// URL", tenant)
		case out[tenant] != "":
			return nil, fmt.Errorf("PORTICO_TENANT_DATABASES: tenant %s is placed twice", tenant)
		}
		out[tenant] = u
	}
	return out, nil
}
