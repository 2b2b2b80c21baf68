package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

// fakeNetSuite serves a fake account of schema (nil: the default one)
// with perKind demo records of every kind, and returns it with the
// environment that points portico at it with TBA credentials (a fresh
// data directory, warnings logged).
func fakeNetSuite(t *testing.T, schema *netsuitetest.Schema, perKind int) (*netsuitetest.Server, map[string]string) {
	t.Helper()
	return fakeNetSuiteConfig(t, netsuitetest.Config{Schema: schema}, perKind)
}

// fakeNetSuiteConfig is fakeNetSuite for an account configured by cfg
// (its schema, the integration user's zone and date format); the
// credentials are the fixture's.
func fakeNetSuiteConfig(t *testing.T, cfg netsuitetest.Config, perKind int) (*netsuitetest.Server, map[string]string) {
	t.Helper()
	return fakeNetSuiteSecrets(t, cfg, perKind, "cs", "ts")
}

// fakeNetSuiteSecrets is fakeNetSuiteConfig with the account's consumer
// and token secrets.
func fakeNetSuiteSecrets(t *testing.T, cfg netsuitetest.Config, perKind int, consumerSecret, tokenSecret string) (*netsuitetest.Server, map[string]string) {
	t.Helper()
	const account = "123456_SB1"
	cfg.TBA = &netsuitetest.TBAVerifier{Realm: netsuite.Realm(account),
		Lookup: func(ck, tid string) (string, string, bool) {
			return consumerSecret, tokenSecret, ck == "ck" && tid == "tid"
		}}
	fake, err := netsuitetest.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Generate(context.Background(), fake, demo.Options{PerKind: perKind, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ns := httptest.NewServer(fake)
	t.Cleanup(ns.Close)
	return fake, map[string]string{
		"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn",
		"PORTICO_NETSUITE_ACCOUNT": account, "PORTICO_NETSUITE_BASE_URL": ns.URL, "PORTICO_NETSUITE_AUTH": "tba",
		"PORTICO_NETSUITE_CONSUMER_KEY": "ck", "PORTICO_NETSUITE_CONSUMER_SECRET": consumerSecret,
		"PORTICO_NETSUITE_TOKEN_ID": "tid", "PORTICO_NETSUITE_TOKEN_SECRET": tokenSecret,
	}
}

func TestNetSuiteCheckAndMapping(t *testing.T) {
	// The shipped mapping on the account it was written for: no required
	// failure.
	_, env := fakeNetSuite(t, nil, 3)
	out, err := runWith(t, env, "netsuite", "check")
	if err != nil || !strings.Contains(out, "0 missing, 0 failed") || !strings.Contains(oneSpace(out), "customer SuiteQL column balance warning optional: the field stays empty") ||
		!strings.Contains(oneSpace(out), "customer 18 other checks ok") {
		t.Fatalf("check of the default mapping: %v\n%s", err, out)
	}
	// -v lists every check, and NetSuite's words on warnings.
	out, err = runWith(t, env, "netsuite", "check", "-v")
	if err != nil || !strings.Contains(oneSpace(out), "customer SuiteQL column companyname ok") ||
		!strings.Contains(out, "Unknown identifier 'balance'") {
		t.Fatalf("check -v: %v\n%s", err, out)
	}

	// A leaner account, and a mapping reading the customers' names from
	// a column that does not exist.
	lean, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount, "customrecord_res_billing", "job.custentity_res_county")
	if err != nil {
		t.Fatal(err)
	}
	_, env = fakeNetSuite(t, lean, 3)
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	m := strings.Replace(string(netsuite.DefaultMapping), "  customer:\n    recordType: customer\n",
		"  customer:\n    recordType: customer\n    columns: {companyname: company_name}\n", 1)
	if err := os.WriteFile(broken, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	env["PORTICO_NETSUITE_MAPPING"] = broken
	out, err = runWith(t, env, "netsuite", "check")
	if err == nil || !strings.Contains(err.Error(), "3 required checks failed") {
		t.Errorf("check of a broken mapping: %v", err)
	}
	for _, want := range []string{
		"mapping " + broken,
		"customer SuiteQL column company_name for companyname missing required:",
		"fix: kinds.customer.columns.companyname",
		"NetSuite: 400 INVALID_PARAMETER: Invalid search query. Detailed unprocessed description follows. Search error occurred: Unknown identifier 'company_name'.",
		"billing SuiteQL table customrecord_res_billing missing not in this account",
		"not in this account",
		"NetSuite: 400 INVALID_PARAMETER: Invalid search query. Detailed unprocessed description follows. Search error occurred: Record 'customrecord_res_billing' was not found.",
		"fix: kinds.billing.recordType (or table), or kinds.billing.off: true",
		"entry: kinds.project.extra",
		"3 missing, 0 failed",
	} {
		if !strings.Contains(oneSpace(out), want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}

	// A starting mapping from the account: billing off, and it checks
	// without a required failure.
	gen := filepath.Join(dir, "generated.yaml")
	out, err = runWith(t, env, "netsuite", "mapping", "-o", gen)
	if err != nil || !strings.Contains(out, "wrote "+gen+": 15 kinds, off (not in this account): billing") {
		t.Fatalf("mapping: %v\n%s", err, out)
	}
	if _, err := runWith(t, env, "netsuite", "mapping", "-o", gen); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("mapping over an existing file: %v", err)
	}
	env["PORTICO_NETSUITE_MAPPING"] = gen
	if out, err = runWith(t, env, "netsuite", "check"); err != nil || !strings.Contains(oneSpace(out), "billing kind off") {
		t.Errorf("check of the generated mapping: %v\n%s", err, out)
	}
	// To stdout without -o.
	if out, err = runWith(t, env, "netsuite", "mapping"); err != nil || !strings.Contains(out, "kinds:\n  project:\n    recordType: job\n") {
		t.Errorf("mapping to stdout: %v\n%s", err, out)
	}

	if _, err := runWith(t, env, "netsuite", "frob"); err == nil || !strings.Contains(err.Error(), "use `netsuite check`, `netsuite mapping`") {
		t.Errorf("netsuite frob: %v", err)
	}
	delete(env, "PORTICO_NETSUITE_ACCOUNT")
	if _, err := runWith(t, env, "netsuite", "check"); err == nil || !strings.Contains(err.Error(), "no NetSuite account is configured") {
		t.Errorf("check without an account: %v", err)
	}
}

// TestNetSuiteTimeZone: on an account whose integration user is in Los
// Angeles with dates as DD/MM/YYYY, `netsuite mapping` writes that zone,
// `netsuite check` fails on a mapping saying UTC, naming both times, the
// entry and the zone, and passes on the written one.
func TestNetSuiteTimeZone(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	_, env := fakeNetSuiteConfig(t, netsuitetest.Config{Location: la, DateFormat: "DD/MM/YYYY"}, 10)
	gen := filepath.Join(t.TempDir(), "generated.yaml")
	out, err := runWith(t, env, "netsuite", "mapping", "-o", gen)
	if err != nil || !strings.Contains(out, "timezone: America/Los_Angeles, measured on ") {
		t.Fatalf("mapping: %v\n%s", err, out)
	}
	t.Logf("netsuite mapping:\n%s", out)
	data, err := os.ReadFile(gen)
	if err != nil || !strings.Contains(string(data), "\ntimezone: America/Los_Angeles\n") {
		t.Fatalf("the written mapping: %v\n%s", err, data)
	}

	// The shipped mapping says UTC.
	out, err = runWith(t, env, "netsuite", "check")
	if err == nil || !strings.Contains(err.Error(), "3 required checks failed") {
		t.Errorf("check with the zone wrong: %v", err)
	}
	for _, want := range []string{
		"(account) time zone: entity (project ",
		"failed SuiteQL's last-modified \"",
		"read in the mapping's timezone UTC, is ",
		"the record API's (UTC) is ",
		"fix: timezone: America/Los_Angeles (measured on ",
	} {
		if !strings.Contains(oneSpace(out), want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	t.Logf("netsuite check, the zone wrong:\n%s", out)
	env["PORTICO_NETSUITE_MAPPING"] = gen
	out, err = runWith(t, env, "netsuite", "check")
	if err != nil || !strings.Contains(oneSpace(out), "(account) time zone: transaction (vendorbill ") ||
		!strings.Contains(oneSpace(out), "ok SuiteQL's last-modified") {
		t.Errorf("check with the written zone: %v\n%s", err, out)
	}
}

// oneSpace collapses runs of spaces, so that tests do not depend on the
// table's column widths.
func oneSpace(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString(strings.Join(strings.Fields(line), " ") + "\n")
	}
	return b.String()
}
