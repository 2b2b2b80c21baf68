package records

import (
	"fmt"
	"slices"
)

// Registry is one tenant's record kinds: the code's (Code), or the code's
// plus the fields its ERP account adds (WithAccountFields). Two companies
// on one deployment have one code and each its own account, so each its
// own registry; whatever serves, syncs or indexes a tenant's records asks
// the tenant's. A Registry is read-only once made and safe for concurrent
// use; callers must not modify its kinds.
type Registry struct {
	kinds           []*Kind
	byName, byRoute map[string]*Kind
}

// Code is the registry as the code declares it (SPEC §3's kinds), with no
// account's fields: that of a tenant without an ERP account.
func Code() *Registry { return codeKinds }

// Lookup returns the kind with the given record-type name.
func (r *Registry) Lookup(name string) (*Kind, bool) {
	k, ok := r.byName[name]
	return k, ok
}

// LookupRoute returns the kind served under an app route segment.
func (r *Registry) LookupRoute(route string) (*Kind, bool) {
	k, ok := r.byRoute[route]
	return k, ok
}

// All returns every kind in registry order.
func (r *Registry) All() []*Kind { return r.kinds }

// WithAccountFields is r with an account's fields added to its kinds
// (fields gives a kind's, by kind name), so that the API, lists, filters,
// forms and record pages offer them. An account field that is one of the
// kind's document fields (same name and type) takes its place: the
// account maps it, under its own label; a field r already has as the
// account's, same type, is kept as it is. Kinds that gain no field are
// shared with r; r itself is not changed.
func (r *Registry) WithAccountFields(fields func(kind string) []Field) (*Registry, error) {
	out := &Registry{byName: map[string]*Kind{}, byRoute: map[string]*Kind{}}
	for _, k := range r.kinds {
		var err error
		if fs := fields(k.Name); len(fs) > 0 {
			if k, err = k.withAccountFields(fs); err != nil {
				return nil, err
			}
		}
		out.kinds = append(out.kinds, k)
		out.byName[k.Name], out.byRoute[k.Route] = k, k
	}
	return out, nil
}

// withAccountFields is a copy of k with the account fields fs added (see
// Registry.WithAccountFields).
func (k *Kind) withAccountFields(fs []Field) (*Kind, error) {
	out := *k
	out.Fields, out.Document = slices.Clone(k.Fields), slices.Clone(k.Document)
	for _, f := range fs {
		if have, ok := out.FieldNamed(f.Name); ok && have.Account && have.Type == f.Type {
			continue
		}
		if err := out.CheckAccountField(f); err != nil {
			return nil, fmt.Errorf("records: account field of %s: %w", k.Name, err)
		}
		out.Document = slices.DeleteFunc(out.Document, func(d Field) bool { return d.Name == f.Name })
		out.Fields = append(out.Fields, AccountField(f.Name, f.Label, f.Type, f.Choices))
	}
	return &out, nil
}
