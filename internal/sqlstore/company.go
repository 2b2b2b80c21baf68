package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/portal"
)

var (
	// A tenant without a profile reads as its name alone.
	getCompany = scope(`SELECT COALESCE(NULLIF(p.name, ''), t.name), COALESCE(p.legal_name, ''), COALESCE(p.address_lines, ''),
		COALESCE(p.city, ''), COALESCE(p.region, ''), COALESCE(p.postal_code, ''), COALESCE(p.country, ''),
		COALESCE(p.phone, ''), COALESCE(p.email, ''), COALESCE(p.tax_id, '')
		FROM tenants t LEFT JOIN company_profiles p ON p.tenant_id = t.id WHERE t.id = :tenant`)
	companyColumns = `(tenant_id, name, legal_name, address_lines, city, region, postal_code, country, phone, email, tax_id, updated_at)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	// An unchanged profile writes nothing (the sync sets it on every pull).
	setCompany = scope(`INSERT INTO company_profiles ` + companyColumns + `
		ON CONFLICT (tenant_id) DO UPDATE SET name = excluded.name, legal_name = excluded.legal_name,
			address_lines = excluded.address_lines, city = excluded.city, region = excluded.region,
			postal_code = excluded.postal_code, country = excluded.country, phone = excluded.phone,
			email = excluded.email, tax_id = excluded.tax_id, updated_at = excluded.updated_at
		WHERE company_profiles.name <> excluded.name OR company_profiles.legal_name <> excluded.legal_name
			OR company_profiles.address_lines <> excluded.address_lines OR company_profiles.city <> excluded.city
			OR company_profiles.region <> excluded.region OR company_profiles.postal_code <> excluded.postal_code
			OR company_profiles.country <> excluded.country OR company_profiles.phone <> excluded.phone
			OR company_profiles.email <> excluded.email OR company_profiles.tax_id <> excluded.tax_id`)
	ensureCompany = scope(`INSERT INTO company_profiles ` + companyColumns + ` ON CONFLICT (tenant_id) DO NOTHING`)
)

// Company returns the tenant's company profile, cleaned (company.Profile.Clean).
// A tenant for which none was stored reads as its name (the tenant's display
// name) with nothing else; a tenant that does not exist is a not-found error.
func (t *Tenant) Company(ctx context.Context) (company.Profile, error) {
	var p company.Profile
	var lines string
	a := &p.Address
	err := t.queryRow(ctx, getCompany).Scan(&p.Name, &p.LegalName, &lines, &a.City, &a.Region, &a.PostalCode, &a.Country,
		&p.Phone, &p.Email, &p.TaxID)
	if errors.Is(err, sql.ErrNoRows) {
		return p, portal.Errorf(portal.CodeNotFound, "No such company.")
	}
	if err != nil {
		return p, fmt.Errorf("read the company profile: %w", err)
	}
	if lines != "" {
		a.Lines = strings.Split(lines, "\n")
	}
	return p.Clean(), nil
}

// SetCompany stores the tenant's company profile as p.Clean() leaves it,
// replacing the one it had; an unchanged profile writes nothing. A profile
// whose name is empty keeps the rest and reads with the tenant's name.
func (t *Tenant) SetCompany(ctx context.Context, p company.Profile) error {
	if _, err := t.exec(ctx, setCompany, companyArgs(p)...); err != nil {
		return fmt.Errorf("store the company profile: %w", err)
	}
	return nil
}

// EnsureCompany stores p as the tenant's company profile when the tenant
// has none yet, and otherwise leaves the stored one as it is (`portico
// seed` gives the demo company its profile this way, also to a database
// seeded before profiles existed).
func (t *Tenant) EnsureCompany(ctx context.Context, p company.Profile) error {
	if _, err := t.exec(ctx, ensureCompany, companyArgs(p)...); err != nil {
		return fmt.Errorf("store the company profile: %w", err)
	}
	return nil
}

// companyArgs are the values of a profile's row, cleaned, after the tenant.
func companyArgs(p company.Profile) []any {
	p = p.Clean()
	a := p.Address
	return []any{p.Name, p.LegalName, strings.Join(a.Lines, "\n"), a.City, a.Region, a.PostalCode, a.Country,
		p.Phone, p.Email, p.TaxID, time.Now().UnixMilli()}
}
