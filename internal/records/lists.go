package records

import (
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
)

// Visibility says who sees a saved list.
type Visibility string

// The visibilities.
const (
	Private    Visibility = "private" // only its owner
	SharedRole Visibility = "role"    // everyone working in RoleID
)

// SortSpec is a saved list's order.
type SortSpec struct {
	Field string `json:"field"`
	Dir   string `json:"dir"` // asc or desc
}

// ListConfig is a saved list (a "list configuration"): its columns, filter
// and sort, private to a user or shared with a role. The kind's built-in
// list has the kind's DefaultList id and cannot be edited.
type ListConfig struct {
	ID         string     `json:"id"`
	Kind       string     `json:"type"`
	Name       string     `json:"name"`
	Columns    []string   `json:"columns"`
	Filter     string     `json:"filter"`
	Sort       SortSpec   `json:"sort"`
	Visibility Visibility `json:"visibility"`
	RoleID     int64      `json:"roleId,omitempty"`
	OwnerID    int64      `json:"-"`
	BuiltIn    bool       `json:"builtIn"`
	Editable   bool       `json:"editable"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	// Report, when set, makes the saved list a report (issue 6): the same
	// kind, columns, filter, sort and visibility, plus grouping and a chart.
	Report *ReportSpec `json:"report,omitempty"`
}

// PermEditLists is the permission that lets a role's members publish saved
// lists and reports to the role and change the ones shared with it.
const PermEditLists = "lists.edit"

// ErrPublishForbidden is the error of sharing a list with a role whose
// permissions do not include PermEditLists (a CodeForbidden error).
var ErrPublishForbidden = portal.Errorf(portal.CodeForbidden,
	"Your role may not share lists or reports with everyone in it; keep it private (only you) instead.")

// ErrShareRoleNotHeld refuses sharing a list with a role the user does
// not hold.
var ErrShareRoleNotHeld = portal.Errorf(portal.CodeForbidden, "You can share only with a role you hold.")

// ListActor is who reads or changes saved lists: a user working in one of
// their roles (Role), among all they hold (Roles). Every rule about who
// sees, changes or shares a saved list (or report) is a method of
// ListActor, so handlers only ask.
type ListActor struct {
	UserID int64
	Role   access.Role
	Roles  []access.Role
}

// Sees reports whether a saved list is visible to the actor: a private
// list to its owner only, a shared list to everyone working in its role
// (not to its owner working in another role).
func (a ListActor) Sees(l ListConfig) bool {
	return (l.Visibility == Private && l.OwnerID == a.UserID) ||
		(l.Visibility == SharedRole && l.RoleID == a.Role.ID)
}

// MayEdit reports whether the actor may change or delete a saved list
// they see: its owner always (so one can still make private or delete a
// list shared before their role lost PermEditLists), anyone else only a
// list shared with the role they work in, when it carries PermEditLists.
// The built-in list is nobody's to change.
func (a ListActor) MayEdit(l ListConfig) bool {
	if l.BuiltIn {
		return false
	}
	return l.OwnerID == a.UserID || (l.Visibility == SharedRole && l.RoleID == a.Role.ID && a.Role.Can(PermEditLists))
}

// CheckEdit answers a change of saved list l, asked of kind's lists (a
// report when asReport, else a plain list): nil when the actor may make
// it; not found when l is not of that kind or sort, or not one they see
// (others' private lists do not exist for them); forbidden when they see
// it but may not change it (MayEdit).
func (a ListActor) CheckEdit(l ListConfig, kind string, asReport bool) error {
	if l.Kind != kind || !a.Sees(l) || asReport != (l.Report != nil) {
		return portal.Errorf(portal.CodeNotFound, "No such saved list.")
	}
	if !a.MayEdit(l) {
		return portal.Errorf(portal.CodeForbidden, "Only its owner or someone allowed to edit lists can change this list.")
	}
	return nil
}

// Publish sets who sees l to v on the actor's behalf: Private clears its
// role; SharedRole shares it with everyone working in role roleID, one
// the actor holds (0: the role they work in; another is refused with
// ErrShareRoleNotHeld), and that role must carry PermEditLists (else
// ErrPublishForbidden). On an error l is unchanged. It applies to new
// lists and to every change of an existing one, so a list stays shared
// only while someone allowed to share it saves it. v must already be
// valid (ListInput.Validate).
func (a ListActor) Publish(l *ListConfig, v Visibility, roleID int64) error {
	if v != SharedRole {
		l.Visibility, l.RoleID = v, 0
		return nil
	}
	target := a.Role
	if roleID != 0 && roleID != a.Role.ID {
		i := slices.IndexFunc(a.Roles, func(r access.Role) bool { return r.ID == roleID })
		if i < 0 {
			return ErrShareRoleNotHeld
		}
		target = a.Roles[i]
	}
	if !target.Can(PermEditLists) {
		return ErrPublishForbidden
	}
	l.Visibility, l.RoleID = v, target.ID
	return nil
}

// BuiltInList is the kind's default saved list: its promoted and account
// fields, in the kind's default order.
func (k *Kind) BuiltInList() ListConfig {
	return ListConfig{ID: k.DefaultList, Kind: k.Name, Name: "All " + strings.ToLower(k.Plural),
		Columns: fieldNames(k.Fields), Sort: k.DefaultSort, Visibility: SharedRole, BuiltIn: true}
}

// ListInput is what a user submits to create or change a saved list.
type ListInput struct {
	Name       string     `json:"name"`
	Columns    []string   `json:"columns"`
	Filter     string     `json:"filter"`
	Sort       SortSpec   `json:"sort"`
	Visibility Visibility `json:"visibility"`
	// RoleID is, when Visibility is SharedRole, the role it is shared
	// with: one the user holds; 0 for the role they work in.
	RoleID int64       `json:"roleId,omitempty"`
	Report *ReportSpec `json:"report,omitempty"`
}

// Validate checks a saved list against the kind and returns every problem
// as a field error (a CodeUnprocessable error), so the form can show each
// next to its input.
func (in ListInput) Validate(k *Kind) error {
	var errs []portal.FieldError
	add := func(field, msg string) { errs = append(errs, portal.FieldError{Field: field, Message: msg}) }
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		add("name", "Give the list a name.")
	case utf8.RuneCountInString(name) > 80:
		add("name", "Keep the name under 80 characters.")
	}
	for _, msg := range k.CheckColumns(in.Columns) {
		add("columns", msg)
	}
	if _, err := ParseFilter(k, in.Filter); err != nil {
		var pe *portal.Error
		if errors.As(err, &pe) {
			add("filter", pe.Message)
		}
	}
	if in.Sort.Field != "" {
		if f, ok := k.FieldNamed(in.Sort.Field); !ok || !f.Sortable {
			add("sort", "Cannot sort by \""+in.Sort.Field+"\".")
		}
	}
	if in.Sort.Dir != "" && in.Sort.Dir != "asc" && in.Sort.Dir != "desc" {
		add("sort", "Sort direction is asc or desc.")
	}
	if in.Visibility != Private && in.Visibility != SharedRole {
		add("visibility", "Choose private or shared with the role.")
	}
	if in.Report != nil {
		errs = append(errs, in.Report.check(k)...)
	}
	if len(errs) > 0 {
		return &portal.Error{Code: portal.CodeUnprocessable, Message: "Check the highlighted fields.", Fields: errs}
	}
	return nil
}

// CheckColumns says what is wrong with a list's columns, one message per
// problem: none chosen, an unknown field, a field listed twice. Saved lists
// and a list call's columns= override share it.
func (k *Kind) CheckColumns(cols []string) []string {
	var msgs []string
	if len(cols) == 0 {
		msgs = append(msgs, "Choose at least one column.")
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if _, ok := k.FieldNamed(c); !ok {
			msgs = append(msgs, "Unknown column \""+c+"\".")
		} else if seen[c] {
			msgs = append(msgs, "Column \""+c+"\" is listed twice.")
		}
		seen[c] = true
	}
	return msgs
}
