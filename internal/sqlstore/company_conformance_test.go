package sqlstore

import (
	"context"
	"reflect"
	"testing"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/portal"
)

func TestConformanceCompanyProfile(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		acme := seedTenant(t, s, "acme")
		other := seedTenant(t, s, "other")

		// None stored: the tenant's name alone.
		got, err := acme.Company(ctx)
		if want := (company.Profile{Name: "acme", Address: company.Address{Lines: []string{}}}); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("no profile: %#v, %v; want %#v", got, err, want)
		}

		p := company.Profile{
			Name: "Acme Water", LegalName: "Acme Water Services, Inc.",
			Address: company.Address{Lines: []string{"1200 Willamette St", " Suite 300 "}, City: "Eugene", Region: "OR", PostalCode: "97401", Country: "US"},
			Phone:   "(541) 555-0100", Email: "billing@acme.example", TaxID: "93-1234567",
		}
		if err := acme.SetCompany(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err = acme.Company(ctx)
		if err != nil || !reflect.DeepEqual(got, p.Clean()) {
			t.Fatalf("stored: %#v, %v; want %#v", got, err, p.Clean())
		}
		if got.Address.Lines[1] != "Suite 300" {
			t.Errorf("lines are stored cleaned: %q", got.Address.Lines)
		}

		// Another tenant sees nothing of it.
		if o, err := other.Company(ctx); err != nil || o.Name != "other" || !o.Address.IsZero() {
			t.Errorf("other tenant: %#v, %v", o, err)
		}

		// EnsureCompany leaves a stored profile alone, and gives one to a
		// tenant without.
		if err := acme.EnsureCompany(ctx, company.Profile{Name: "Demo"}); err != nil {
			t.Fatal(err)
		}
		if got, _ := acme.Company(ctx); got.Name != "Acme Water" {
			t.Errorf("EnsureCompany replaced a stored profile: %#v", got)
		}
		if err := other.EnsureCompany(ctx, company.Profile{Name: "Other Co", Address: company.Address{City: "Bend"}}); err != nil {
			t.Fatal(err)
		}
		if got, _ := other.Company(ctx); got.Name != "Other Co" || got.Address.City != "Bend" {
			t.Errorf("EnsureCompany on a tenant without: %#v", got)
		}

		// A replacement replaces every value; an empty name reads as the
		// tenant's.
		if err := acme.SetCompany(ctx, company.Profile{Address: company.Address{Lines: []string{"PO Box 7"}}}); err != nil {
			t.Fatal(err)
		}
		got, _ = acme.Company(ctx)
		if want := (company.Profile{Name: "acme", Address: company.Address{Lines: []string{"PO Box 7"}}}); !reflect.DeepEqual(got, want) {
			t.Errorf("replaced: %#v, want %#v", got, want)
		}

		// A tenant that does not exist is not found.
		if _, err := s.Tenant("nobody").Company(ctx); !portal.IsNotFound(err) {
			t.Errorf("unknown tenant: %v, want not found", err)
		}
	})
}
