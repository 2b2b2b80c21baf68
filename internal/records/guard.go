package records

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
)

// The actions a role's permission on a kind names (k.Route + "." +
// action).
const (
	ActView   = "view"
	ActEdit   = "edit"
	ActCreate = "create"
)

// Me is the value a rule compares a reference with to mean the signed-in
// user's own employee record (UserEmployeeField): "projectmanager eq $me".
// A user without one matches no record through it.
const Me = "$me"

// Within is the value of an OpIn condition on a reference that a rule
// follows: the ids of the records of Kind that Filter matches. The store
// makes it part of the query (a subquery over the referenced kind's index,
// or, for "the record's project is one owner's", a column the record
// carries), so a rule costs no read of its own and has no bound on how
// many records it follows to.
type Within struct {
	Kind   string
	Filter Filter
}

// lister is what reading records needs.
type lister interface {
	ListRecords(ctx context.Context, q ListQuery) (Page, error)
}

// Guard decides, for one caller in one role, which records they may see
// and change. It is the one place that does: every read and write of
// records in a request goes through it (the request's store narrows each
// query (Narrow) and checks each record (Check and the Check* of each
// write); search.Narrowed and events.Event.SeenBy ask it (SeenOwned,
// Seen)), so a rule holds alike for lists, counts and totals, exports,
// search, record pages and their tabs, dashboards, reports and live
// events.
//
// A permission (invoice.view) covers every record of its kind unless the
// role has a rule for it (access.Role.Rules): a filter in ParseFilter's
// grammar, where a value may be Me and a field may follow a reference to
// a field of the referenced kind ("project.projectmanager eq $me": the
// invoices of the projects the user manages). An edit must match the view
// rule and the edit rule. A Guard is for one request: it resolves the
// user's employee record and each rule once, on first use, against the
// unguarded store.
type Guard struct {
	role      access.Role
	email     string
	st        lister
	tenant    portal.TenantID
	employees *Employees // nil: looked up once per guard
	kinds     *Registry  // the tenant's; nil: the code's

	mu     sync.Mutex
	me     *int64            // the user's employee record, once looked up (0: none)
	scopes map[string]Filter // resolved rules by permission; nil until one is
}

// NewGuard is the guard of a user (by e-mail address, for Me) acting in
// role, resolving rules through st, the tenant's unguarded store.
func NewGuard(st lister, role access.Role, email string) *Guard {
	return &Guard{role: role, email: email, st: st}
}

// Remembering has the guard look the user's employee record up through
// e, the process's memory of them, for tenant (the store's), rather than
// once per guard. It returns g.
func (g *Guard) Remembering(e *Employees, tenant portal.TenantID) *Guard {
	g.employees, g.tenant = e, tenant
	return g
}

// Among has the guard decide over kinds, the caller's tenant's (the
// code's plus its account's fields), rather than the code's. It returns g.
func (g *Guard) Among(kinds *Registry) *Guard {
	g.kinds = kinds
	return g
}

// Registry is the caller's tenant's kinds: where a request names a kind,
// this is the kind it means.
func (g *Guard) Registry() *Registry {
	if g.kinds == nil {
		return Code()
	}
	return g.kinds
}

// Viewer is the dashboard's viewer of the guard's caller (whose store is
// then the guarded one).
func (g *Guard) Viewer() Viewer { return Viewer{Can: g.role.Can, Email: g.email, guard: g} }

// Role is the role the guard decides for.
func (g *Guard) Role() access.Role { return g.role }

// May reports whether the caller may act on some records of the kind:
// the kind allows the action (a create or an edit: Kind.CanCreate,
// Kind.CanEdit) and the role holds its permission (whose rule, if any,
// picks which records).
func (g *Guard) May(k *Kind, action string) bool {
	switch action {
	case ActCreate:
		if !k.CanCreate {
			return false
		}
	case ActEdit:
		if !k.CanEdit {
			return false
		}
	case ActApprove:
		if k.Approval == nil {
			return false
		}
	}
	return g.role.Can(k.Route + "." + action)
}

// Require is May as an error: forbidden, naming the kind, when the
// caller may not.
func (g *Guard) Require(k *Kind, action string) error {
	if g.May(k, action) {
		return nil
	}
	verb := map[string]string{ActView: "see", ActEdit: "change", ActCreate: "create"}[action]
	if verb == "" {
		verb = action
	}
	return portal.Errorf(portal.CodeForbidden, "Your role may not %s %s.", verb, strings.ToLower(k.Plural))
}

// RequirePermission refuses (forbidden) a caller whose role lacks a
// permission that is not about a kind's records (audit.view,
// feedback.admin, sync.admin...).
func (g *Guard) RequirePermission(perm string) error {
	if g.role.Can(perm) {
		return nil
	}
	return portal.Errorf(portal.CodeForbidden, "Your role may not do this (%s).", perm)
}

// Kinds are the kinds the caller may see, in registry order; never nil.
// Each is a copy whose CanCreate and CanEdit say whether the caller may
// (May), so the app shows only the buttons that will work.
func (g *Guard) Kinds() []*Kind {
	out := []*Kind{}
	for _, k := range g.Registry().All() {
		if g.May(k, ActView) {
			mine := *k
			mine.CanCreate, mine.CanEdit, mine.CanApprove = g.May(k, ActCreate), g.May(k, ActEdit), g.May(k, ActApprove)
			out = append(out, &mine)
		}
	}
	return out
}

// Scope is the filter every record of k the caller acts on must match:
// the zero Filter when the permission has no rule, the view rule (and
// for an edit the edit rule too) resolved for the user otherwise. It
// refuses (Require) a kind the role may not act on.
func (g *Guard) Scope(ctx context.Context, k *Kind, action string) (Filter, error) {
	if err := g.Require(k, action); err != nil {
		return Filter{}, err
	}
	if action != ActView {
		if err := g.Require(k, ActView); err != nil {
			return Filter{}, err
		}
	}
	f, err := g.rule(ctx, k, ActView)
	if err != nil || action == ActView || action == ActCreate {
		return f, err
	}
	more, err := g.rule(ctx, k, action)
	return f.And(more), err
}

// rule is the role's rule on k for action, resolved; kept for the
// request.
func (g *Guard) rule(ctx context.Context, k *Kind, action string) (Filter, error) {
	perm := k.Route + "." + action
	text := g.role.Rules[perm]
	if text == "" {
		return Filter{}, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.scopes[perm]; ok {
		return f, nil
	}
	f, err := parseTerms(text, func(field, op, value string) (Cond, error) {
		return g.term(ctx, k, field, op, value)
	})
	if portal.ErrorCode(err) == portal.CodeInvalid { // the registry changed under a stored rule
		return Filter{}, portal.Wrap(portal.CodeInternal, err, fmt.Sprintf("The access rule of %s on %s cannot be applied.", g.role.Name, perm))
	}
	if err != nil {
		return Filter{}, err
	}
	if g.scopes == nil { // made on first use: most requests meet no rule
		g.scopes = map[string]Filter{}
	}
	g.scopes[perm] = f
	return f, nil
}

// term is one condition of a rule: the field's, with Me replaced by the
// user's employee record, or, for a followed reference, the reference
// being one of the referenced records the rest of the term matches.
func (g *Guard) term(ctx context.Context, k *Kind, field, op, value string) (Cond, error) {
	if value == Me {
		id, err := g.employee(ctx)
		if err != nil {
			return Cond{}, err
		}
		if id == 0 {
			return Cond{Column: ColID, Op: OpIn, Value: []int64{}}, nil // nobody: no record
		}
		value = strconv.FormatInt(id, 10)
	}
	ref, target, followed := strings.Cut(field, ".")
	if !followed {
		return k.cond(field, op, value)
	}
	rf, tk, err := followedRef(k, ref)
	if err != nil {
		return Cond{}, err
	}
	c, err := tk.cond(target, op, value)
	if err != nil {
		return Cond{}, err
	}
	return Cond{Column: rf.Column, Type: TypeRef, Op: OpIn, Value: Within{Kind: tk.Name, Filter: Filter{Any: [][]Cond{{c}}}}}, nil
}

// employee is the user's employee record id, 0 when there is none.
func (g *Guard) employee(ctx context.Context) (int64, error) {
	if g.me != nil {
		return *g.me, nil
	}
	id, err := g.employees.lookup(ctx, g.st, g.tenant, g.email)
	if err != nil {
		return 0, err
	}
	g.me = &id
	return id, nil
}

// Check finds the record of k with id among those the caller may act on,
// and answers not found, as for a record that does not exist, when it is
// not (a refusal would say it exists).
func (g *Guard) Check(ctx context.Context, k *Kind, id int64, action string) error {
	f, err := g.Scope(ctx, k, action)
	if err != nil || f.Conditions() == 0 {
		return err
	}
	ok, err := g.Visible(ctx, k, []int64{id}, action)
	if err == nil && len(ok) == 0 {
		err = portal.Errorf(portal.CodeNotFound, "No %s with id %d.", strings.ToLower(k.Name), id)
	}
	return err
}

// SeesTabWhole reports whether the caller sees every record a related tab
// of rec lists (Kind.Related: the records of listed referring to the
// tab's target): the role may view listed, and its view rule, with the
// reference fixed to the target, holds whatever else such a record
// holds. It is decided on the target alone (a rule through it, "the
// project's manager is me", is checked against that record; a condition
// on anything else makes it false), so what a tab adds that is not a
// record of listed (the project's equipment charges beside its vendor
// bills) shows only to whoever sees all of the tab's records.
func (g *Guard) SeesTabWhole(ctx context.Context, k *Kind, rec Record, tab Tab, listed *Kind) (bool, error) {
	target, id := k.TabTarget(tab, rec)
	col, ok := listed.RelatedColumn(target)
	if !ok || id == 0 || !g.May(listed, ActView) {
		return false, nil
	}
	scope, err := g.Scope(ctx, listed, ActView)
	if err != nil {
		return false, err
	}
	for _, part := range scope.Parts() {
		holds := false
		for _, conj := range part.Any {
			if holds, err = g.holdsFor(ctx, conj, col, id); err != nil || holds {
				break
			}
		}
		if err != nil || !holds {
			return false, err
		}
	}
	return true, nil
}

// holdsFor reports whether every condition of conj holds for a record
// whose reference col is id, whatever its other fields: each must be on
// col, and be id, hold it, or (a followed reference) match the record id.
func (g *Guard) holdsFor(ctx context.Context, conj []Cond, col Column, id int64) (bool, error) {
	for _, c := range conj {
		if c.Column != col {
			return false, nil
		}
		switch v := c.Value.(type) {
		case int64:
			if c.Op != OpEq || v != id {
				return false, nil
			}
		case []int64:
			if c.Op != OpIn || !slices.Contains(v, id) {
				return false, nil
			}
		case Within:
			page, err := g.st.ListRecords(ctx, ListQuery{Kind: v.Kind, Limit: 1, Columns: []Column{}, Fields: []string{},
				Filter: v.Filter.And(Filter{Any: [][]Cond{{{Column: ColID, Op: OpIn, Value: []int64{id}}}}})})
			if err != nil || len(page.Records) == 0 {
				return false, err
			}
		default:
			return false, nil
		}
	}
	return true, nil
}

// Visible returns those of ids (records of k) the caller may act on, in
// no particular order: all of them when the permission has no rule, none
// when the role lacks it.
func (g *Guard) Visible(ctx context.Context, k *Kind, ids []int64, action string) ([]int64, error) {
	if !g.May(k, action) {
		return nil, nil
	}
	f, err := g.Scope(ctx, k, action)
	if err != nil || f.Conditions() == 0 || len(ids) == 0 {
		return ids, err
	}
	var out []int64
	for len(ids) > 0 {
		n := min(len(ids), 500)
		page, err := g.st.ListRecords(ctx, ListQuery{Kind: k.Name, Limit: n, Columns: []Column{}, Fields: []string{},
			Filter: f.And(Filter{Any: [][]Cond{{{Column: ColID, Op: OpIn, Value: ids[:n]}}}})})
		if err != nil {
			return nil, err
		}
		for _, r := range page.Records {
			out = append(out, r.ID)
		}
		ids = ids[n:]
	}
	return out, nil
}

// Seen returns, of the records named by kind and id, those the caller
// may see, as a set per kind: what a search's candidates or an event's
// records are cut down to.
func (g *Guard) Seen(ctx context.Context, byKind map[string][]int64) (map[string]map[int64]bool, error) {
	return g.SeenOwned(ctx, byKind, nil)
}

// SeenOwned is Seen of records whose owners the caller read with them
// (nil: none): owner(kind, id) is the record's owner (Kind.Owner) as the
// search index keeps it, the reference's id as text, "" for none or not
// known. Of a kind the caller sees exactly one owner's records of (a
// rule "owner eq $me" alone), a record of known owner is decided on it,
// without reading the record; every other is read, as Seen reads it.
func (g *Guard) SeenOwned(ctx context.Context, byKind map[string][]int64, owner func(kind string, id int64) string) (map[string]map[int64]bool, error) {
	out := make(map[string]map[int64]bool, len(byKind))
	for kind, ids := range byKind {
		k, ok := g.Registry().Lookup(kind)
		if !ok {
			continue
		}
		set := make(map[int64]bool, len(ids))
		out[kind] = set
		if !g.May(k, ActView) {
			continue
		}
		if owner != nil {
			mine, only, err := g.owned(ctx, k)
			if err != nil {
				return nil, err
			}
			if only {
				var unknown []int64
				for _, id := range ids {
					switch o := owner(kind, id); o {
					case "":
						unknown = append(unknown, id)
					case mine:
						set[id] = true
					}
				}
				ids = unknown
			}
		}
		visible, err := g.Visible(ctx, k, ids, ActView)
		if err != nil {
			return nil, err
		}
		for _, id := range visible {
			set[id] = true
		}
	}
	return out, nil
}

// owned reports whether the records of k the caller sees are exactly
// those of one owner (Kind.Owner, a reference), and that owner's id as
// text, as SeenOwned compares owners.
func (g *Guard) owned(ctx context.Context, k *Kind) (string, bool, error) {
	f, err := g.Scope(ctx, k, ActView)
	of, ok := k.FieldNamed(k.Owner)
	if err != nil || !ok || of.Type != TypeRef {
		return "", false, err
	}
	parts := f.Parts()
	if len(parts) != 1 || len(parts[0].Any) != 1 || len(parts[0].Any[0]) != 1 {
		return "", false, nil
	}
	c := parts[0].Any[0][0]
	id, isID := c.Value.(int64)
	if c.Column != of.Column || c.Op != OpEq || !isID {
		return "", false, nil
	}
	return strconv.FormatInt(id, 10), true, nil
}

// followedRef is k's reference field named ref and the kind it refers
// to.
func followedRef(k *Kind, ref string) (Field, *Kind, error) {
	rf, ok := k.FieldNamed(ref)
	if !ok || rf.Type != TypeRef {
		return rf, nil, badFilter("%q is not a reference of %s: only a reference can be followed (reference.field).", ref, k.Plural)
	}
	tk, ok := Lookup(rf.Ref)
	if !ok {
		return rf, nil, badFilter("%s refers to %s, which Portico does not keep.", ref, rf.Ref)
	}
	return rf, tk, nil
}

// CheckRules checks every rule of the roles against the registry, as an
// import of the access file does before it stores them: each names a
// permission on a kind, parses in the grammar, follows only references,
// compares Me only with references to employees, and follows a
// reference at most one step.
func CheckRules(roles []access.Role) error {
	var errs []string
	for _, r := range roles {
		for _, perm := range slices.Sorted(maps.Keys(r.Rules)) {
			if err := checkRule(perm, r.Rules[perm]); err != nil {
				msg := err.Error()
				var pe *portal.Error
				if errors.As(err, &pe) {
					msg = pe.Message
				}
				errs = append(errs, fmt.Sprintf("role %d (%s), rule on %s: %s", r.ID, r.Name, perm, msg))
			}
		}
	}
	if len(errs) > 0 {
		return portal.Errorf(portal.CodeInvalid, "%s", strings.Join(errs, "; "))
	}
	return nil
}

func checkRule(perm, text string) error {
	route, action, _ := strings.Cut(perm, ".")
	k, ok := LookupRoute(route)
	if !ok || (action != ActView && action != ActEdit && action != ActApprove) {
		return badFilter("a rule narrows a view, edit or approve permission on a record kind (invoice.view, project.edit, vendorbill.approve)")
	}
	if strings.TrimSpace(text) == "" {
		return badFilter("the rule is empty")
	}
	_, err := parseTerms(text, func(field, op, value string) (Cond, error) {
		on, name := k, field
		if ref, target, followed := strings.Cut(field, "."); followed {
			_, tk, err := followedRef(k, ref)
			if err != nil {
				return Cond{}, err
			}
			on, name = tk, target
		}
		if value == Me {
			f, ok := on.FieldNamed(name)
			if !ok || f.Type != TypeRef || f.Ref != "employee" {
				return Cond{}, badFilter("%s is compared with %s, the user's employee record, but is not a reference to an employee", field, Me)
			}
			value = "1"
		}
		c, err := on.cond(name, op, value)
		// A view or edit rule narrows lists; an approve rule is only
		// ever checked on the records a decision names, by id.
		if err == nil && action != ActApprove && !indexedCond(on, c) {
			err = badFilter("%s %s cannot be looked up by an index: the rule would read every %s for each list. "+
				"A rule compares a record's name, number, status, date, amount, client or project, its owner (%s), or a sortable field; "+
				"contains and startswith are for lists, not rules", field, op, strings.ToLower(on.Label), cmp.Or(on.Owner, "none"))
		}
		return c, err
	})
	return err
}

// indexedCond reports whether the store has an index that answers c on
// records of k (sqlstore's list and document-field indexes): a promoted
// column; the kind's owner; a sortable document field that is no
// reference (a reference's index is by name, the filter compares its id).
// Text searches (contains, startswith) never are.
func indexedCond(k *Kind, c Cond) bool {
	if c.Op == OpContains || c.Op == OpStartsWith {
		return false
	}
	if Sortable(c.Column) {
		return true
	}
	name, doc := c.Column.DocField()
	f, ok := k.FieldNamed(name)
	if !doc || !ok {
		return false
	}
	return f.Name == k.Owner || (f.Sortable && f.Type != TypeRef)
}

// Narrow adds the caller's view scope of kind to f: what a list, count,
// total, tally or grouping of kind's records reads under the guard. A
// condition of f that compares with Me is made the caller's own employee
// record here.
func (g *Guard) Narrow(ctx context.Context, kind string, f Filter) (Filter, error) {
	k, ok := g.Registry().Lookup(kind)
	if !ok {
		return f, portal.Errorf(portal.CodeInvalid, "Unknown record type %q.", kind)
	}
	f, err := g.Resolve(ctx, f)
	if err != nil {
		return f, err
	}
	scope, err := g.Scope(ctx, k, ActView)
	return f.And(scope), err
}

// Resolve returns f with its conditions that compare with Me made the
// caller's own employee record: a filter the caller wrote ("nextapprover
// eq $me") as it applies to them. Narrow does it for a query's filter;
// a tally's buckets need it too.
func (g *Guard) Resolve(ctx context.Context, f Filter) (Filter, error) {
	if !f.mentionsMe() {
		return f, nil
	}
	id, err := g.employee(ctx)
	if err != nil {
		return f, err
	}
	return f.resolveMe(id), nil
}

// Narrowed reports whether the caller sees only some records of kind
// (the role's view permission on it has a rule).
func (g *Guard) Narrowed(ctx context.Context, kind string) (bool, error) {
	f, err := g.Narrow(ctx, kind, Filter{})
	return f.Conditions() > 0, err
}

// SeesAll reports whether the caller sees every record of kind: the role
// may view it and its view permission has no rule (an unknown kind, or
// one the role may not view, is false).
func (g *Guard) SeesAll(ctx context.Context, kind string) (bool, error) {
	k, ok := g.Registry().Lookup(kind)
	if !ok || !g.May(k, ActView) {
		return false, nil
	}
	scope, err := g.Scope(ctx, k, ActView)
	return err == nil && scope.Conditions() == 0, err
}

// CheckRecord is Check by kind name, for view.
func (g *Guard) CheckRecord(ctx context.Context, kind string, id int64) error {
	return g.CheckAction(ctx, kind, id, ActView)
}

// CheckReference checks a record named by kind and id where only its name
// is read (a reference, a bulk edit's outcome): against the view rule
// when the role sees the kind, as Check; a kind the role does not see at
// all passes, as a reference's name shows on every record holding it.
func (g *Guard) CheckReference(ctx context.Context, kind string, id int64) error {
	k, ok := g.Registry().Lookup(kind)
	if !ok || !g.May(k, ActView) {
		return nil
	}
	return g.Check(ctx, k, id, ActView)
}

// CheckWrite checks a save: an edit of a stored record needs its edit
// scope (else not found); a create is the role's permission alone, which
// the save's caller requires (rules narrow view and edit, not create).
func (g *Guard) CheckWrite(ctx context.Context, w Write) error {
	if w.Base.IsZero() {
		return nil
	}
	return g.CheckAction(ctx, w.Record.Kind, w.Record.ID, ActEdit)
}

// CheckAddition checks a note or a file added to record id of kind: it
// changes the record, so it needs the record's edit scope.
func (g *Guard) CheckAddition(ctx context.Context, kind string, id int64) error {
	return g.CheckAction(ctx, kind, id, ActEdit)
}

// CheckDecision checks a decision on record id of kind (approve or
// reject): its approve scope, the view rule and the approve rule, not its
// edit scope. A decision's comment, added to the record just decided,
// needs its view scope only (CheckRecord).
func (g *Guard) CheckDecision(ctx context.Context, kind string, id int64) error {
	return g.CheckAction(ctx, kind, id, ActApprove)
}

// CheckChange checks that the caller may retry or discard a change of
// record id of kind that the ERP has not taken: a record they may edit,
// or, in a role that may create the kind but not edit it (its change is a
// create), one they may see. Outside that it is not found, as Check
// answers; a role that may do neither is refused.
func (g *Guard) CheckChange(ctx context.Context, kind string, id int64) error {
	k, ok := g.Registry().Lookup(kind)
	switch {
	case !ok:
		return portal.Errorf(portal.CodeNotFound, "No %s with id %d.", kind, id)
	case g.May(k, ActEdit):
		return g.Check(ctx, k, id, ActEdit)
	case g.May(k, ActCreate):
		return g.Check(ctx, k, id, ActView)
	}
	return portal.Errorf(portal.CodeForbidden, "Your role may not change %s.", strings.ToLower(k.Plural))
}

// CheckAction is Check by kind name.
func (g *Guard) CheckAction(ctx context.Context, kind string, id int64, action string) error {
	k, ok := g.Registry().Lookup(kind)
	if !ok {
		return portal.Errorf(portal.CodeNotFound, "No %s with id %d.", kind, id)
	}
	return g.Check(ctx, k, id, action)
}
