package netsuite_test

import (
	"context"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

// companyClient is a client of the default fake account, its subsidiaries
// replaced when subs is not nil (empty: an account without subsidiaries).
func companyClient(t *testing.T, subs []netsuitetest.Subsidiary) (*netsuitetest.Server, *netsuite.Client) {
	t.Helper()
	sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	if subs != nil {
		sc.Subsidiaries = subs
	}
	fake, err := netsuitetest.New(netsuitetest.Config{Schema: sc, Concurrency: 50, Now: testClock.Now,
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
			return "cs", "ts", ck == "ck" && tid == "tid"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: srv.URL, Backoff: time.Millisecond,
		Auth: netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts", Now: testClock.Now}})
	if err != nil {
		t.Fatal(err)
	}
	return fake, c
}

// The company is the root subsidiary: its name, legal name, tax number
// and main address, read once for a while.
func TestCompanyProfileIsTheRootSubsidiary(t *testing.T) {
	ctx := context.Background()
	fake, c := companyClient(t, nil)
	got, err := c.CompanyProfile(ctx)
	want := company.Profile{
		Name: "Riverbend Ecological Services", LegalName: "Riverbend Ecological Services, LLC", TaxID: "93-4416207",
		Phone: "(541) 555-0142",
		Address: company.Address{Lines: []string{"2140 Riverbend Way", "Suite 200"}, City: "Eugene", Region: "OR",
			PostalCode: "97401", Country: "US"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("profile %#v, %v\nwant %#v", got, err, want)
	}
	before := fake.Stats().Requests
	if again, err := c.CompanyProfile(ctx); err != nil || !reflect.DeepEqual(again, want) || fake.Stats().Requests != before {
		t.Errorf("again: %v, %d requests: the profile is kept for a while", err, fake.Stats().Requests-before)
	}

	// A subsidiary under a British root: the root's, whatever its id.
	_, c = companyClient(t, []netsuitetest.Subsidiary{
		{ID: 3, Name: "Fen UK", Parent: 7, Currency: 1},
		{ID: 7, Name: "Fen Holdings", LegalName: "Fen Holdings Ltd", Currency: 1,
			MainAddress: &netsuitetest.Address{Addr1: "1 Marsh Lane", City: "Ely", Zip: "CB7 4AA", Country: "GB"}},
	})
	got, err = c.CompanyProfile(ctx)
	want = company.Profile{Name: "Fen Holdings", LegalName: "Fen Holdings Ltd",
		Address: company.Address{Lines: []string{"1 Marsh Lane"}, City: "Ely", PostalCode: "CB7 4AA", Country: "GB"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("root 7: %#v, %v\nwant %#v", got, err, want)
	}
}

// An account without subsidiaries keeps no company record: not in this
// account, asked of NetSuite no more than the currency tables.
func TestCompanyProfileWithoutSubsidiaries(t *testing.T) {
	_, c := companyClient(t, []netsuitetest.Subsidiary{})
	if _, err := c.CompanyProfile(context.Background()); !erp.IsNotInAccount(err) {
		t.Errorf("err = %v, want not in this account", err)
	}
}
