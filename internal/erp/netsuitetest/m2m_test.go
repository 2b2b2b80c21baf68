package netsuitetest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

// m2mServer is a fake that accepts OAuth 2.0 client credentials, and an
// M2M authorizer that gets its tokens from it.
func m2mServer(t testing.TB, fake func(netsuitetest.Config) *netsuitetest.Server) (*httptest.Server, *netsuite.M2M) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	v := &netsuitetest.M2MVerifier{}
	if err := v.Register("client-id", "cert-id", &key.PublicKey); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake(netsuitetest.Config{M2M: v}))
	t.Cleanup(srv.Close)
	return srv, &netsuite.M2M{TokenURL: srv.URL + netsuitetest.TokenPath, ClientID: "client-id", CertID: "cert-id",
		Key: key, HTTP: srv.Client()}
}

func TestM2MBearer(t *testing.T) {
	var fake *netsuitetest.Server
	srv, auth := m2mServer(t, func(cfg netsuitetest.Config) *netsuitetest.Server {
		var err error
		if fake, err = netsuitetest.New(cfg); err != nil {
			t.Fatal(err)
		}
		return fake
	})
	if _, err := fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyname": "Token Holder"}}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second request reuses the cached token
		req, _ := http.NewRequest("GET", srv.URL+netsuitetest.RecordPath+"customer/1", nil)
		if err := auth.Authorize(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("with a bearer token: %d", resp.StatusCode)
		}
	}
	// TBA is not configured: an OAuth header is refused.
	req, _ := http.NewRequest("GET", srv.URL+netsuitetest.RecordPath+"customer/1", nil)
	tba := netsuite.TBA{Account: account, ConsumerKey: "k", ConsumerSecret: "s", TokenID: "t", TokenSecret: "s"}
	if err := tba.Authorize(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("TBA on an M2M-only account: %d", resp.StatusCode)
	}
}
