package main

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/secretbox"
)

// TestTwoCompaniesSyncTheirOwnAccounts serves two companies from one
// deployment, each connected (`netsuite connect -tenant`) to its own
// NetSuite account: one in Los Angeles with a service area field on its
// projects, one in Berlin (dates DD/MM/YYYY) with a latitude field. Each
// address lists its own account's records with its own fields, a change
// made in either account reaches its company alone, the metrics name
// both tenants, and neither account's secrets are in the database file
// or the server's log.
func TestTwoCompaniesSyncTheirOwnAccounts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the server")
	}
	poll := fleetPoll
	fleetPoll = 100 * time.Millisecond
	t.Cleanup(func() { fleetPoll = poll })
	la, _ := time.LoadLocation("America/Los_Angeles")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	const secretA, secretB = "riverbend-token-secret-5e1d0c", "kestrel-token-secret-a93b77"
	fakeA, envA := fakeNetSuiteSecrets(t, netsuitetest.Config{Location: la}, 20, "cs-a", secretA)
	fakeB, envB := fakeNetSuiteSecrets(t, netsuitetest.Config{Location: berlin, DateFormat: "DD/MM/YYYY"}, 8, "cs-b", secretB)
	dir := t.TempDir()
	mapping := func(zone, field string) string {
		text := strings.Replace(string(netsuite.DefaultMapping), "\ntimezone: UTC\n", "\ntimezone: "+zone+"\n", 1)
		text = strings.Replace(text, "\n  project:\n", "\n  project:\n    accountFields:\n      - "+field+"\n", 1)
		path := filepath.Join(dir, zone[strings.LastIndex(zone, "/")+1:]+".yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	mappingA := mapping("America/Los_Angeles", "{name: custentity_res_service_area, label: Service area, type: text}")
	mappingB := mapping("Europe/Berlin", "{name: custentity_res_latitude, label: Latitude, type: quantity}")

	// One deployment: its data directory, its key for secrets.
	base := map[string]string{"PORTICO_DATA_DIR": envA["PORTICO_DATA_DIR"], "PORTICO_LOG_LEVEL": "debug",
		"PORTICO_SECRET_KEYS": secretbox.NewKey(), "PORTICO_IDENTITY_PROJECT_ID": "demo-portal",
		"PORTICO_IDENTITY_EMULATOR_HOST": "127.0.0.1:1", "PORTICO_METRICS_TOKEN": strings.Repeat("m", 32)}
	with := func(more map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range more {
			if strings.HasPrefix(k, "PORTICO_NETSUITE_") {
				out[k] = v
			}
		}
		return out
	}
	must := func(env map[string]string, args ...string) string { t.Helper(); return mustRun(t, env, args...) }
	must(base, "roles", "import", "../../internal/demo/access.yaml")
	must(base, "tenants", "add", "kestrel", "-name", "Kestrel Consulting", "-host", "kestrel.localhost")
	access, err := os.ReadFile("../../internal/demo/access.yaml")
	if err != nil {
		t.Fatal(err)
	}
	kestrelAccess := filepath.Join(dir, "kestrel.yaml")
	os.WriteFile(kestrelAccess, bytes.Replace(access, []byte("\ntenant: portico-demo\n"), []byte("\ntenant: kestrel\n"), 1), 0o644)
	must(base, "roles", "import", kestrelAccess)
	if out := must(with(envA), "netsuite", "connect", "-tenant", "portico-demo", "-mapping", mappingA); !strings.Contains(out, "tenant portico-demo syncs from NetSuite account 123456_SB1 with its own mapping") {
		t.Errorf("connect: %s", out)
	}
	if _, err := runWith(t, base, "netsuite", "connect", "-tenant", "nobody", "-mapping", mappingB); err == nil {
		t.Error("connected a tenant that does not exist")
	}
	// Each stored connection checks against its own account: fields and
	// time zone (the check fails on a zone that is wrong). Kestrel's is
	// checked before it is stored too (the variables' account).
	checkB := with(envB)
	checkB["PORTICO_NETSUITE_MAPPING"] = mappingB
	if out, err := runWith(t, checkB, "netsuite", "check"); err != nil {
		t.Errorf("kestrel's account from the variables: %v\n%s", err, out)
	}
	for _, tenant := range []string{"portico-demo"} {
		if out, err := runWith(t, base, "netsuite", "check", "-tenant", tenant); err != nil {
			t.Errorf("check -tenant %s: %v\n%s", tenant, err, out)
		}
	}

	// The server, with no PORTICO_NETSUITE_* at all.
	serveEnv := with(nil)
	serveEnv["PORTICO_SYNC_INTERVAL"] = "1s"
	var logs lockedBuffer
	addr, stop := startServe(t, serveEnv, &logs)
	riverbend := signIn(t, addr, "", "portico-demo")
	kestrel := signIn(t, addr, "kestrel.localhost", "kestrel")
	// Kestrel connected while the server runs: its sync starts within a
	// poll, and its kinds gain its field.
	connected := func(c *client) bool {
		var st struct{ Data struct{ Connected bool } }
		if code := c.do("GET", "/api/v1/sync/status", nil, &st); code != 200 {
			t.Fatalf("%s's sync status: %d", c.host, code)
		}
		return st.Data.Connected
	}
	if connected(kestrel) || !connected(riverbend) {
		t.Errorf("before kestrel is connected: kestrel %v, riverbend %v", connected(kestrel), connected(riverbend))
	}
	must(with(envB), "netsuite", "connect", "-tenant", "kestrel", "-mapping", mappingB)
	if out, err := runWith(t, base, "netsuite", "check", "-tenant", "kestrel"); err != nil {
		t.Errorf("check -tenant kestrel: %v\n%s", err, out)
	}

	// Each company lists its own account's projects…
	for _, c := range []struct {
		who  *client
		fake *netsuitetest.Server
	}{{riverbend, fakeA}, {kestrel, fakeB}} {
		want := c.fake.Count("job")
		eventually(t, 20*time.Second, c.who.host+" projects", func() bool {
			var page struct {
				Data struct{ Rows []map[string]any }
			}
			c.who.do("GET", "/api/v1/netsuite/portal-list?type=project&pageSize=100", nil, &page)
			return len(page.Data.Rows) == want
		})
	}
	// …with its own account's fields, and not the other's.
	fieldsOf := func(c *client) []string {
		var kinds struct {
			Data []struct {
				Name   string
				Fields []struct{ Name string }
			}
		}
		c.do("GET", "/api/v1/kinds", nil, &kinds)
		for _, k := range kinds.Data {
			if k.Name == "project" {
				var out []string
				for _, f := range k.Fields {
					out = append(out, f.Name)
				}
				return out
			}
		}
		return nil
	}
	if f := fieldsOf(riverbend); !slices.Contains(f, "custentity_res_service_area") || slices.Contains(f, "custentity_res_latitude") {
		t.Errorf("riverbend's project fields: %v", f)
	}
	if f := fieldsOf(kestrel); !slices.Contains(f, "custentity_res_latitude") || slices.Contains(f, "custentity_res_service_area") {
		t.Errorf("kestrel's project fields: %v", f)
	}
	// Kestrel's projects sort by latitude, its own account's values.
	var sorted struct {
		Data struct{ Rows []map[string]any }
	}
	if code := kestrel.do("GET", "/api/v1/netsuite/portal-list?type=project&pageSize=100&sort=custentity_res_latitude&dir=desc", nil, &sorted); code != 200 {
		t.Fatalf("kestrel's projects by latitude: %d", code)
	}
	if len(sorted.Data.Rows) != fakeB.Count("job") {
		t.Fatalf("%d of kestrel's projects by latitude", len(sorted.Data.Rows))
	}
	for i, row := range sorted.Data.Rows {
		job, _ := fakeB.Get("job", int64(row["id"].(float64)))
		if want := job.Fields["custentity_res_latitude"]; want == nil || row["custentity_res_latitude"] != want {
			t.Fatalf("project %v: latitude %v, its account has %v", row["id"], row["custentity_res_latitude"], want)
		}
		if i > 0 && row["custentity_res_latitude"].(float64) > sorted.Data.Rows[i-1]["custentity_res_latitude"].(float64) {
			t.Fatalf("not by latitude, descending: %v after %v", row["custentity_res_latitude"], sorted.Data.Rows[i-1]["custentity_res_latitude"])
		}
	}
	// Its records open in its own account's NetSuite UI.
	var rec struct{ Data struct{ ErpURL string } }
	kestrel.do("GET", "/api/v1/netsuite/portal-record?type=project&id=1", nil, &rec)
	if want := netsuite.UIBaseURL("123456_SB1") + "/"; !strings.HasPrefix(rec.Data.ErpURL, want) {
		t.Errorf("kestrel's project opens at %q, not in its account (%s)", rec.Data.ErpURL, want)
	}
	// Riverbend sorting by kestrel's field is refused, not answered.
	if code := riverbend.do("GET", "/api/v1/netsuite/portal-list?type=project&sort=custentity_res_latitude", nil, nil); code != 400 && code != 422 {
		t.Errorf("riverbend sorted by kestrel's field: %d", code)
	}

	// A change in either account reaches its own company alone, within
	// seconds once the first round is done: each account's times are read
	// in its own zone.
	for _, c := range []*client{riverbend, kestrel} {
		eventually(t, 60*time.Second, c.host+" first sync round", func() bool {
			var st struct {
				Data struct {
					Kinds []struct {
						LagSeconds  int64
						Unavailable string
						Off         bool
					}
				}
			}
			c.do("GET", "/api/v1/sync/status", nil, &st)
			for _, k := range st.Data.Kinds {
				if k.LagSeconds < 0 && k.Unavailable == "" && !k.Off {
					return false
				}
			}
			return len(st.Data.Kinds) > 0
		})
	}
	if err := fakeB.Update("job", 2, map[string]any{"companyname": "Changed in Berlin"}); err != nil {
		t.Fatal(err)
	}
	if err := fakeA.Update("job", 3, map[string]any{"companyname": "Changed in Los Angeles"}); err != nil {
		t.Fatal(err)
	}
	// (Read from the list: a record page also fetches its record from
	// NetSuite, which would prove nothing of the pull.)
	title := func(c *client, id int) string {
		var page struct {
			Data struct{ Rows []map[string]any }
		}
		c.do("GET", "/api/v1/netsuite/portal-list?type=project&pageSize=100", nil, &page)
		for _, row := range page.Data.Rows {
			if row["id"] == float64(id) {
				s, _ := row["companyname"].(string)
				return s
			}
		}
		return ""
	}
	took := eventually(t, 15*time.Second, "the Berlin change at kestrel", func() bool { return title(kestrel, 2) == "Changed in Berlin" })
	took += eventually(t, 15*time.Second, "the Los Angeles change at riverbend", func() bool { return title(riverbend, 3) == "Changed in Los Angeles" })
	t.Logf("the two changes reached their companies in %s", took.Round(time.Millisecond))
	if title(riverbend, 2) == "Changed in Berlin" || title(kestrel, 3) == "Changed in Los Angeles" {
		t.Error("a change reached the other company")
	}

	// The metrics name each tenant's sync, each family once.
	req, _ := http.NewRequest("GET", "http://"+addr+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+base["PORTICO_METRICS_TOKEN"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, tenant := range []string{"portico-demo", "kestrel"} {
		if !regexp.MustCompile(`(?m)^portico_sync_lease_holder\{instance="[^"]*",tenant="` + tenant + `"\} 1$`).Match(metrics) {
			t.Errorf("metrics lack %s's lease:\n%s", tenant, metrics)
		}
	}
	if n := strings.Count(string(metrics), "# TYPE portico_sync_lease_holder "); n != 1 {
		t.Errorf("portico_sync_lease_holder typed %d times", n)
	}

	// Disconnected, kestrel's sync stops within a poll; its records stay.
	must(base, "netsuite", "disconnect", "-tenant", "kestrel")
	eventually(t, 5*time.Second, "kestrel's sync stopped", func() bool { return !connected(kestrel) })
	if !connected(riverbend) {
		t.Error("riverbend's sync stopped with kestrel's")
	}
	if title(kestrel, 2) != "Changed in Berlin" {
		t.Error("kestrel's records went with its connection")
	}

	// Neither account's secrets are readable in the database or the log.
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
	db, err := os.ReadFile(filepath.Join(base["PORTICO_DATA_DIR"], "portico.db"))
	if err != nil {
		t.Fatal(err)
	}
	wal, _ := os.ReadFile(filepath.Join(base["PORTICO_DATA_DIR"], "portico.db-wal"))
	for _, secret := range []string{secretA, secretB, "cs-a", "cs-b"} {
		if bytes.Contains(db, []byte(secret)) || bytes.Contains(wal, []byte(secret)) {
			t.Errorf("the database holds %q", secret)
		}
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
	if !strings.Contains(logs.String(), "kestrel") {
		t.Error("the debug log says nothing of kestrel: the log check proves little")
	}
}

// signIn signs the demo administrator in at host ("" for the server's
// own address) with an emulator token of identity tenant tenant.
func signIn(t *testing.T, addr, host, tenant string) *client {
	t.Helper()
	now := time.Now()
	idTok, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{
		"iss": "https://securetoken.google.com/demo-portal", "aud": "demo-portal", "sub": "uid-ada-" + tenant,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "auth_time": now.Unix(),
		"email": "ada.admin@portico.test", "email_verified": true,
		"firebase": map[string]any{"tenant": tenant, "sign_in_provider": "password"},
	}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	c := &client{t: t, base: "http://" + addr, host: host, role: 1001}
	var login struct{ Data struct{ Token string } }
	if code := c.do("GET", "/api/v1/auth/login?idToken="+url.QueryEscape(idTok), nil, &login); code != 200 || login.Data.Token == "" {
		t.Fatalf("sign-in at %q: %d", host, code)
	}
	c.token = login.Data.Token
	return c
}

// lockedBuffer is a buffer the server's log writes to while the test
// reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
