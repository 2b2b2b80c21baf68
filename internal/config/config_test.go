package config

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadDefaults(t *testing.T) {
	c, rest, err := Load(envOf(nil), nil, []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.DataDir != "data" || c.Environment != "Production" ||
		c.ERP != "netsuite" || c.Product != "portal" || c.DefaultTenant != "portico-demo" || len(rest) != 1 {
		t.Errorf("defaults: %+v rest %v", c, rest)
	}
}

// The server's collector target is ServerGCPercent unless the operator's
// GOGC (which the runtime applies itself) says otherwise.
func TestGCPercentYieldsToGOGC(t *testing.T) {
	for env, want := range map[string]int{"": ServerGCPercent, "150": 0, "off": 0} {
		c, _, err := Load(envOf(map[string]string{"GOGC": env}), nil, nil)
		if err != nil || c.GCPercent != want {
			t.Errorf("GOGC=%q: GCPercent %d, want %d (%v)", env, c.GCPercent, want, err)
		}
	}
}

func TestLoadFlagsOverrideEnvironment(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	c, _, err := Load(envOf(map[string]string{"PORTICO_ADDR": "127.0.0.1:1"}), fs, []string{"-addr", "127.0.0.1:2"})
	if err != nil || c.Addr != "127.0.0.1:2" {
		t.Errorf("addr = %q, err %v", c.Addr, err)
	}
}

func TestLoadRejectsBadValuesNamingTheVariable(t *testing.T) {
	for key, val := range map[string]string{
		"PORTICO_ADDR":             "8080",
		"PORTICO_LOG_LEVEL":        "loud",
		"PORTICO_LOG_FORMAT":       "xml",
		"PORTICO_SHUTDOWN_TIMEOUT": "-1s",
		"PORTICO_ERP":              "Net Suite",
		"PORTICO_DEFAULT_TENANT":   "Bad_Tenant",
		"PORTICO_ACCESS_TOKEN_TTL": "5s",
		"PORTICO_LOGIN_RATE_IP":    "many",
		"PORTICO_DB_TIMEOUT":       "1ms",
		"PORTICO_PUBLIC_URL":       "portal.example.com",
	} {
		_, _, err := Load(envOf(map[string]string{key: val}), nil, nil)
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=%q: err = %v, want one naming the variable", key, val, err)
		}
	}
}

func TestEmulatorNeedsDemoProject(t *testing.T) {
	_, _, err := Load(envOf(map[string]string{"PORTICO_IDENTITY_EMULATOR_HOST": "127.0.0.1:9099", "PORTICO_IDENTITY_PROJECT_ID": "acme-prod"}), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "PORTICO_IDENTITY_EMULATOR_HOST") {
		t.Errorf("emulator with a real project: err = %v", err)
	}
}

func TestEquipmentService(t *testing.T) {
	secret := strings.Repeat("x", 32)
	c, _, err := Load(envOf(nil), nil, nil)
	if err != nil || c.Equipment.URL != "" {
		t.Errorf("off by default: %+v, err %v", c.Equipment, err)
	}
	for _, u := range []string{"https://equipment.example.com", "https://equipment.example.com/api/", "http://127.0.0.1:9000", "http://localhost:9000"} {
		c, _, err := Load(envOf(map[string]string{"PORTICO_EQUIPMENT_URL": u, "PORTICO_EQUIPMENT_SECRET": secret}), nil, nil)
		if err != nil || c.Equipment.URL != u || string(c.Equipment.Secret) != secret {
			t.Errorf("%s: %+v, err %v", u, c.Equipment, err)
		}
		if out := fmt.Sprintf("%v %+v %#v", c, c, c); strings.Contains(out, secret) {
			t.Errorf("the secret prints: %s", out)
		}
	}
	for name, c := range map[string]struct {
		env  map[string]string
		want string
	}{
		"no secret":       {map[string]string{"PORTICO_EQUIPMENT_URL": "https://e.example.com"}, "PORTICO_EQUIPMENT_SECRET: required"},
		"short secret":    {map[string]string{"PORTICO_EQUIPMENT_URL": "https://e.example.com", "PORTICO_EQUIPMENT_SECRET": "short"}, "at least 32 bytes"},
		"secret, no URL":  {map[string]string{"PORTICO_EQUIPMENT_SECRET": secret}, "PORTICO_EQUIPMENT_URL is not"},
		"plain http":      {map[string]string{"PORTICO_EQUIPMENT_URL": "http://e.example.com", "PORTICO_EQUIPMENT_SECRET": secret}, "PORTICO_EQUIPMENT_URL"},
		"not a URL":       {map[string]string{"PORTICO_EQUIPMENT_URL": "equipment", "PORTICO_EQUIPMENT_SECRET": secret}, "PORTICO_EQUIPMENT_URL"},
		"query":           {map[string]string{"PORTICO_EQUIPMENT_URL": "https://e.example.com/?a=1", "PORTICO_EQUIPMENT_SECRET": secret}, "PORTICO_EQUIPMENT_URL"},
		"user in the URL": {map[string]string{"PORTICO_EQUIPMENT_URL": "https://u:p@e.example.com", "PORTICO_EQUIPMENT_SECRET": secret}, "PORTICO_EQUIPMENT_URL"},
	} {
		_, _, err := Load(envOf(c.env), nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), secret) {
			t.Errorf("%s: err = %v, want one saying %q", name, err, c.want)
		}
	}
}

func TestDBTimeoutAndPublicURL(t *testing.T) {
	c, _, err := Load(envOf(nil), nil, nil)
	if err != nil || c.DBTimeout != 5*time.Second || c.PublicURL != "" {
		t.Errorf("defaults: %v %q, err %v", c.DBTimeout, c.PublicURL, err)
	}
	c, _, err = Load(envOf(map[string]string{"PORTICO_DB_TIMEOUT": "750ms", "PORTICO_PUBLIC_URL": "https://portal.example.com/"}), nil, nil)
	if err != nil || c.DBTimeout != 750*time.Millisecond || c.PublicURL != "https://portal.example.com" {
		t.Errorf("set: %v %q, err %v", c.DBTimeout, c.PublicURL, err)
	}
	for _, v := range []string{"ftp://portal.example.com", "https://portal.example.com/app", "https://u:p@portal.example.com", "https://"} {
		if _, _, err := Load(envOf(map[string]string{"PORTICO_PUBLIC_URL": v}), nil, nil); err == nil || !strings.Contains(err.Error(), "PORTICO_PUBLIC_URL") {
			t.Errorf("%s: err = %v", v, err)
		}
	}
	for _, v := range []string{"0s", "2m", "soon"} {
		if _, _, err := Load(envOf(map[string]string{"PORTICO_DB_TIMEOUT": v}), nil, nil); err == nil || !strings.Contains(err.Error(), "PORTICO_DB_TIMEOUT") {
			t.Errorf("%s: err = %v", v, err)
		}
	}
}

func TestSQLiteWALLimit(t *testing.T) {
	c, _, err := Load(envOf(nil), nil, nil)
	if err != nil || c.SQLiteWALLimit != 64<<20 {
		t.Errorf("default: %d, err %v", c.SQLiteWALLimit, err)
	}
	for v, want := range map[string]int64{
		"8MB": 8 << 20, "8 mb": 8 << 20, "8MiB": 8 << 20, "2GB": 2 << 30, "1536KB": 1536 << 10, "1048576": 1 << 20, "4194304B": 4 << 20,
	} {
		c, _, err := Load(envOf(map[string]string{"PORTICO_SQLITE_WAL_LIMIT": v}), nil, nil)
		if err != nil || c.SQLiteWALLimit != want {
			t.Errorf("%s: %d, err %v", v, c.SQLiteWALLimit, err)
		}
	}
	for _, v := range []string{"512KB", "0", "100GB", "-8MB", "8TB", "8 M", "big", "1.5MB", "99999999999GB"} {
		if _, _, err := Load(envOf(map[string]string{"PORTICO_SQLITE_WAL_LIMIT": v}), nil, nil); err == nil || !strings.Contains(err.Error(), "PORTICO_SQLITE_WAL_LIMIT") {
			t.Errorf("%s: err = %v", v, err)
		}
	}
}

func TestTenantDatabases(t *testing.T) {
	got, err := parseTenantDatabases(" kestrel=postgres://db2/portico;acme=postgresql://u@db3:5433/p?sslmode=disable ")
	if err != nil || len(got) != 2 || got["kestrel"] != "postgres://db2/portico" || got["acme"] != "postgresql://u@db3:5433/p?sslmode=disable" {
		t.Fatalf("%v, %v", got, err)
	}
	for _, bad := range []string{"kestrel", "Kestrel=postgres://x", "kestrel=sqlite:/x.db", "a=postgres://x a=postgres://y"} {
		if _, err := parseTenantDatabases(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
