package records

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The dashboard (SPEC §2 "/") is the user's own: what they manage or own
// ("mine"), money owed to and by the company with its aging, and the
// credits available, each only for a role that may see the records.
// Every figure is a Card: the records of a kind matching a list filter
// expression, counted (and an amount totalled) by the store with the same
// SQL a list with that filter uses, so a card's number is what the list
// it opens shows.

// Card is one figure: how many records of Kind match Filter (the list
// filter grammar, ParseFilter), and when Amount is set the total of that
// field over them.
type Card struct {
	Label string `json:"label"`
	// One is what Label says of a single record, for a count of one
	// ("Milestone to bill" beside "Milestones to bill"); empty when
	// Label reads the same for any count (a status, "Overdue").
	One    string `json:"one,omitempty"`
	Kind   string `json:"kind"`
	Filter string `json:"filter"`
	Count  int64  `json:"count"`
	// Amount names the field totalled; Totals are its totals (in units,
	// two decimals), per unit: per currency for money, per credit type
	// for credits (UnitTotal); Type is its type (money or quantity).
	Amount string      `json:"amount,omitempty"`
	Totals []UnitTotal `json:"totals,omitempty"`
	Type   FieldType   `json:"type,omitempty"`
	// Columns and Sort, when set, are how the list it opens shows the
	// records (aging: with the due date and amount remaining, the
	// oldest due first); else the kind's built-in list's.
	Columns []string  `json:"columns,omitempty"`
	Sort    *SortSpec `json:"sort,omitempty"`
	// Estimated says Count and Total are estimates: the records are too
	// many to count at bounded cost (see Summary); the list says so too.
	Estimated bool `json:"estimated,omitempty"`
}

// Dashboard is a user's dashboard in one role.
type Dashboard struct {
	// AsOf is the day the aging counts from (yyyy-mm-dd, UTC).
	AsOf string `json:"asOf"`
	// Employee is the user's employee record, found by e-mail address
	// (UserEmployeeField); nil when there is none. "Mine" needs it.
	Employee *Ref `json:"employee"`
	// Approvals are, per kind whose records the role may decide, those
	// waiting for the user's decision (Approval.Awaiting).
	Approvals []Card `json:"approvals"`
	// Mine is, per kind with an owner the role may see, the records the
	// user's employee manages or owns: all of them, and by status.
	Mine []Mine `json:"mine"`
	// Projects are the user's active projects with their open items.
	Projects *MyProjects `json:"projects,omitempty"`
	// Aging is, per kind of open balance the role may see (invoices:
	// receivables; vendor bills: payables), what is outstanding and how
	// long past due.
	Aging []Aging `json:"aging"`
	// Credits are the credits available in every pool.
	Credits *Card `json:"credits,omitempty"`
}

// Mine is the user's records of one kind.
type Mine struct {
	Kind     string `json:"kind"`
	All      Card   `json:"all"`
	ByStatus []Card `json:"byStatus"` // statuses with records, in the order of the choices
}

// MyProjects are the user's projects in the active status, the first
// MaxMyProjects by name, each with its open items.
type MyProjects struct {
	// All opens the list of every one of them.
	All  Card        `json:"all"`
	Rows []MyProject `json:"rows"`
}

// MyProject is one of the user's active projects.
type MyProject struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Client *Ref   `json:"client,omitempty"`
	// Open are its open items per kind the role may see (open invoices,
	// milestones to bill, bills to pay); kinds with none are left out.
	Open []Card `json:"open"`
}

// Aging is a kind's open balances: Outstanding (amount remaining above
// zero), Overdue (and past its due date), and Buckets, which split the
// outstanding ones by days past due: not yet due, 1–30, 31–60, 61–90 and
// over 90. Undated counts outstanding records without a due date, which
// no bucket holds.
type Aging struct {
	Kind        string `json:"kind"`
	Label       string `json:"label"` // Receivables, Payables
	Outstanding Card   `json:"outstanding"`
	Overdue     Card   `json:"overdue"`
	Buckets     []Card `json:"buckets"`
	Undated     int64  `json:"undated"`
}

// DashboardStore is what the dashboard reads: tallies of filtered
// records, the lists' bounded counts and totals, and pages of records.
type DashboardStore interface {
	Tallier
	ListRecords(ctx context.Context, q ListQuery) (Page, error)
}

// TallyQuery asks for the records of Kind matching Filter (the scope):
// per bucket (a filter of its own, on top of Filter), how many there are
// and the totals of the Sum field per unit (none when it is the zero
// Field). Buckets may overlap.
type TallyQuery struct {
	Kind    string
	Filter  Filter
	Sum     Field
	Buckets []Filter
}

// Tally answers a TallyQuery: per bucket, in order, its count and total.
// Exact is false, and Buckets empty, when the scope has more than
// SummaryExact records (too many to read at bounded cost).
type Tally struct {
	Exact   bool
	Buckets []BucketTally
}

// BucketTally is one bucket's count and totals, in hundredths, by unit
// (UnitTotal).
type BucketTally struct {
	Count int64
	Sums  map[string]int64
}

// Viewer is who the dashboard is for: whether their role may see a kind
// (its "<route>.view" permission) and their e-mail address.
type Viewer struct {
	Can   func(permission string) bool
	Email string
	// guard, when the viewer comes from one (Guard.Viewer), finds the
	// user's employee record whatever the role may see of employees.
	guard *Guard
}

func (v Viewer) sees(k *Kind) bool { return v.Can(k.Route + ".view") }

// MaxMyProjects bounds the projects the dashboard lists with their items.
const MaxMyProjects = 8

// The fields aging reads: NetSuite's standard due date and amount
// remaining of a transaction.
const (
	dueField       = "duedate"
	remainingField = "amountremaining"
)

// agingKinds are the kinds with open balances, and what the dashboard
// calls them.
var agingKinds = []struct{ kind, label string }{{"invoice", "Receivables"}, {"vendorbill", "Payables"}}

// agingBuckets are the aging buckets, in days past due: from, to
// (inclusive; 0 means no limit), and their labels. Not yet due is
// "current".
var agingBuckets = []struct {
	from, to int
	label    string
}{{0, 0, "Current"}, {1, 30, "1–30 days"}, {31, 60, "31–60 days"}, {61, 90, "61–90 days"}, {91, 0, "Over 90 days"}}

// myProjects is the kind whose active records the dashboard lists, and
// that status.
const myProjectsKind, activeStatus = "project", "Active"

// openItems are, per kind that belongs to a project, the statuses of its
// records that still need work, and what the dashboard calls them.
var openItems = []struct {
	kind, label, one string
	statuses         []string
}{
	{"invoice", "Open invoices", "Open invoice", []string{"Open", "Overdue"}},
	{"billing", "Milestones to bill", "Milestone to bill", []string{"Scheduled", "Ready to bill", "On hold"}},
	{"vendorbill", "Bills to pay", "Bill to pay", []string{"Pending approval", "Open"}},
}

// creditsKind is the kind whose amounts are the credits available.
const creditsKind = "creditavailability"

// BuildDashboard reads the dashboard of viewer as of day asOf. Each part
// is one or two store queries, each over the records it counts only:
// the user's own records (an index on the owner), open balances (an
// index on the amount remaining) and the credit pools.
func BuildDashboard(ctx context.Context, st DashboardStore, v Viewer, asOf time.Time) (Dashboard, error) {
	d := Dashboard{AsOf: asOf.UTC().Format(time.DateOnly), Approvals: []Card{}, Mine: []Mine{}, Aging: []Aging{}}
	var err error
	lookup := lister(st)
	if v.guard != nil {
		lookup = v.guard.st
	}
	if d.Employee, err = employeeOf(ctx, lookup, v.Email); err != nil {
		return d, err
	}
	if d.Employee != nil {
		for _, k := range All() {
			if k.Approval == nil || v.guard == nil || !v.guard.May(k, ActApprove) {
				continue
			}
			amt, _ := k.Field(ColAmount)
			cards, err := tally(ctx, st, k, "", amt, Card{Label: k.Plural + " awaiting my approval", One: k.Label + " awaiting my approval", Filter: k.Approval.Awaiting})
			if err != nil {
				return d, err
			}
			d.Approvals = append(d.Approvals, cards[0])
		}
		for _, k := range All() {
			if k.Owner == "" || !v.sees(k) {
				continue
			}
			m, err := mine(ctx, st, k, d.Employee.ID)
			if err != nil {
				return d, err
			}
			d.Mine = append(d.Mine, m)
		}
		if k, _ := Lookup(myProjectsKind); v.sees(k) {
			if d.Projects, err = projectsOf(ctx, st, v, k, d.Employee.ID); err != nil {
				return d, err
			}
		}
	}
	for _, a := range agingKinds {
		if k, _ := Lookup(a.kind); v.sees(k) {
			ag, err := aging(ctx, st, k, a.label, asOf)
			if err != nil {
				return d, err
			}
			d.Aging = append(d.Aging, ag)
		}
	}
	if k, _ := Lookup(creditsKind); v.sees(k) {
		amt, _ := k.Field(ColAmount)
		cards, err := tally(ctx, st, k, "", amt, Card{Label: "Credits available"})
		if err != nil {
			return d, err
		}
		d.Credits = &cards[0]
	}
	return d, nil
}

// employeeOf finds the employee record whose e-mail address is email
// (UserEmployeeField), through the list filter on that field sorted by
// it: an index seek.
func employeeOf(ctx context.Context, st lister, email string) (*Ref, error) {
	k, _ := Lookup("employee")
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return nil, nil
	}
	f, err := ParseFilter(k, filterCond(UserEmployeeField, OpEq, email))
	if err != nil {
		return nil, err
	}
	page, err := st.ListRecords(ctx, ListQuery{Kind: k.Name, Sort: DocColumn(UserEmployeeField), Filter: f, Limit: 1})
	if err != nil || len(page.Records) == 0 {
		return nil, err
	}
	return &Ref{ID: page.Records[0].ID, RefName: page.Records[0].Title}, nil
}

// mine tallies the records of k whose owner is employee: all, then by
// status.
func mine(ctx context.Context, st DashboardStore, k *Kind, employee int64) (Mine, error) {
	owned := filterCond(k.Owner, OpEq, strconv.FormatInt(employee, 10))
	cards := []Card{{Label: "My " + strings.ToLower(k.Plural), Filter: owned}}
	if status, ok := k.Field(ColStatus); ok {
		for _, c := range status.Choices {
			cards = append(cards, Card{Label: c, Filter: filterAnd(owned, filterCond(status.Name, OpEq, c))})
		}
	}
	amt, _ := k.Field(ColAmount)
	cards, err := tally(ctx, st, k, owned, amt, cards...)
	if err != nil {
		return Mine{}, err
	}
	// The list shows whose they are.
	cols := withColumns(k, k.Owner)
	for i := range cards {
		cards[i].Columns = cols
	}
	m := Mine{Kind: k.Name, All: cards[0], ByStatus: []Card{}}
	for _, c := range cards[1:] {
		if c.Count > 0 {
			m.ByStatus = append(m.ByStatus, c)
		}
	}
	return m, nil
}

// projectsOf lists the employee's active projects, the first
// MaxMyProjects by name, with their open items of each kind v may see.
func projectsOf(ctx context.Context, st DashboardStore, v Viewer, k *Kind, employee int64) (*MyProjects, error) {
	status, _ := k.Field(ColStatus)
	filter := filterAnd(filterCond(k.Owner, OpEq, strconv.FormatInt(employee, 10)), filterCond(status.Name, OpEq, activeStatus))
	f, err := ParseFilter(k, filter)
	if err != nil {
		return nil, err
	}
	page, err := st.ListRecords(ctx, ListQuery{Kind: k.Name, Sort: ColTitle, Filter: f, Limit: MaxMyProjects})
	if err != nil {
		return nil, err
	}
	all, err := tally(ctx, st, k, filter, Field{}, Card{Label: "My active " + strings.ToLower(k.Plural), Filter: filter, Columns: withColumns(k, k.Owner)})
	if err != nil {
		return nil, err
	}
	out := &MyProjects{All: all[0], Rows: []MyProject{}}
	for _, r := range page.Records {
		p := MyProject{ID: r.ID, Name: r.Title, Open: []Card{}}
		if r.ParentID != 0 {
			p.Client = &Ref{ID: r.ParentID, RefName: r.ParentName}
		}
		out.Rows = append(out.Rows, p)
	}
	if len(out.Rows) == 0 {
		return out, nil
	}
	for _, item := range openItems {
		ik, _ := Lookup(item.kind)
		if !v.sees(ik) {
			continue
		}
		proj, _ := ik.Field(ColProject)
		ist, _ := ik.Field(ColStatus)
		var ofListed []string
		cards := make([]Card, 0, len(out.Rows))
		for _, p := range out.Rows {
			id := strconv.FormatInt(p.ID, 10)
			ofListed = append(ofListed, filterCond(proj.Name, OpEq, id))
			var terms []string
			for _, s := range item.statuses {
				terms = append(terms, filterAnd(filterCond(proj.Name, OpEq, id), filterCond(ist.Name, OpEq, s)))
			}
			cards = append(cards, Card{Label: item.label, One: item.one, Filter: strings.Join(terms, " or ")})
		}
		// One query for every listed project: their records of the kind
		// (an index on the project), split by project.
		cards, err := tally(ctx, st, ik, strings.Join(ofListed, " or "), Field{}, cards...)
		if err != nil {
			return nil, err
		}
		for i, c := range cards {
			if c.Count > 0 {
				out.Rows[i].Open = append(out.Rows[i].Open, c)
			}
		}
	}
	return out, nil
}

// aging tallies k's open balances as of day asOf.
func aging(ctx context.Context, st DashboardStore, k *Kind, label string, asOf time.Time) (Aging, error) {
	remaining, ok := k.FieldNamed(remainingField)
	if _, dated := k.FieldNamed(dueField); !ok || !dated {
		return Aging{}, fmt.Errorf("records: %s has no %s and %s to age", k.Name, dueField, remainingField)
	}
	day := func(daysAgo int) string { return asOf.UTC().AddDate(0, 0, -daysAgo).Format(time.DateOnly) }
	open := filterCond(remainingField, OpGt, "0")
	cards := []Card{
		{Label: "Outstanding", Filter: open},
		{Label: "Overdue", Filter: filterAnd(open, filterCond(dueField, OpLt, day(0)))},
	}
	for _, b := range agingBuckets {
		terms := []string{open}
		if b.from == 0 {
			terms = append(terms, filterCond(dueField, OpGe, day(0)))
		} else {
			terms = append(terms, filterCond(dueField, OpLe, day(b.from)))
			if b.to != 0 {
				terms = append(terms, filterCond(dueField, OpGe, day(b.to)))
			}
		}
		cards = append(cards, Card{Label: b.label, Filter: filterAnd(terms...)})
	}
	cards, err := tally(ctx, st, k, open, remaining, cards...)
	if err != nil {
		return Aging{}, err
	}
	cols := withColumns(k, dueField, remainingField)
	for i := range cards {
		cards[i].Columns, cards[i].Sort = cols, &SortSpec{Field: dueField, Dir: "asc"}
	}
	a := Aging{Kind: k.Name, Label: label, Outstanding: cards[0], Overdue: cards[1], Buckets: cards[2:]}
	a.Undated = a.Outstanding.Count
	for _, b := range a.Buckets {
		a.Undated -= b.Count
	}
	return a, nil
}

// tally counts (and totals amt over, when amt is a field) the records of
// k matching each card's filter, as a list of k with that filter counts
// and totals them (bucketTotals), and fills in the cards. Each card's
// filter is the whole filter the list is opened with, and must select
// records within scope: scope only bounds what is read (an indexed
// condition).
func tally(ctx context.Context, st Tallier, k *Kind, scope string, amt Field, cards ...Card) ([]Card, error) {
	sf, err := ParseFilter(k, scope)
	if err != nil {
		return nil, err
	}
	buckets := make([]Filter, len(cards))
	for i, c := range cards {
		if buckets[i], err = ParseFilter(k, c.Filter); err != nil {
			return nil, err
		}
	}
	ts, err := bucketTotals(ctx, st, k, sf, amt, buckets)
	if err != nil {
		return nil, err
	}
	for i := range cards {
		c := &cards[i]
		c.Kind, c.Count, c.Estimated = k.Name, ts[i].Count, ts[i].Estimated
		if amt.Column != "" {
			c.Amount, c.Totals, c.Type = amt.Name, ts[i].Totals, amt.Type
		}
	}
	return cards, nil
}

// Tallier is what bucketTotals reads: one bounded tally of a scope, and
// the lists' bounded summaries beyond it.
type Tallier interface {
	Tally(ctx context.Context, q TallyQuery) (Tally, error)
	Summarizer
}

// bucketTotal is one bucket's count and totals per unit, Estimated as a
// list's summary is (see Summary).
type bucketTotal struct {
	Count     int64
	Totals    []UnitTotal
	Estimated bool
}

// bucketTotals counts (and totals amt over, when amt is a field) the
// records of k matching each bucket, a whole filter that selects records
// within scope, as a list of k with that filter counts and totals them.
// Within SummaryExact records of scope that is one store query (Tally),
// exact, as the list's count is; beyond, each bucket is the list's own
// bounded summary (Summarize), estimated as the list's is.
func bucketTotals(ctx context.Context, st Tallier, k *Kind, scope Filter, amt Field, buckets []Filter) ([]bucketTotal, error) {
	t, err := st.Tally(ctx, TallyQuery{Kind: k.Name, Filter: scope, Sum: amt, Buckets: buckets})
	if err != nil {
		return nil, err
	}
	out := make([]bucketTotal, len(buckets))
	if t.Exact {
		if len(t.Buckets) != len(buckets) {
			return nil, fmt.Errorf("records: tally of %s answered %d buckets for %d", k.Name, len(t.Buckets), len(buckets))
		}
		for i, b := range t.Buckets {
			by := make(map[string]float64, len(b.Sums))
			for u, v := range b.Sums {
				by[u] = float64(v) / 100
			}
			out[i] = bucketTotal{Count: b.Count, Totals: UnitTotals(by)}
		}
		return out, nil
	}
	for i, f := range buckets {
		sq := SummaryQuery{List: ListQuery{Kind: k.Name, Filter: f}, Count: true}
		if amt.Column != "" {
			sq.Sum = []Field{amt}
		}
		s, err := st.Summarize(ctx, sq)
		if err != nil {
			return nil, err
		}
		out[i] = bucketTotal{Count: s.Total, Totals: s.Totals[amt.Name], Estimated: s.TotalEstimated || s.TotalsEstimated}
	}
	return out, nil
}

// withColumns is k's built-in list's columns and fields, those not there
// already.
func withColumns(k *Kind, fields ...string) []string {
	cols := k.BuiltInList().Columns
	for _, f := range fields {
		if !slices.Contains(cols, f) {
			cols = append(cols, f)
		}
	}
	return cols
}

// KindField is a field of a kind.
type KindField struct {
	Kind  *Kind
	Field Field
}

// IndexedFilters are the fields the dashboard's cards filter on whose
// filter needs an index of its own (beyond the sort indexes): each
// kind's owner (by its id) and the amount remaining of the kinds it
// ages. The store keeps one per field, so "mine" and open balances are
// index ranges.
func IndexedFilters() []KindField {
	var out []KindField
	for _, k := range All() {
		if f, ok := k.FieldNamed(k.Owner); ok && k.Owner != "" {
			out = append(out, KindField{k, f})
		}
	}
	for _, a := range agingKinds {
		k, _ := Lookup(a.kind)
		f, _ := k.FieldNamed(remainingField)
		out = append(out, KindField{k, f})
	}
	return out
}

// filterCond writes one condition of the list filter grammar: `field op
// value`, the value quoted when it is not one plain word.
func filterCond(field string, op Op, value string) string {
	if bareWord.MatchString(value) && !strings.EqualFold(value, "and") && !strings.EqualFold(value, "or") {
		return field + " " + string(op) + " " + value
	}
	return field + " " + string(op) + ` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value) + `"`
}

// bareWord is a filter value that needs no quotes.
var bareWord = regexp.MustCompile(`^[^\s"\\]+$`)

// filterAnd joins conjunctions of conditions with "and", skipping empty ones
// ("and" binds tighter than "or": none may be a disjunction).
func filterAnd(conds ...string) string {
	var parts []string
	for _, c := range conds {
		if c != "" {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, " and ")
}
