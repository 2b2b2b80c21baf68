package netsuite_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/records"
)

// checkAccount serves a fake account of schema (nil: the default one)
// seeded with demo data and returns its URL.
func checkAccount(t *testing.T, schema *netsuitetest.Schema) string {
	return servedAccount(t, netsuitetest.Config{Schema: schema}, 3)
}

// servedAccount serves a fake account configured by cfg (its concurrency,
// clock and credentials the tests'), seeded with perKind demo records of
// every kind, and returns its URL.
func servedAccount(t *testing.T, cfg netsuitetest.Config, perKind int) string {
	t.Helper()
	cfg.Concurrency, cfg.Now = 5, testClock.Now
	cfg.TBA = &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
		return "cs", "ts", ck == "ck" && tid == "tid"
	}}
	fake, err := netsuitetest.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Generate(context.Background(), fake, demo.Options{PerKind: perKind, Seed: 1, Now: testClock.Now()}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return srv.URL
}

// checkClient is a TBA client of the account at url reading it with
// mapping, signing with consumer secret cs.
func checkClient(t *testing.T, url string, mapping []byte, cs string) *netsuite.Client {
	t.Helper()
	m, err := netsuite.ParseMapping(mapping)
	if err != nil {
		t.Fatal(err)
	}
	c, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: url, Mapping: m, Backoff: time.Millisecond,
		RESTletScript: netsuitetest.DefaultRESTletScript, RESTletDeploy: netsuitetest.DefaultRESTletDeploy,
		Auth: netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: cs, TokenID: "tid", TokenSecret: "ts", Now: testClock.Now}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func dump(rep *netsuite.Report) string {
	var b strings.Builder
	for _, r := range rep.Results {
		fmt.Fprintf(&b, "%s | %s | %s | %s | %s | %s\n", r.Kind, r.What, r.Status, r.Note, r.Fix, r.NetSuite)
	}
	return b.String()
}

// result returns the result of kind's check what, failing the test when
// there is none.
func result(t *testing.T, rep *netsuite.Report, kind, what string) netsuite.CheckResult {
	t.Helper()
	for _, r := range rep.Results {
		if r.Kind == kind && r.What == what {
			return r
		}
	}
	t.Fatalf("no check %q of %s in\n%s", what, kind, dump(rep))
	return netsuite.CheckResult{}
}

func TestCheckDefaultMapping(t *testing.T) {
	c := checkClient(t, checkAccount(t, nil), netsuite.DefaultMapping, "cs")
	rep, err := c.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Failures(); len(f) > 0 {
		t.Fatalf("required failures with the default mapping:\n%s", dump(&netsuite.Report{Results: f}))
	}
	// The optional fields this account lacks are warnings, named with
	// the entry that maps them.
	r := result(t, rep, "customer", "SuiteQL column balance")
	if r.Status != netsuite.CheckWarning || r.Fix != "kinds.customer.columns.balance" ||
		!strings.Contains(r.Note, "optional: the field stays empty") || !strings.Contains(r.NetSuite, "Unknown identifier 'balance'") {
		t.Errorf("customer balance: %+v", r)
	}
	if r := result(t, rep, "project", "SuiteQL column projectedenddate"); r.Status != netsuite.CheckWarning || r.Fix != "kinds.project.extraDates" {
		t.Errorf("project projectedenddate: %+v", r)
	}
	for _, w := range []struct{ kind, what string }{
		{"project", "SuiteQL table job"}, {"vendorbill", "SuiteQL table transaction where type = 'VendBill'"},
		{"vendorbill", "SuiteQL column foreigntotal for total"}, {"project", "SuiteQL column parent for customer"},
		{"customer", "deleted records (type customer)"}, {"customer", "record field companyName"},
		{"billing", "record field lastModified (recordModified)"}, {"", "RESTlet"},
	} {
		if r := result(t, rep, w.kind, w.what); r.Status != netsuite.CheckOK {
			t.Errorf("%s %s: %+v", w.kind, w.what, r)
		}
	}
	if n := rep.Count(netsuite.CheckOK); n < 250 {
		t.Errorf("%d checks ok:\n%s", n, dump(rep))
	}
}

// brokenMapping is the default mapping with customer's title read from a
// column the account does not have, a field id in the wrong case and
// projectrequest turned off.
func brokenMapping(t *testing.T) []byte {
	t.Helper()
	s := string(netsuite.DefaultMapping)
	for _, r := range [][2]string{
		{"  customer:\n    recordType: customer\n", "  customer:\n    recordType: customer\n    columns: {companyname: company_name}\n"},
		{"      entityid: entityId\n      laborcost: laborCost", "      entityid: entityid\n      laborcost: laborCost"},
		{"    recordType: customrecord_res_project_request\n", "    recordType: customrecord_res_project_request\n    off: true\n"},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("the default mapping has no %q", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return []byte(s)
}

// leanAccount is the default account without the billing custom record
// and without the projects' county field.
func leanAccount(t *testing.T) *netsuitetest.Schema {
	t.Helper()
	s, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount, "customrecord_res_billing", "job.custentity_res_county")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheckNamesWhatToFix(t *testing.T) {
	c := checkClient(t, checkAccount(t, leanAccount(t)), brokenMapping(t), "cs")
	rep, err := c.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := result(t, rep, "billing", "SuiteQL table customrecord_res_billing")
	if r.Status != netsuite.CheckMissing || !strings.Contains(r.Note, "not in this account") ||
		!strings.Contains(r.NetSuite, "Record 'customrecord_res_billing' was not found") ||
		!strings.Contains(r.Fix, "kinds.billing.off: true") || !strings.Contains(r.Fix, "kinds.billing.recordType") {
		t.Errorf("billing table: %+v", r)
	}
	if r := result(t, rep, "billing", "record type customrecord_res_billing"); r.Status != netsuite.CheckMissing {
		t.Errorf("billing record type: %+v", r)
	}
	r = result(t, rep, "customer", "SuiteQL column company_name for companyname")
	if r.Status != netsuite.CheckMissing || r.Fix != "kinds.customer.columns.companyname" ||
		!strings.Contains(r.NetSuite, "Unknown identifier 'company_name'") || !strings.Contains(r.Note, "required") {
		t.Errorf("customer company_name: %+v", r)
	}
	// Every missing column is named, not only the first: the customer's
	// optional balance too.
	if r := result(t, rep, "customer", "SuiteQL column balance"); r.Status != netsuite.CheckWarning {
		t.Errorf("customer balance: %+v", r)
	}
	// An extra the lean account lacks is a warning.
	if r := result(t, rep, "project", "SuiteQL column custentity_res_county"); r.Status != netsuite.CheckWarning || r.Fix != "kinds.project.extra" {
		t.Errorf("project county: %+v", r)
	}
	// Generic resources are read only: a field id in the wrong case is
	// still read.
	if r := result(t, rep, "genericresource", "record field entityid"); r.Status != netsuite.CheckOK {
		t.Errorf("genericresource entityid: %+v", r)
	}
	if r := result(t, rep, "projectrequest", "kind"); r.Status != netsuite.CheckOff {
		t.Errorf("projectrequest: %+v", r)
	}
	var failed []string
	for _, f := range rep.Failures() {
		failed = append(failed, f.Kind+" "+f.What)
	}
	want := []string{"customer SuiteQL column company_name for companyname", "billing SuiteQL table customrecord_res_billing",
		"billing record type customrecord_res_billing"}
	if strings.Join(failed, "; ") != strings.Join(want, "; ") {
		t.Errorf("failures %q, want %q\n%s", failed, want, dump(rep))
	}
}

func TestCheckRecordFieldCase(t *testing.T) {
	// Customers are written: their field ids must match exactly.
	m := strings.Replace(string(netsuite.DefaultMapping), "      companyname: companyName\n      entityid: entityId\n      entitystatus: entityStatus\n      datecreated",
		"      companyname: companyname\n      entityid: entityId\n      entitystatus: entityStatus\n      datecreated", 1)
	c := checkClient(t, checkAccount(t, nil), []byte(m), "cs")
	rep, err := c.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := result(t, rep, "customer", "record field companyname")
	if r.Status != netsuite.CheckMissing || r.Fix != "kinds.customer.fields.companyname: companyName" {
		t.Errorf("customer companyname: %+v", r)
	}
	if f := rep.Failures(); len(f) != 1 {
		t.Errorf("failures:\n%s", dump(&netsuite.Report{Results: f}))
	}
}

func TestCheckAccountFields(t *testing.T) {
	m := strings.Replace(string(netsuite.DefaultMapping), "    recordType: job\n", "    recordType: job\n"+
		"    accountFields:\n"+
		"      - {name: custentity_res_service_area, label: Service area, type: text}\n"+
		"      - {name: custentity_res_phase, label: Phase, type: text}\n", 1)
	c := checkClient(t, checkAccount(t, nil), []byte(m), "cs")
	rep, err := c.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, what := range []string{"SuiteQL column custentity_res_service_area", "record field custentity_res_service_area"} {
		if r := result(t, rep, "project", what); r.Status != netsuite.CheckOK {
			t.Errorf("%s: %+v", what, r)
		}
	}
	// An account field the account lacks is optional; projects are
	// edited, so writing it would be refused.
	if r := result(t, rep, "project", "SuiteQL column custentity_res_phase"); r.Status != netsuite.CheckWarning ||
		r.Fix != "kinds.project.columns.custentity_res_phase" {
		t.Errorf("phase column: %+v", r)
	}
	if r := result(t, rep, "project", "record field custentity_res_phase"); r.Status != netsuite.CheckWarning ||
		r.Fix != "kinds.project.readOnly" {
		t.Errorf("phase record field: %+v", r)
	}
	if f := rep.Failures(); len(f) > 0 {
		t.Errorf("failures:\n%s", dump(&netsuite.Report{Results: f}))
	}
}

func TestCheckRefusedCredentials(t *testing.T) {
	bad := checkClient(t, checkAccount(t, nil), netsuite.DefaultMapping, "wrong")
	if _, err := bad.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("check with refused credentials: %v", err)
	}
}

func TestGenerateMapping(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema *netsuitetest.Schema
	}{{"default account", nil}, {"lean account", leanAccount(t)}} {
		t.Run(tc.name, func(t *testing.T) {
			url := checkAccount(t, tc.schema)
			c := checkClient(t, url, netsuite.DefaultMapping, "cs")
			out, err := c.GenerateMapping(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			m, err := netsuite.ParseMapping(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			s := string(out)
			for _, want := range []string{
				"      companyname: companyName\n", // case differs
				"    table: transaction\n    where: type = 'VendBill'\n",
				"    columns:\n      total: foreigntotal\n",
				"    optional: [balance]\n",
				"    readOnly: [balance, datecreated]",
				"    #   custentity_res_insurance_expiry      Insurance Expiry (string, date)\n",
			} {
				if !strings.Contains(s, want) {
					t.Errorf("no %q in\n%s", want, s)
				}
			}
			k, _ := records.Lookup("billing")
			if off := m.Kind(k).Off; off != (tc.schema != nil) {
				t.Errorf("billing off: %v\n%s", off, s)
			}
			if tc.schema != nil && !strings.Contains(s, "    # this account has no record type customrecord_res_billing\n    off: true\n") {
				t.Errorf("billing not off with its reason:\n%s", s)
			}
			// Checked against the same account, it has no required
			// failure.
			again := checkClient(t, url, out, "cs")
			rep, err := again.Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if f := rep.Failures(); len(f) > 0 {
				t.Fatalf("the generated mapping fails:\n%s\n%s", dump(&netsuite.Report{Results: f}), s)
			}
		})
	}
}
