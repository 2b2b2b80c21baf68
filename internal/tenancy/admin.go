package tenancy

import (
	"context"
	"io/fs"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

// The operator's use cases on the deployment's companies (issue 39):
// `portico tenants …` and the operator API (/operator/v1/tenants) both
// call Admin, so what is checked before a tenant is added, changed,
// exported, imported or deleted is checked once, here, with the same
// words.

// AdminStore is what Admin needs from the database (sqlstore.Store).
type AdminStore interface {
	Directory
	AddTenant(ctx context.Context, t Tenant) error
	ChangeTenantHosts(ctx context.Context, id portal.TenantID, add, remove []string) error
	SetTenantSuspended(ctx context.Context, id portal.TenantID, suspended bool, at time.Time) error
	SetTenantEnvironment(ctx context.Context, id portal.TenantID, environment string) error
	ExportTenant(ctx context.Context, id portal.TenantID, to Sink) (ExportSummary, error)
	ImportTenant(ctx context.Context, from fs.FS, o ImportOptions) (ImportSummary, error)
	DeleteTenant(ctx context.Context, id portal.TenantID) (DeleteSummary, error)
	DeleteTenantData(ctx context.Context, id portal.TenantID) (DeleteSummary, error)
}

// Admin runs the operator's use cases against a store. Default is the
// deployment's default tenant (PORTICO_DEFAULT_TENANT): the one that may
// have no host of its own, and that cannot be deleted.
type Admin struct {
	Store   AdminStore
	Default portal.TenantID
	// Placed reports whether a tenant's data lives in a database of its
	// own (PORTICO_TENANT_DATABASES) rather than Store's; nil: none does.
	Placed func(portal.TenantID) bool
	// Now is the clock of suspensions; nil is time.Now.
	Now func() time.Time
}

// ParseID is s as a tenant id, or a CodeInvalid error that says what an
// id looks like.
func ParseID(s string) (portal.TenantID, error) {
	id, err := portal.ParseTenantID(s)
	if err != nil {
		return "", portal.Errorf(portal.CodeInvalid, "%q is not a tenant ID: use 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit", s)
	}
	return id, nil
}

// List is every tenant of the deployment, by id (Store.Tenants).
func (a *Admin) List(ctx context.Context) ([]Tenant, error) {
	return a.Store.Tenants(ctx)
}

// Find is tenant id as the store has it now; an unknown one is a
// CodeNotFound error.
func (a *Admin) Find(ctx context.Context, id portal.TenantID) (Tenant, error) {
	tenants, err := a.Store.Tenants(ctx)
	if err != nil {
		return Tenant{}, err
	}
	for _, t := range tenants {
		if t.ID == id {
			return t, nil
		}
	}
	return Tenant{}, portal.Errorf(portal.CodeNotFound, "there is no tenant %s", id)
}

// Add creates tenant t and returns it as stored. It needs a name, and at
// least one host unless it is the default tenant (with several tenants,
// a tenant without a host is reached at no address): else a CodeInvalid
// error saying what to give. The store's rules follow (AddTenant: a taken
// id or host is a CodeConflict error).
func (a *Admin) Add(ctx context.Context, t Tenant) (Tenant, error) {
	if strings.TrimSpace(t.Name) == "" {
		return Tenant{}, portal.Invalid("give the company's name", portal.FieldError{Field: "name", Message: "Required."})
	}
	if len(t.Hosts) == 0 && t.ID != a.Default {
		msg := "give at least one host name it answers at (such as portal." + string(t.ID) + ".example): with several tenants, a tenant without one is reached at no address"
		return Tenant{}, portal.Invalid(msg, portal.FieldError{Field: "hosts", Message: "At least one, but for the default tenant."})
	}
	t.Suspended, t.CreatedAt = false, time.Time{}
	if err := a.Store.AddTenant(ctx, t); err != nil {
		return Tenant{}, err
	}
	return a.Find(ctx, t.ID)
}

// SetSuspended suspends tenant id (sign-in, sessions and sync stop; its
// data stays) or resumes it, and returns it as stored.
func (a *Admin) SetSuspended(ctx context.Context, id portal.TenantID, suspended bool) (Tenant, error) {
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	if err := a.Store.SetTenantSuspended(ctx, id, suspended, now()); err != nil {
		return Tenant{}, err
	}
	return a.Find(ctx, id)
}

// SetEnvironment sets tenant id's environment badge (Sandbox, Training;
// "" for the deployment's PORTICO_ENVIRONMENT) and returns it as stored.
func (a *Admin) SetEnvironment(ctx context.Context, id portal.TenantID, environment string) (Tenant, error) {
	if err := a.Store.SetTenantEnvironment(ctx, id, environment); err != nil {
		return Tenant{}, err
	}
	return a.Find(ctx, id)
}

// ChangeHosts adds and removes host names of tenant id in one change and
// returns it as stored. Neither is a CodeInvalid error.
func (a *Admin) ChangeHosts(ctx context.Context, id portal.TenantID, add, remove []string) (Tenant, error) {
	if len(add)+len(remove) == 0 {
		return Tenant{}, portal.Invalid("give a host name to add or one to remove", portal.FieldError{Field: "add", Message: "Give add or remove."})
	}
	if err := a.Store.ChangeTenantHosts(ctx, id, add, remove); err != nil {
		return Tenant{}, err
	}
	return a.Find(ctx, id)
}

// Export writes everything of tenant id that an export holds to the sink
// (see sqlstore.ExportTenant for what that is, and what it never holds).
func (a *Admin) Export(ctx context.Context, id portal.TenantID, to Sink) (ExportSummary, error) {
	if _, err := a.Find(ctx, id); err != nil {
		return ExportSummary{}, err
	}
	return a.Store.ExportTenant(ctx, id, to)
}

// Import re-creates a tenant from an export: under its own id, or o.As;
// at its own hosts, or o.Hosts. Like Add, a tenant other than the default
// needs a host. A tenant of that id the deployment has already is a
// CodeConflict error (delete it first, or import it as another id);
// nothing is changed unless all of the export is imported.
func (a *Admin) Import(ctx context.Context, from fs.FS, o ImportOptions) (ImportSummary, error) {
	h, err := ReadHeader(from)
	if err != nil {
		return ImportSummary{}, err
	}
	id, hosts := h.ID, h.Hosts
	if o.As != "" {
		id = o.As
	}
	if len(o.Hosts) > 0 {
		hosts = o.Hosts
	}
	if len(hosts) == 0 && id != a.Default {
		msg := "give at least one host name it answers at (such as portal." + string(id) + ".example): the export has none, and with several tenants a tenant without one is reached at no address"
		return ImportSummary{}, portal.Invalid(msg, portal.FieldError{Field: "hosts", Message: "At least one, but for the default tenant."})
	}
	if _, err := a.Find(ctx, id); err == nil {
		return ImportSummary{}, portal.Errorf(portal.CodeConflict,
			"tenant %s exists: delete it first (after exporting it, if it is not the same), or import the export as another tenant", id)
	} else if !portal.IsNotFound(err) {
		return ImportSummary{}, err
	}
	return a.Store.ImportTenant(ctx, from, o)
}

// Delete removes tenant id and every row of its data, in one
// transaction, and says how many rows of what went. confirm must be the
// id itself (a CodeInvalid error otherwise: nothing is deleted on a
// guess), and the deployment's default tenant is refused
// (CodeForbidden): the server would serve an empty company at every
// address of its own.
func (a *Admin) Delete(ctx context.Context, id portal.TenantID, confirm string) (DeleteSummary, error) {
	if err := confirmed(id, confirm, "deleting tenant "+string(id)+" removes all its data for good", ", after exporting it if you may want it back"); err != nil {
		return DeleteSummary{}, err
	}
	if id == a.Default {
		return DeleteSummary{}, portal.Errorf(portal.CodeForbidden,
			"tenant %s is the deployment's default tenant (PORTICO_DEFAULT_TENANT): it cannot be deleted; make another tenant the default first", id)
	}
	if _, err := a.Find(ctx, id); err != nil {
		return DeleteSummary{}, err
	}
	return a.Store.DeleteTenant(ctx, id)
}

// DeleteLeftBehind removes what tenant id left in the main database
// (Store) when it was placed in a database of its own: every row of its
// data there, which is no longer read, in one transaction. Its directory
// entry stays (name, hosts, suspension, NetSuite connection: the main
// database's, which the deployment reads). confirm must be the id, as for
// Delete; a tenant not placed elsewhere is refused (CodeConflict): its
// data in the main database is the data it is served from.
func (a *Admin) DeleteLeftBehind(ctx context.Context, id portal.TenantID, confirm string) (DeleteSummary, error) {
	if err := confirmed(id, confirm, "deleting what tenant "+string(id)+" left in the main database removes it for good", ""); err != nil {
		return DeleteSummary{}, err
	}
	if _, err := a.Find(ctx, id); err != nil {
		return DeleteSummary{}, err
	}
	if a.Placed == nil || !a.Placed(id) {
		return DeleteSummary{}, portal.Errorf(portal.CodeConflict,
			"tenant %s is served from the main database (PORTICO_TENANT_DATABASES does not place it elsewhere): its data there is not left behind", id)
	}
	return a.Store.DeleteTenantData(ctx, id)
}

// confirmed is nil when confirm is id, else the CodeInvalid error that
// says what a deletion does and asks for the id: "<what>: confirm with its
// ID (<id>)<advice>".
func confirmed(id portal.TenantID, confirm, what, advice string) error {
	if confirm == string(id) {
		return nil
	}
	return portal.Invalid(what+": confirm with its ID ("+string(id)+")"+advice,
		portal.FieldError{Field: "confirm", Message: "Must be the tenant's ID."})
}
