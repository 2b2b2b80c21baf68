package access

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/portico/portico/internal/portal"
)

// PermAdmin lets a role administer the tenant's users, roles and menus
// in the app (the Administration pages): the same data, and the same
// import, as `portico roles export` and `import`.
const PermAdmin = "access.admin"

// ErrStale is the answer to a change made to a setup that another
// administrator has changed since it was read: the change is not made.
var ErrStale = portal.Errorf(portal.CodeStale,
	"Someone else changed the users, roles or menus since you opened them. Reload to see their change, then make yours again.")

// AdminStore is what administering a tenant's access needs from the
// database.
type AdminStore interface {
	ExportAccess(ctx context.Context) (File, error)
	// ReplaceAccess imports f as ImportAccess does (the same checks, the
	// same transaction, the same session event), provided the tenant's
	// setup is still the one whose Version is version when the
	// transaction holds it; else it changes nothing and answers ErrStale.
	// It returns the setup before and after.
	ReplaceAccess(ctx context.Context, f File, version string) (before, after File, err error)
}

// Setup is a tenant's access File with its version.
type Setup struct {
	File    File   `json:"file"`
	Version string `json:"version"`
}

// Version is an opaque name of a setup's content: it changes with every
// import that changes anything (a hash of the exported file, so it needs
// no column and sees the CLI's imports too).
func Version(f File) string {
	b, _ := json.Marshal(f)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:10])
}

// Current is the tenant's setup and its version.
func Current(ctx context.Context, st AdminStore) (Setup, error) {
	f, err := st.ExportAccess(ctx)
	if err != nil {
		return Setup{}, err
	}
	return Setup{File: f, Version: Version(f)}, nil
}

// RuleChecker checks roles' access rules against the record kinds
// (records.CheckRules); access cannot import records, which imports it.
type RuleChecker func([]Role) error

// Change is what a Replace did.
type Change struct {
	Setup   Setup
	Summary Summary
}

// Replace replaces the tenant's whole access setup with f, when it is
// still at version (else ErrStale: two administrators never overwrite
// each other unseen). It refuses, with every problem named (a 422 whose
// fields point into the file), a file that does not validate, a rule that
// cannot be applied, and a setup that would leave no enabled user holding
// a role with PermAdmin: an administrator cannot lock everyone out
// (operators still can, with `portico roles import`).
//
// A change takes effect at once: the import revokes the sessions of the
// users it disables or leaves without a role and logs a session event,
// so every open event stream of the tenant, on every instance, checks
// its session again straight away (a disabled user's open page is signed
// out); the instance that made the change drops the tenant's cached
// sessions; every other instance reads the user and roles anew once its
// session cache entry expires (PORTICO_SESSION_CACHE_TTL, 1 s by
// default). A change is therefore in force on every instance within a
// second (httpapi's TestAccessChangeReachesACachingInstanceWithinASecond
// measures it: 1.01 s for an entry cached just before the change).
func Replace(ctx context.Context, st AdminStore, f File, version string, check RuleChecker) (Change, error) {
	if strings.TrimSpace(version) == "" {
		return Change{}, portal.Errorf(portal.CodeInvalid, "Say which version of the setup you changed (If-Match).")
	}
	if problems := Problems(f, check); len(problems) > 0 {
		msg := fmt.Sprintf("The change was not saved: %d problems.", len(problems))
		if len(problems) == 1 {
			msg = "The change was not saved: " + problems[0].Message
		}
		return Change{}, &portal.Error{Code: portal.CodeUnprocessable, Message: msg, Fields: problems}
	}
	before, after, err := st.ReplaceAccess(ctx, f, version)
	if err != nil {
		return Change{}, err
	}
	return Change{Setup: Setup{File: after, Version: Version(after)}, Summary: Diff(before, after)}, nil
}

// Problems is everything wrong with f as a new setup made in the app,
// each with where it is: Validate's problems ("users[2]"), each rule's
// ("roles[1].rules.invoice.view") and the lock-out ("users").
func Problems(f File, check RuleChecker) []portal.FieldError {
	var out []portal.FieldError
	if err := f.Validate(); err != nil {
		_, lines, _ := strings.Cut(err.Error(), "\n")
		for line := range strings.Lines(lines) {
			field, msg, ok := strings.Cut(strings.TrimSpace(line), ": ")
			if !ok {
				field, msg = "file", strings.TrimSpace(line)
			}
			out = append(out, portal.FieldError{Field: field, Message: msg})
		}
	}
	if check != nil {
		for i, r := range f.Roles {
			for _, perm := range slices.Sorted(maps.Keys(r.Rules)) {
				one := Role{ID: r.ID, Name: r.Name, Rules: map[string]string{perm: r.Rules[perm]}}
				if err := check([]Role{one}); err != nil {
					msg := err.Error()
					if pe, ok := errors.AsType[*portal.Error](err); ok {
						msg = pe.Message
					}
					msg = strings.TrimPrefix(msg, fmt.Sprintf("role %d (%s), rule on %s: ", r.ID, r.Name, perm))
					out = append(out, portal.FieldError{Field: fmt.Sprintf("roles[%d].rules.%s", i, perm), Message: msg})
				}
			}
		}
	}
	if !HasAdmin(f) {
		out = append(out, portal.FieldError{Field: "users", Message: "No enabled user would hold a role with " + PermAdmin +
			": nobody could manage users, roles and menus any more. Keep at least one administrator."})
	}
	return out
}

// HasAdmin reports whether an enabled user of f holds a role with
// PermAdmin.
func HasAdmin(f File) bool {
	admin := map[int64]bool{}
	for _, r := range f.Roles {
		if r.Can(PermAdmin) {
			admin[r.ID] = true
		}
	}
	for _, u := range f.Users {
		if !u.Disabled && slices.ContainsFunc(u.Roles, func(id int64) bool { return admin[id] }) {
			return true
		}
	}
	return false
}

// Summary is what an import changed, for the audit log: users by email,
// roles by name, layouts by id.
type Summary struct {
	UsersAdded     []string `json:"usersAdded,omitempty"`
	UsersDisabled  []string `json:"usersDisabled,omitempty"`
	UsersEnabled   []string `json:"usersEnabled,omitempty"`
	Granted        []string `json:"granted,omitempty"` // "email: role"
	Revoked        []string `json:"revoked,omitempty"`
	RolesAdded     []string `json:"rolesAdded,omitempty"`
	RolesRemoved   []string `json:"rolesRemoved,omitempty"`
	RolesChanged   []string `json:"rolesChanged,omitempty"` // name, permissions, rules, layout or type
	LayoutsChanged []string `json:"layoutsChanged,omitempty"`
}

// Diff is what changed from before to after.
func Diff(before, after File) Summary {
	var s Summary
	roleName := map[int64]string{}
	oldRoles := map[int64]Role{}
	for _, r := range before.Roles {
		roleName[r.ID], oldRoles[r.ID] = r.Name, r
	}
	newRoles := map[int64]bool{}
	for _, r := range after.Roles {
		roleName[r.ID], newRoles[r.ID] = r.Name, true
		old, ok := oldRoles[r.ID]
		switch {
		case !ok:
			s.RolesAdded = append(s.RolesAdded, r.Name)
		case !sameJSON(old, r):
			s.RolesChanged = append(s.RolesChanged, r.Name)
		}
	}
	for _, r := range before.Roles {
		if !newRoles[r.ID] {
			s.RolesRemoved = append(s.RolesRemoved, r.Name)
		}
	}
	oldUsers := map[int64]FileUser{}
	for _, u := range before.Users {
		oldUsers[u.ID] = u
	}
	for _, u := range after.Users {
		old, ok := oldUsers[u.ID]
		switch {
		case !ok:
			s.UsersAdded = append(s.UsersAdded, u.Email)
		case u.Disabled && !old.Disabled:
			s.UsersDisabled = append(s.UsersDisabled, u.Email)
		case !u.Disabled && old.Disabled:
			s.UsersEnabled = append(s.UsersEnabled, u.Email)
		}
		for _, id := range u.Roles {
			if !slices.Contains(old.Roles, id) {
				s.Granted = append(s.Granted, u.Email+": "+roleName[id])
			}
		}
		for _, id := range old.Roles {
			if !slices.Contains(u.Roles, id) {
				s.Revoked = append(s.Revoked, u.Email+": "+roleName[id])
			}
		}
	}
	oldLayouts := map[string]Layout{}
	for _, l := range before.Layouts {
		oldLayouts[l.ID] = l
	}
	seen := map[string]bool{}
	for _, l := range after.Layouts {
		seen[l.ID] = true
		if old, ok := oldLayouts[l.ID]; !ok || !sameJSON(old, l) {
			s.LayoutsChanged = append(s.LayoutsChanged, l.ID)
		}
	}
	for _, l := range before.Layouts {
		if !seen[l.ID] {
			s.LayoutsChanged = append(s.LayoutsChanged, l.ID)
		}
	}
	return s
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Text is the summary in a line: "users added: a@x; granted: b@x: Accountant".
func (s Summary) Text() string {
	var parts []string
	for _, p := range []struct {
		name  string
		items []string
	}{
		{"users added", s.UsersAdded}, {"users disabled", s.UsersDisabled}, {"users enabled", s.UsersEnabled},
		{"granted", s.Granted}, {"revoked", s.Revoked}, {"roles added", s.RolesAdded},
		{"roles removed", s.RolesRemoved}, {"roles changed", s.RolesChanged}, {"menus changed", s.LayoutsChanged},
	} {
		if len(p.items) > 0 {
			parts = append(parts, p.name+": "+strings.Join(p.items, ", "))
		}
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, "; ")
}

// Detail is the summary as an audit event's detail.
func (s Summary) Detail() map[string]any {
	d := map[string]any{"summary": s.Text()}
	b, _ := json.Marshal(s)
	var m map[string]any
	json.Unmarshal(b, &m)
	for k, v := range m {
		d[k] = v
	}
	return d
}

// RoleByID is f's role with the id, or a not-found error.
func (f File) RoleByID(id int64) (Role, error) {
	for _, r := range f.Roles {
		if r.ID == id {
			return r, nil
		}
	}
	return Role{}, portal.Errorf(portal.CodeNotFound, "No role with id %d.", id)
}

// Permission names a permission that is not about a kind's records,
// with what it lets a role do, for the Administration pages.
type Permission struct {
	Name  string `json:"name"`
	Label string `json:"label"`
}

// OtherPermissions are the permissions beyond <kind>.view, .create and
// .edit.
var OtherPermissions = []Permission{
	{"reports.view", "See and run reports"},
	{"lists.edit", "Edit lists and share them with the role"},
	{"feedback.create", "Send feedback"},
	{"feedback.admin", "Read the feedback received"},
	{"audit.view", "Read the audit log"},
	{"sync.view", "See the ERP sync"},
	{"sync.admin", "Run the ERP sync"},
	{PermAdmin, "Manage users, roles and menus"},
}
