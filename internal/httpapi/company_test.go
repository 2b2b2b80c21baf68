package httpapi

import (
	"context"
	"reflect"
	"testing"

	"github.com/portico/portico/internal/company"
)

func TestCompanyProfileForSignedInUsers(t *testing.T) {
	e := newAuthEnv(t, 1000)
	ada, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	gus, _ := e.login(t, "globex", "uid-gus", "gus@globex.test")

	// None stored yet: the tenant's name.
	var got struct{ Data company.Profile }
	if code := e.getJSON(t, ada.Data.Token, 11, "/api/v1/company", &got); code != 200 || got.Data.Name != "acme" || !got.Data.Address.IsZero() {
		t.Fatalf("no profile: %d %+v", code, got.Data)
	}

	p := company.Profile{
		Name: "Acme Water", LegalName: "Acme Water Services, Inc.",
		Address: company.Address{Lines: []string{"1200 Willamette St", "Suite 300"}, City: "Eugene", Region: "OR", PostalCode: "97401", Country: "US"},
		Phone:   "(541) 555-0100", Email: "billing@acme.example", TaxID: "93-1234567",
	}
	if err := e.store.Tenant("acme").SetCompany(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	// Any role the user holds reads it (the accountant's sees invoices
	// alone), as the other tenant reads its own.
	for _, role := range []int64{10, 11} {
		got.Data = company.Profile{}
		if code := e.getJSON(t, ada.Data.Token, role, "/api/v1/company", &got); code != 200 || !reflect.DeepEqual(got.Data, p) {
			t.Errorf("role %d: %d %+v, want %+v", role, code, got.Data, p)
		}
	}
	got.Data = company.Profile{}
	if code := e.getJSON(t, gus.Data.Token, 10, "/api/v1/company", &got); code != 200 || got.Data.Name != "globex" || got.Data.Phone != "" {
		t.Errorf("other tenant: %d %+v", code, got.Data)
	}

	// Without a session it is refused, as every private route is.
	if w := e.call("GET", "/api/v1/company", "", 10, ""); w.Code != 511 {
		t.Errorf("without a token: %d %s", w.Code, w.Body)
	}
	if w := e.call("GET", "/api/v1/company", ada.Data.Token, 0, ""); w.Code != 403 {
		t.Errorf("without a role: %d %s", w.Code, w.Body)
	}
}
