package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/records"
)

// client is a signed-in API user of a running server, at one of its
// host names (host; "" for the server's own address).
type client struct {
	t     *testing.T
	base  string
	host  string
	token string
	role  int64
}

func (c *client) do(method, target string, body any, out any) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, c.base+target, rd)
	if c.host != "" {
		req.Host = c.host
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("X-Role-Id", fmt.Sprint(c.role))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// eventually polls cond until it holds or the time is up.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}

// startServe runs `portico serve` with env, at a free loopback address it
// sets as PORTICO_ADDR and returns, its log going to out, until stop is
// called or the test ends (a serve that fails is a test error). It
// returns once the health check answers.
func startServe(t *testing.T, env map[string]string, out io.Writer) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	env["PORTICO_ADDR"] = addr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, func(k string) string { return env[k] }, out) }()
	stop = sync.OnceValue(func() error { cancel(); return <-done })
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	eventually(t, 10*time.Second, "server up", func() bool {
		res, err := http.Get("http://" + addr + "/api/v1/health")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == 200
	})
	return addr, stop
}

func TestServeSyncsWithNetSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the server")
	}
	fake, env := fakeNetSuite(t, nil, 20)
	env["PORTICO_SYNC_INTERVAL"] = "1s"
	env["PORTICO_IDENTITY_PROJECT_ID"], env["PORTICO_IDENTITY_EMULATOR_HOST"] = "demo-portal", "127.0.0.1:1"
	if _, err := runWith(t, env, "roles", "import", "../../internal/demo/access.yaml"); err != nil {
		t.Fatal(err)
	}
	addr, _ := startServe(t, env, io.Discard)
	base := "http://" + addr

	// Sign in as the demo administrator (the emulator's unsigned token).
	c := signIn(t, addr, "", "portico-demo")

	// Every list shows the account's records once the first pull is done.
	m, _ := netsuite.ParseMapping(netsuite.DefaultMapping)
	for _, k := range records.All() {
		want := fake.Count(m.Kind(k).RecordType)
		eventually(t, 20*time.Second, k.Name+" list", func() bool {
			var page struct {
				Data struct{ Rows []map[string]any }
			}
			c.do("GET", "/api/v1/netsuite/portal-list?type="+k.Name+"&limit=100", nil, &page)
			return len(page.Data.Rows) == want
		})
	}
	// ... and search finds them.
	cust := fake.All("customer")[0]
	name := cust.Fields["companyName"].(string)
	var found struct{ Data []struct{ Name, Type string } }
	c.do("GET", "/api/v1/netsuite/portal?method=search&query="+url.QueryEscape("cus: "+name), nil, &found)
	if len(found.Data) == 0 || found.Data[0].Name != name {
		t.Fatalf("search for %q: %+v", name, found.Data)
	}

	// A record's files come from NetSuite's file cabinet (the RESTlet).
	downloaded := false
	for id := 1; id <= 20 && !downloaded; id++ {
		var files struct{ Data []struct{ ID int64 } }
		if code := c.do("GET", fmt.Sprintf("/api/v1/netsuite/portal-file?type=project&id=%d", id), nil, &files); code != 200 {
			t.Fatalf("files of project %d: %d", id, code)
		}
		if len(files.Data) > 0 {
			req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/netsuite/portal-file?type=project&id=%d&fileId=%d", base, id, files.Data[0].ID), nil)
			req.Header.Set("Authorization", "Bearer "+c.token)
			req.Header.Set("X-Role-Id", fmt.Sprint(c.role))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || len(body) == 0 {
				t.Fatalf("download of file %d: %d, %d bytes", files.Data[0].ID, res.StatusCode, len(body))
			}
			downloaded = true
		}
	}
	if !downloaded {
		t.Fatal("no project among the first 20 has a file: the files path is untested")
	}

	// An edit made in the portal reaches NetSuite.
	type view struct {
		Data struct {
			Title   string
			Version time.Time
			Write   records.WriteState
		}
	}
	var before view
	c.do("GET", fmt.Sprintf("/api/v1/netsuite/portal-record?type=customer&id=%d", cust.ID), nil, &before)
	var saved view
	if code := c.do("PUT", fmt.Sprintf("/api/v1/netsuite/portal-crud?type=customer&id=%d", cust.ID),
		map[string]any{"fields": map[string]any{"companyname": "Edited in the portal"}, "version": before.Data.Version}, &saved); code != 200 || saved.Data.Write.State != records.WritePending {
		t.Fatalf("edit: %d %+v", code, saved.Data)
	}
	took := eventually(t, 10*time.Second, "the edit in NetSuite", func() bool {
		r, _ := fake.Get("customer", cust.ID)
		return r.Fields["companyName"] == "Edited in the portal"
	})
	t.Logf("portal edit reached NetSuite in %s", took.Round(time.Millisecond))
	eventually(t, 10*time.Second, "the edit synced on the record", func() bool {
		var v view
		c.do("GET", fmt.Sprintf("/api/v1/netsuite/portal-record?type=customer&id=%d", cust.ID), nil, &v)
		return v.Data.Write.State == records.WriteSynced && v.Data.Title == "Edited in the portal"
	})

	// A change made in NetSuite shows in the portal within one interval
	// (1 s here; a pull takes a few milliseconds more).
	if err := fake.Update("job", 2, map[string]any{"companyname": "Changed in NetSuite"}); err != nil {
		t.Fatal(err)
	}
	took = eventually(t, 2500*time.Millisecond, "the NetSuite change in the portal", func() bool {
		var v view
		c.do("GET", "/api/v1/netsuite/portal-record?type=project&id=2", nil, &v)
		return v.Data.Title == "Changed in NetSuite"
	})
	t.Logf("NetSuite change reached the portal in %s", took.Round(time.Millisecond))

	var st struct {
		Data struct {
			Kinds []struct{ Kind, LastError string }
		}
	}
	if code := c.do("GET", "/api/v1/sync/status", nil, &st); code != 200 || len(st.Data.Kinds) != len(records.All()) {
		t.Fatalf("sync status: %d %+v", code, st)
	}
}

// TestSyncOnce runs `portico sync -once` the way an administrator
// connecting an account does: on a fresh database (a clear message, not a
// foreign key failure), with wrong credentials (one failed login, not a
// retry per kind), then twice in a row (the first run's lease is released,
// so the second does not find "another instance is syncing").
func TestSyncOnce(t *testing.T) {
	fake, env := fakeNetSuite(t, nil, 3)
	env["PORTICO_LOG_LEVEL"] = "error"

	_, err := runWith(t, env, "sync", "-once")
	if err == nil || !strings.Contains(err.Error(), `tenant "portico-demo" does not exist`) ||
		!strings.Contains(err.Error(), "portico roles import") || strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Fatalf("sync on a fresh database: %v", err)
	}
	if fake.Stats().Requests != 0 {
		t.Fatalf("sync on a fresh database sent %d requests to NetSuite", fake.Stats().Requests)
	}
	if _, err := runWith(t, env, "roles", "import", "../../internal/demo/access.yaml"); err != nil {
		t.Fatal(err)
	}

	wrong := maps.Clone(env)
	wrong["PORTICO_NETSUITE_TOKEN_SECRET"] = "not the secret"
	_, err = runWith(t, wrong, "sync", "-once")
	if err == nil || !strings.Contains(err.Error(), "INVALID_LOGIN") {
		t.Fatalf("sync with a wrong token secret: %v", err)
	}
	if n := fake.Stats().AuthFailures; n != 1 {
		t.Fatalf("%d failed logins for one sync with a wrong secret, want 1", n)
	}

	for i := range 2 {
		start := time.Now()
		out, err := runWith(t, env, "sync", "-once")
		if err != nil || !strings.Contains(out, "pulled ") {
			t.Fatalf("sync -once #%d (%s after the one before): %v %q", i+1, time.Since(start), err, out)
		}
	}
}
