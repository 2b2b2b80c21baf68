// Package access owns who may do what: portal users, their roles and
// permissions, and the menu layouts tied to roles. Roles and layouts are
// tenant data, managed by operators through a readable file (see File).
package access

import (
	"context"
	"slices"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Role is a role as the app sees it (SPEC §3). ID is what the app sends in
// the X-Role-Id header; Key is its stable string id.
type Role struct {
	Key         string   `json:"_id" yaml:"_id"`
	ID          int64    `json:"id" yaml:"id"`
	Name        string   `json:"name" yaml:"name"`
	Type        string   `json:"type" yaml:"type"`
	Layout      string   `json:"layout" yaml:"layout,omitempty"` // "" when the role has no layout
	Permissions []string `json:"permissions" yaml:"permissions"`
	// Rules narrows permissions to some records: by permission name
	// (invoice.view, project.edit), a filter in the list filter grammar
	// that the records must match, with the user's own values and
	// references followed (records.Guard says how). A permission
	// without a rule covers every record of its kind.
	Rules map[string]string `json:"rules,omitempty" yaml:"rules,omitempty"`
}

// Can reports whether the role carries the named permission.
func (r Role) Can(permission string) bool { return slices.Contains(r.Permissions, permission) }

// User is a portal user with the roles they hold, in order (the first is
// the default role at sign-in).
type User struct {
	ID       int64  `json:"id"`
	UID      string `json:"-"`
	Email    string `json:"email"`
	FullName string `json:"fullName"`
	Disabled bool   `json:"-"`
	Roles    []Role `json:"roles"`
}

// Role returns the user's role with the given id, or a forbidden error.
func (u User) Role(id int64) (Role, error) {
	for _, r := range u.Roles {
		if r.ID == id {
			return r, nil
		}
	}
	return Role{}, portal.Errorf(portal.CodeForbidden, "You do not hold that role.")
}

// MenuItem is one entry of a layout's menu tree (SPEC §3).
type MenuItem struct {
	Text      string     `json:"text" yaml:"text,omitempty"`
	IconCSS   string     `json:"iconCss" yaml:"iconCss,omitempty"`
	Href      string     `json:"href" yaml:"href,omitempty"`
	Items     []MenuItem `json:"items" yaml:"items,omitempty"`
	Separator bool       `json:"separator" yaml:"separator,omitempty"`
}

// Layout is a named menu tree.
type Layout struct {
	ID    string     `json:"id" yaml:"id"`
	Name  string     `json:"name" yaml:"name"`
	Items []MenuItem `json:"items" yaml:"items"`
}

// ErrMissingLayout is the error of a role without a layout (SPEC §5).
var ErrMissingLayout = portal.Errorf(portal.CodeNotFound, "Missing layout configuration.")

// Store is what access needs from the database, inside one tenant.
type Store interface {
	UserByUID(ctx context.Context, uid string) (User, error)
	UserByEmail(ctx context.Context, email string) (User, error)
	SetUserUID(ctx context.Context, userID int64, uid string) error
	Layout(ctx context.Context, id string) (Layout, error)
}

// Identity is what the identity service vouches for about a person.
type Identity struct {
	UID           string
	Email         string
	EmailVerified bool
}

// FindUser finds the portal user for a verified identity: by uid first,
// then by verified email (and then remembers the uid). A person without a
// portal account, disabled, or holding no role gets a forbidden error that
// says so plainly.
func FindUser(ctx context.Context, s Store, id Identity) (User, error) {
	u, err := s.UserByUID(ctx, id.UID)
	if portal.IsNotFound(err) && id.EmailVerified && id.Email != "" {
		u, err = s.UserByEmail(ctx, id.Email)
		if err == nil && u.UID == "" {
			err = s.SetUserUID(ctx, u.ID, id.UID)
			u.UID = id.UID
		} else if err == nil {
			// The email belongs to a portal user already linked to another
			// identity: do not let a second identity take it over.
			err = portal.Errorf(portal.CodeNotFound, "no user")
		}
	}
	switch {
	case portal.IsNotFound(err):
		return User{}, portal.Wrap(portal.CodeForbidden, err,
			"You signed in, but you do not have a Portico account. Ask your administrator for access.")
	case err != nil:
		return User{}, err
	case u.Disabled:
		return User{}, portal.Errorf(portal.CodeForbidden, "Your Portico account is disabled. Ask your administrator.")
	case len(u.Roles) == 0:
		return User{}, portal.Errorf(portal.CodeForbidden,
			"Your Portico account has no roles yet. Ask your administrator to give you one.")
	}
	return u, nil
}

// LayoutFor returns the layout with the given id if one of the user's roles
// uses it; otherwise a forbidden error (a user may only read their menus).
func LayoutFor(ctx context.Context, s Store, u User, layoutID string) (Layout, error) {
	for _, r := range u.Roles {
		if r.Layout == layoutID && layoutID != "" {
			l, err := s.Layout(ctx, layoutID)
			if portal.IsNotFound(err) {
				return Layout{}, ErrMissingLayout
			}
			return l, err
		}
	}
	return Layout{}, portal.Errorf(portal.CodeForbidden, "None of your roles uses that menu.")
}

// AuditEvent is one line of a tenant's audit log.
type AuditEvent struct {
	ID     int64          `json:"id"` // assigned by the store; newer is larger
	At     time.Time      `json:"at"`
	Event  string         `json:"event"`  // login, login_failed, role_switch, logout, refresh_reuse, record_create, record_edit, report_save, feedback
	UserID int64          `json:"userId"` // 0 when unknown (a failed sign-in)
	RoleID int64          `json:"roleId"` // the role the user acted in; 0 when none
	IP     string         `json:"ip"`
	Detail map[string]any `json:"detail"`
	// Kind and RecordID name the record a record_create or record_edit is about.
	Kind     string `json:"kind,omitempty"`
	RecordID int64  `json:"recordId,omitempty"`
	// User and Role are the names, filled when the log is read; Record
	// is the name of the record (as it is now), when the portal has it.
	User   string `json:"user"`
	Role   string `json:"role"`
	Record string `json:"record,omitempty"`
	// DetailNames, filled when the log is read, names the roles Detail
	// refers to by id, by detail key (DetailRoleKeys): "from" →
	// "Accountant".
	DetailNames map[string]string `json:"detailNames,omitempty"`
}

// DetailRoleKeys are the members of an audit event's Detail that hold a
// role id: a sign-in's role (older events; newer ones carry RoleID) and a
// role switch's from and to.
var DetailRoleKeys = []string{"role", "from", "to"}

// AuditFilter narrows a read of the audit log; zero values do not filter.
// Before pages: only events with a smaller ID.
type AuditFilter struct {
	Event  string
	UserID int64
	Kind   string
	// RecordID, with Kind, selects one record's history.
	RecordID int64
	Before   int64
	Limit    int
}
