package access

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/portico/portico/internal/portal"
)

// File is the readable description of a tenant's access setup that
// operators edit and `portico roles import` / `export` read and write:
// layouts (menus), roles (with their permissions and layout) and users
// (with their roles). YAML or JSON; an import replaces the tenant's whole
// setup in one transaction.
type File struct {
	Tenant  string     `json:"tenant" yaml:"tenant"`
	Name    string     `json:"name" yaml:"name"`
	Layouts []Layout   `json:"layouts" yaml:"layouts"`
	Roles   []Role     `json:"roles" yaml:"roles"`
	Users   []FileUser `json:"users" yaml:"users"`
}

// FileUser is a user entry of a File; Roles lists role ids.
type FileUser struct {
	ID       int64   `json:"id" yaml:"id"`
	Email    string  `json:"email" yaml:"email"`
	FullName string  `json:"fullName" yaml:"fullName"`
	Disabled bool    `json:"disabled,omitempty" yaml:"disabled,omitempty"`
	Roles    []int64 `json:"roles" yaml:"roles"`
	// SSO marks a user who signs in with the work account only. The demo
	// uses it to decide which emulator accounts get a password.
	SSO bool `json:"sso,omitempty" yaml:"sso,omitempty"`
}

// ParseFile reads a File from YAML or JSON (JSON is YAML) and validates it,
// reporting every problem with its place in the file.
func ParseFile(data []byte) (File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("access file: %w", err)
	}
	return f, f.Validate()
}

// Marshal renders f as YAML, or as indented JSON when asJSON is set.
func (f File) Marshal(asJSON bool) ([]byte, error) {
	if asJSON {
		return json.MarshalIndent(f, "", "  ")
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

var (
	layoutIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	permPattern     = regexp.MustCompile(`^[a-z][a-z0-9_.:-]{0,63}$`)
)

// Validate checks references and formats: unique ids, roles pointing at
// existing layouts (or none), users holding existing roles, valid emails.
func (f File) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	layouts := map[string]bool{}
	for i, l := range f.Layouts {
		if !layoutIDPattern.MatchString(l.ID) {
			bad("layouts[%d]: id %q must be lower-case letters, digits, - or _", i, l.ID)
		}
		if layouts[l.ID] {
			bad("layouts[%d]: duplicate id %q", i, l.ID)
		}
		layouts[l.ID] = true
		checkMenu(l.Items, fmt.Sprintf("layouts[%d]", i), bad)
	}
	roles, keys := map[int64]bool{}, map[string]bool{}
	for i, r := range f.Roles {
		switch {
		case r.ID <= 0:
			bad("roles[%d]: id must be a positive number", i)
		case roles[r.ID]:
			bad("roles[%d]: duplicate id %d", i, r.ID)
		case r.Key == "" || keys[r.Key]:
			bad("roles[%d]: _id must be set and unique", i)
		case strings.TrimSpace(r.Name) == "" || r.Type == "":
			bad("roles[%d]: name and type are required", i)
		}
		// A role whose layout is empty or undefined is allowed on purpose:
		// the app reports "Missing layout configuration." (SPEC §5).
		for _, p := range r.Permissions {
			if !permPattern.MatchString(p) {
				bad("roles[%d]: permission %q must be lower-case like project.view", i, p)
			}
		}
		for perm := range r.Rules {
			if !r.Can(perm) {
				bad("roles[%d]: rules: %q is not one of the role's permissions", i, perm)
			}
		}
		roles[r.ID], keys[r.Key] = true, true
	}
	users, emails := map[int64]bool{}, map[string]bool{}
	for i, u := range f.Users {
		email := strings.ToLower(u.Email)
		if a, err := mail.ParseAddress(u.Email); err != nil || a.Address != u.Email {
			bad("users[%d]: %q is not an email address", i, u.Email)
		}
		switch {
		case u.ID <= 0 || users[u.ID]:
			bad("users[%d]: id must be positive and unique", i)
		case emails[email]:
			bad("users[%d]: duplicate email %s", i, email)
		case strings.TrimSpace(u.FullName) == "":
			bad("users[%d]: fullName is required", i)
		}
		for _, r := range u.Roles {
			if !roles[r] {
				bad("users[%d]: role %d is not defined under roles", i, r)
			}
		}
		users[u.ID], emails[email] = true, true
	}
	if len(errs) > 0 {
		return fmt.Errorf("access file:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

func checkMenu(items []MenuItem, at string, bad func(string, ...any)) {
	for i, m := range items {
		here := fmt.Sprintf("%s.items[%d]", at, i)
		if !m.Separator && m.Text == "" {
			bad("%s: a menu item needs text (or separator: true)", here)
		}
		if m.Href != "" && !portal.InAppPath(m.Href) && !strings.HasPrefix(m.Href, "https://") {
			bad("%s: href %q must be an app path (/...) or an https:// link", here, m.Href)
		}
		checkMenu(m.Items, here, bad)
	}
}
