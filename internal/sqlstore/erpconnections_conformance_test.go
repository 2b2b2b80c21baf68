package sqlstore

import (
	"context"
	"strings"
	"testing"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/erpconn"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/secretbox"
)

// A tenant's NetSuite connection is kept with its credentials unreadable
// in the database, opens with the key, only for its tenant, and survives
// a key rotation; on both engines.
func TestConformanceERPConnections(t *testing.T) {
	oldKey, newKey := secretbox.NewKey(), secretbox.NewKey()
	keys, _ := secretbox.ParseKeys(oldKey)
	const (
		tokenSecret = "tba-token-secret-9f2c41"
		privateKey  = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC-secret-body\n-----END PRIVATE KEY-----\n"
	)
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		seedTenant(t, s, "acme")
		seedTenant(t, s, "kestrel")
		c := erpconn.Connection{Tenant: "acme", PrivateKey: []byte(privateKey), Mapping: []byte("timezone: America/Denver\n"),
			NetSuite: config.NetSuite{Account: "1234567_SB1", Auth: "tba", Concurrency: 4, ConsumerKey: "ck-1", ConsumerSecret: "cs-secret-77",
				TokenID: "tid-1", TokenSecret: tokenSecret}}
		if err := erpconn.Save(ctx, s, keys, c); err != nil {
			t.Fatal(err)
		}
		if err := erpconn.Save(ctx, s, keys, erpconn.Connection{Tenant: "nobody", NetSuite: c.NetSuite}); portal.ErrorCode(err) != portal.CodeNotFound {
			t.Errorf("a connection of no tenant: %v", err)
		}
		if err := erpconn.Save(ctx, s, secretbox.Keys{}, c); err != secretbox.ErrNoKey {
			t.Errorf("saved without a key: %v", err)
		}
		// What the database holds: the settings, never a credential.
		var raw strings.Builder
		rows, err := s.db.QueryContext(ctx, `SELECT tenant_id, settings, mapping, secrets FROM erp_connections`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a, b, c, d string
			if err := rows.Scan(&a, &b, &c, &d); err != nil {
				t.Fatal(err)
			}
			raw.WriteString(a + b + c + d)
		}
		rows.Close()
		for _, secret := range []string{tokenSecret, "cs-secret-77", "ck-1", "tid-1", "secret-body"} {
			if strings.Contains(raw.String(), secret) {
				t.Errorf("the database holds %q in clear", secret)
			}
		}
		if !strings.Contains(raw.String(), "1234567_SB1") {
			t.Error("the account id is not kept in clear")
		}
		got, ok, err := erpconn.Find(ctx, s, keys, "acme")
		if err != nil || !ok || got.NetSuite.TokenSecret != tokenSecret || string(got.PrivateKey) != privateKey ||
			got.NetSuite.Concurrency != 4 || string(got.Mapping) != "timezone: America/Denver\n" {
			t.Fatalf("%+v, %v, %v", got, ok, err)
		}
		if _, ok, err := erpconn.Find(ctx, s, keys, "kestrel"); ok || err != nil {
			t.Errorf("kestrel has a connection: %v", err)
		}
		// Sealed for acme, the credentials do not open as kestrel's.
		if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO erp_connections (tenant_id, settings, mapping, secrets, updated_at)
			SELECT 'kestrel', settings, mapping, secrets, updated_at FROM erp_connections WHERE tenant_id = ?`), "acme"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := erpconn.Find(ctx, s, keys, "kestrel"); err == nil {
			t.Error("acme's credentials opened as kestrel's")
		}
		if err := s.DeleteERPConnection(ctx, "kestrel"); err != nil {
			t.Fatal(err)
		}
		// Rotation: the new key in front seals everything again; then the
		// old key may go.
		rotated, _ := secretbox.ParseKeys(newKey + "," + oldKey)
		if n, err := erpconn.Rekey(ctx, s, rotated); err != nil || n != 1 {
			t.Fatalf("rekey: %d, %v", n, err)
		}
		if n, err := erpconn.Rekey(ctx, s, rotated); err != nil || n != 0 {
			t.Fatalf("rekey again: %d, %v", n, err)
		}
		onlyNew, _ := secretbox.ParseKeys(newKey)
		if got, err := erpconn.Load(ctx, s, onlyNew); err != nil || len(got) != 1 || got[0].NetSuite.TokenSecret != tokenSecret {
			t.Fatalf("after rotation: %+v, %v", got, err)
		}
		if _, err := erpconn.Load(ctx, s, keys); err == nil || strings.Contains(err.Error(), tokenSecret) {
			t.Errorf("the old key alone: %v", err)
		}
		if m, err := erpconn.Mappings(ctx, s); err != nil || string(m["acme"]) != "timezone: America/Denver\n" {
			t.Errorf("mappings: %v, %v", m, err)
		}
	})
}
