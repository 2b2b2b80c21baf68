// Package tenancy is the deployment's companies: the tenants it serves,
// the host names each answers at, and whether it is suspended; and which
// tenant a request's address picks (Map).
//
// With one tenant, every address serves it (the demo, `make run`). With
// several, a tenant answers at its own host names, the default tenant also
// at the deployment's loopback address and public URL, and any other host
// is no tenant's.
package tenancy

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/portico/portico/internal/portal"
)

// Tenant is one company on the deployment.
type Tenant struct {
	ID   portal.TenantID
	Name string
	// Hosts are the host names it answers at (normalised by ParseHost:
	// lower case, no port, no trailing dot).
	Hosts []string
	// IdentityTenant is the identity service's tenant its users sign in
	// to; "" means ID.
	IdentityTenant string
	// Suspended tenants keep their data; sign-in, sessions and sync stop.
	Suspended bool
	// Environment is the badge its app shows (Sandbox, Training); ""
	// is the deployment's (PORTICO_ENVIRONMENT).
	Environment string
	CreatedAt   time.Time
}

// SignInTenant is the identity service's tenant of t's users.
func (t Tenant) SignInTenant() string {
	if t.IdentityTenant != "" {
		return t.IdentityTenant
	}
	return string(t.ID)
}

// Directory lists the deployment's tenants (the database).
type Directory interface {
	Tenants(ctx context.Context) ([]Tenant, error)
}

// ParseHost normalises a host name for the map: lower case, without a
// port or a trailing dot. It refuses what is not a host name or an IP
// address.
func ParseHost(s string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(s))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if h == "" || len(h) > 253 {
		return "", portal.Errorf(portal.CodeInvalid, "%q is not a host name", s)
	}
	if net.ParseIP(h) != nil {
		return h, nil
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return "", portal.Errorf(portal.CodeInvalid, "%q is not a host name", s)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return "", portal.Errorf(portal.CodeInvalid, "%q is not a host name", s)
			}
		}
	}
	return h, nil
}

// Map answers which tenant a request's host is: built from the tenants
// at one moment, read-only after.
type Map struct {
	single  *Tenant // the one tenant, when there is exactly one
	byHost  map[string]Tenant
	tenants map[portal.TenantID]Tenant
}

// NewMap builds the map of tenants. defaultID is the deployment's default
// tenant; defaultHosts (its loopback and public URL's hosts) answer for it
// besides its own, once there are several tenants. A host two tenants
// claim goes to neither (the operator is told by `tenants list`).
func NewMap(tenants []Tenant, defaultID portal.TenantID, defaultHosts []string) *Map {
	m := &Map{byHost: map[string]Tenant{}, tenants: map[portal.TenantID]Tenant{}}
	if len(tenants) == 1 {
		m.single = &tenants[0]
	}
	claimed := map[string]int{}
	for _, t := range tenants {
		m.tenants[t.ID] = t
		hosts := t.Hosts
		if t.ID == defaultID {
			hosts = append(append([]string(nil), hosts...), defaultHosts...)
		}
		for _, h := range hosts {
			if h, err := ParseHost(h); err == nil {
				if _, ok := m.byHost[h]; ok && m.byHost[h].ID != t.ID {
					claimed[h]++
				}
				m.byHost[h] = t
			}
		}
	}
	for h := range claimed {
		delete(m.byHost, h)
	}
	return m
}

// ForHost is the tenant that serves host (a Host header, port and all);
// false when none does.
func (m *Map) ForHost(host string) (Tenant, bool) {
	if m.single != nil {
		return *m.single, true
	}
	h, err := ParseHost(host)
	if err != nil {
		return Tenant{}, false
	}
	t, ok := m.byHost[h]
	return t, ok
}

// Several reports whether the map has more than one tenant (then each
// answers at its own addresses).
func (m *Map) Several() bool { return m.single == nil }

// Tenant is the tenant with id, if the deployment has it.
func (m *Map) Tenant(id portal.TenantID) (Tenant, bool) {
	t, ok := m.tenants[id]
	return t, ok
}

// MaxEnvironment is the longest environment badge, in characters.
const MaxEnvironment = 24

// ParseEnvironment is an environment badge as kept: trimmed, on one line,
// at most MaxEnvironment characters ("" for the deployment's); else a
// CodeInvalid error.
func ParseEnvironment(s string) (string, error) {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxEnvironment || strings.ContainsFunc(s, unicode.IsControl) {
		return "", portal.Invalid(fmt.Sprintf("an environment badge is one line of at most %d characters, such as Sandbox", MaxEnvironment),
			portal.FieldError{Field: "environment", Message: "At most 24 characters, one line."})
	}
	return s, nil
}
