package portal

import "regexp"

// TenantID identifies one company: its identity-service tenant, its ERP
// connection and all of its rows. The zero value is not a valid tenant.
type TenantID string

var tenantPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// ParseTenantID validates s as a tenant id: 1–63 lower-case letters, digits
// or hyphens, starting with a letter or digit (the identity service's rules).
func ParseTenantID(s string) (TenantID, error) {
	if !tenantPattern.MatchString(s) {
		return "", Errorf(CodeInvalid, "%q is not a valid tenant id", s)
	}
	return TenantID(s), nil
}
