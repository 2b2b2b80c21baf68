package erpsync_test

import (
	"context"
	"testing"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/sqlstore"
)

// A pull stores the account's company (its root subsidiary) as the
// tenant's letterhead; an account without subsidiaries leaves the stored
// one as it is. (One owner for both engines: the second takes the lease
// the first still holds.)
func TestPullStoresTheCompanyProfile(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a := newAccount(t, 2)
		if err := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{Now: a.clock.Now, Owner: "company-test"}).Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		p, err := ten.Company(ctx)
		if err != nil || p.Letterhead() != "Riverbend Ecological Services, LLC" || p.TaxID != "93-4416207" ||
			p.Address.City != "Eugene" || len(p.Address.Lines) != 2 || p.Address.Lines[0] != "2140 Riverbend Way" {
			t.Fatalf("the company after a pull: %#v, %v", p, err)
		}

		sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
		if err != nil {
			t.Fatal(err)
		}
		sc.Subsidiaries = nil
		lean := newAccountWith(t, 0, sc, netsuite.DefaultMapping)
		if err := ten.SetCompany(ctx, company.Profile{Name: "Given", Address: company.Address{City: "Bend"}}); err != nil {
			t.Fatal(err)
		}
		if err := erpsync.New(lean.connector(t, 1000), ten, erpsync.Options{Now: lean.clock.Now, Owner: "company-test"}).Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		if p, err := ten.Company(ctx); err != nil || p.Name != "Given" || p.Address.City != "Bend" {
			t.Errorf("an account without a company replaced the stored one: %#v, %v", p, err)
		}
	})
}
