// Package erpconn keeps each tenant's NetSuite connection in the
// database (issue 39): its settings and mapping in clear, its credentials
// sealed (package secretbox) with keys the database never holds. The
// servers and the sync read every tenant's connection from it; only
// `portico netsuite connect` writes one.
package erpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/secretbox"
)

// Connection is one tenant's NetSuite account.
type Connection struct {
	Tenant portal.TenantID
	// NetSuite are its settings and credentials, as PORTICO_NETSUITE_*
	// give them for one account (PrivateKeyFile and MappingFile play no
	// part: the key and the mapping are kept themselves; SyncInterval is
	// the deployment's, not kept).
	NetSuite config.NetSuite
	// PrivateKey is the M2M certificate's private key (PEM).
	PrivateKey []byte
	// Mapping is the account's mapping (YAML); nil is the shipped one.
	Mapping   []byte
	UpdatedAt time.Time
	// Key names the key its credentials were sealed with.
	Key string
}

// Stored is a connection as the database keeps it.
type Stored struct {
	Tenant    portal.TenantID
	Settings  string // JSON of settings
	Mapping   string // YAML; "" for the shipped one
	Secrets   string // sealed JSON of secrets
	UpdatedAt time.Time
}

// Store keeps the stored connections, one per tenant.
type Store interface {
	// PutERPConnection adds or replaces the tenant's connection (a
	// not-found error when there is no such tenant).
	PutERPConnection(ctx context.Context, c Stored) error
	// ERPConnections lists every tenant's, ordered by tenant.
	ERPConnections(ctx context.Context) ([]Stored, error)
	// DeleteERPConnection removes the tenant's (none is no error).
	DeleteERPConnection(ctx context.Context, tenant portal.TenantID) error
}

// settings are what is kept in clear.
type settings struct {
	Account       string `json:"account"`
	BaseURL       string `json:"baseURL,omitempty"`
	Auth          string `json:"auth"`
	Concurrency   int    `json:"concurrency"`
	ClientID      string `json:"clientId,omitempty"`
	CertificateID string `json:"certificateId,omitempty"`
	RESTletScript string `json:"restletScript,omitempty"`
	RESTletDeploy string `json:"restletDeploy,omitempty"`
}

// secrets are what is sealed.
type secrets struct {
	ConsumerKey    string `json:"consumerKey,omitempty"`
	ConsumerSecret string `json:"consumerSecret,omitempty"`
	TokenID        string `json:"tokenId,omitempty"`
	TokenSecret    string `json:"tokenSecret,omitempty"`
	PrivateKey     string `json:"privateKey,omitempty"`
}

// sealContext binds a tenant's sealed credentials to it.
func sealContext(t portal.TenantID) string { return "erp_connections:" + string(t) }

// Save seals c's credentials with keys' current key and keeps c as the
// tenant's connection. It refuses when no key is configured.
func Save(ctx context.Context, st Store, keys secretbox.Keys, c Connection) error {
	n := c.NetSuite
	set, _ := json.Marshal(settings{Account: n.Account, BaseURL: n.BaseURL, Auth: n.Auth, Concurrency: n.Concurrency,
		ClientID: n.ClientID, CertificateID: n.CertificateID, RESTletScript: n.RESTletScript, RESTletDeploy: n.RESTletDeploy})
	sec, _ := json.Marshal(secrets{ConsumerKey: n.ConsumerKey, ConsumerSecret: n.ConsumerSecret, TokenID: n.TokenID,
		TokenSecret: n.TokenSecret, PrivateKey: string(c.PrivateKey)})
	sealed, err := keys.Seal(sec, sealContext(c.Tenant))
	if err != nil {
		return err
	}
	at := c.UpdatedAt
	if at.IsZero() {
		at = time.Now()
	}
	return st.PutERPConnection(ctx, Stored{Tenant: c.Tenant, Settings: string(set), Mapping: string(c.Mapping), Secrets: sealed, UpdatedAt: at})
}

// Load reads every tenant's connection, its credentials opened with keys.
// A connection that does not open is an error naming its tenant.
func Load(ctx context.Context, st Store, keys secretbox.Keys) ([]Connection, error) {
	stored, err := st.ERPConnections(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Connection, 0, len(stored))
	for _, s := range stored {
		c, err := open(s, keys)
		if err != nil {
			return nil, fmt.Errorf("tenant %s's NetSuite connection: %w", s.Tenant, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Find is Load's connection of one tenant; ok is false when it has none.
func Find(ctx context.Context, st Store, keys secretbox.Keys, tenant portal.TenantID) (c Connection, ok bool, err error) {
	stored, err := st.ERPConnections(ctx)
	if err != nil {
		return c, false, err
	}
	for _, s := range stored {
		if s.Tenant == tenant {
			c, err := open(s, keys)
			if err != nil {
				return c, false, fmt.Errorf("tenant %s's NetSuite connection: %w", tenant, err)
			}
			return c, true, nil
		}
	}
	return c, false, nil
}

// Mappings are the tenants' mappings by tenant (nil: the shipped one),
// read without opening any credentials: what their kinds need.
func Mappings(ctx context.Context, st Store) (map[portal.TenantID][]byte, error) {
	stored, err := st.ERPConnections(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[portal.TenantID][]byte, len(stored))
	for _, s := range stored {
		out[s.Tenant] = mappingOf(s)
	}
	return out, nil
}

// Rekey seals again, with keys' current key, every connection sealed with
// another; it returns how many it sealed again.
func Rekey(ctx context.Context, st Store, keys secretbox.Keys) (int, error) {
	stored, err := st.ERPConnections(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range stored {
		if secretbox.KeyOf(s.Secrets) == keys.Current() {
			continue
		}
		plain, err := keys.Open(s.Secrets, sealContext(s.Tenant))
		if err != nil {
			return n, fmt.Errorf("tenant %s's NetSuite connection: %w", s.Tenant, err)
		}
		if s.Secrets, err = keys.Seal(plain, sealContext(s.Tenant)); err != nil {
			return n, err
		}
		if err := st.PutERPConnection(ctx, s); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func mappingOf(s Stored) []byte {
	if s.Mapping == "" {
		return nil
	}
	return []byte(s.Mapping)
}

// open is s with its credentials opened.
func open(s Stored, keys secretbox.Keys) (Connection, error) {
	var set settings
	var sec secrets
	if err := json.Unmarshal([]byte(s.Settings), &set); err != nil {
		return Connection{}, fmt.Errorf("its settings do not read: %w", err)
	}
	plain, err := keys.Open(s.Secrets, sealContext(s.Tenant))
	if err != nil {
		return Connection{}, err
	}
	if err := json.Unmarshal(plain, &sec); err != nil {
		return Connection{}, fmt.Errorf("its credentials do not read")
	}
	c := Connection{Tenant: s.Tenant, Mapping: mappingOf(s), UpdatedAt: s.UpdatedAt, Key: secretbox.KeyOf(s.Secrets),
		NetSuite: config.NetSuite{Account: set.Account, BaseURL: set.BaseURL, Auth: set.Auth, Concurrency: set.Concurrency,
			ClientID: set.ClientID, CertificateID: set.CertificateID, RESTletScript: set.RESTletScript, RESTletDeploy: set.RESTletDeploy,
			ConsumerKey: sec.ConsumerKey, ConsumerSecret: sec.ConsumerSecret, TokenID: sec.TokenID, TokenSecret: sec.TokenSecret}}
	if sec.PrivateKey != "" {
		c.PrivateKey = []byte(sec.PrivateKey)
	}
	return c, nil
}
