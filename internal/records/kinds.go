// Package records owns the record-kind registry and, built on it, the list,
// view, tab, file and write operations on the company's ERP records.
package records

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// docFieldName is a document field's id: lower case, as NetSuite spells
// field ids, so it is safe to splice into a JSON path.
var docFieldName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)

// Column is one of the promoted columns every record row has. Each kind maps
// some of its fields onto them; lists sort and filter on these columns only,
// so one set of indexes serves every kind.
type Column string

// The promoted columns of the records table.
const (
	ColTitle   Column = "title"       // display name; required for every kind
	ColCode    Column = "code"        // document number or entity id (PRJ-000123)
	ColStatus  Column = "status"      // status or category
	ColParent  Column = "parent_id"   // the owning entity (client, vendor, ...)
	ColProject Column = "project_id"  // the project the record belongs to
	ColAmount  Column = "amount"      // money or quantity in hundredths
	ColDate    Column = "occurred_on" // the record's main date, ISO yyyy-mm-dd
)

// FieldType says how a field is rendered, compared and validated.
type FieldType string

// The field types.
const (
	TypeText     FieldType = "text"
	TypeStatus   FieldType = "status"    // one of Field.Choices
	TypeRef      FieldType = "reference" // id of a record of Field.Ref
	TypeMoney    FieldType = "money"     // hundredths of the record's currency (Record.Currency)
	TypeQuantity FieldType = "quantity"  // hundredths of a unit (credits, acres; Field.Per)
	TypeDate     FieldType = "date"      // yyyy-mm-dd
	TypePercent  FieldType = "percent"   // a number of percent: 95 is 95 %
	TypeNumber   FieldType = "number"    // a plain number (counts, hours, feet)
	TypeEmail    FieldType = "email"     // text, shown as a mailto: link
	TypePhone    FieldType = "phone"     // text, shown as a tel: link
	TypeURL      FieldType = "url"       // text, shown as a link
	TypeBoolean  FieldType = "boolean"   // true or false
)

// Textual reports whether values of type t are text (and so may be
// compared with contains and startswith).
func (t FieldType) Textual() bool {
	return t == TypeText || t == TypeEmail || t == TypePhone || t == TypeURL
}

// Numeric reports whether values of type t are numbers.
func (t FieldType) Numeric() bool {
	return t == TypeMoney || t == TypeQuantity || t == TypePercent || t == TypeNumber
}

// fieldJSON is a Field without its own MarshalJSON.
type fieldJSON Field

// MarshalJSON serves the field with "operators", those a list filter
// may compare it with (FieldType.Operators), when it is filterable.
func (f Field) MarshalJSON() ([]byte, error) {
	var ops []Op
	if f.Filterable {
		ops = f.Type.Operators()
	}
	return json.Marshal(struct {
		fieldJSON
		Operators []Op `json:"operators,omitempty"`
	}{fieldJSON(f), ops})
}

// Field is one field of a kind. Name is the ERP's field id (entityid,
// companyname, custrecord_...), so the sync and the portal agree. A field
// is either promoted to a column of the records table (Column is one of
// the Col constants) or kept in the record's document (Column is
// DocColumn(Name)): the kind's own document fields, declared in the
// registry, and the fields the ERP account adds (Account).
type Field struct {
	Name    string    `json:"name"`
	Label   string    `json:"label"`
	Column  Column    `json:"column"`
	Type    FieldType `json:"type"`
	Ref     string    `json:"ref,omitempty"`     // kind name for TypeRef
	Choices []string  `json:"choices,omitempty"` // for TypeStatus
	// Required fields must have a value on create and edit forms.
	Required bool `json:"required,omitempty"`
	// Sortable says a list may sort by the field: true only when the sort
	// is a walk of an index (sqlstore keeps one for every sortable field).
	// A list asked to sort by another field is refused.
	Sortable bool `json:"sortable"`
	// Filterable says a list filter may name the field.
	Filterable bool `json:"filterable"`
	// ReadOnly marks a system field: a number or id the ERP assigns, a
	// balance, an amount remaining, a computed value. Forms show it but
	// never send it; a write that sets it is refused.
	ReadOnly bool `json:"readOnly"`
	// Summable marks money and quantity fields: lists can total them,
	// never adding values of different units (UnitOf).
	Summable bool `json:"summable"`
	// Currency is the ISO 4217 code of a money field's values in a
	// record that names none (Record.Currency ""): the tenant's base
	// currency. The registry leaves it empty; /api/v1/kinds fills it in
	// (Kind.InCurrency).
	Currency string `json:"currency,omitempty"`
	// Per, on a quantity field, names the field whose value is the
	// quantity's unit in each record (a credit ledger entry's credits are
	// of its credit type): totals are per value of it, never one sum.
	// "" is a quantity of one unit everywhere (acres).
	Per string `json:"per,omitempty"`
	// Account marks a field the ERP account adds (see Registry.WithAccountFields):
	// kept in the record's document, on DocColumn(Name).
	Account bool `json:"account,omitempty"`
	// named marks a document field held as a list value, {"id",
	// "refName"}, shown and compared by its refName (a status always is).
	named bool
	// unsorted marks a document field with no index (long free text): it
	// is shown and filtered, never sorted.
	unsorted bool
}

// Unit is what a summable field's values are counted in, decided here
// for every path that shows, exports or totals them, which never add
// values of different units: money is in its record's currency
// (Record.Currency, "" the base currency); a quantity per a unit field
// (Field.Per) in that field's value in each record; any other quantity in
// one unit everywhere (neither set).
type Unit struct {
	Currency bool   // the record's currency
	Per      *Field // the field whose value is the unit
}

// UnitOf returns the unit of field f of k (see Unit).
func (k *Kind) UnitOf(f Field) Unit {
	switch {
	case f.Type == TypeMoney:
		return Unit{Currency: true}
	case f.Per != "":
		if per, ok := k.FieldNamed(f.Per); ok { // the registry checks it is
			return Unit{Per: &per}
		}
	}
	return Unit{}
}

// Doc reports whether the field is kept in the record's document rather
// than in a promoted column.
func (f Field) Doc() bool {
	_, ok := f.Column.DocField()
	return ok
}

// Named reports whether the field's document value is a list value or a
// reference, {"id", "refName"}, shown by its refName.
func (f Field) Named() bool { return f.named || f.Type == TypeStatus || f.Type == TypeRef }

// UserEmployeeField links portal users to the ERP's employees: a user's
// employee record is the employee whose document field of this name (the
// employee's e-mail address) equals the user's e-mail address, compared
// without case. With a kind's Owner it finds a user's own records.
const UserEmployeeField = "email"

// TabSource says where a view tab's rows come from.
type TabSource string

// The tab sources.
const (
	TabFiles   TabSource = "files"   // the record's attachments
	TabRelated TabSource = "related" // records of Tab.Kind whose parent or project is this record
	TabSublist TabSource = "sublist" // a sublist held in the record's document (catch-all tabs)
	// TabLines is a transaction's lines (what was sold or bought): a
	// sublist of the record's document with declared Columns, shown under
	// the record's header with the total of its summable columns, and
	// printed with it, rather than as one more tab. A kind may have
	// several (a vendor bill's items and expenses), each with its own
	// total; together they add up to the record's amount.
	TabLines   TabSource = "lines"
	TabCustom  TabSource = "custom"  // a tab with its own code (the project's billing, credits, ...)
	TabHistory TabSource = "history" // the portal's audited creates and edits of the record
)

// Tab is one sub-tab of a record's view page; its Name is the route segment
// (/project/view/billing?id=42).
type Tab struct {
	Name   string    `json:"name"`
	Label  string    `json:"label"`
	Source TabSource `json:"source"`
	Kind   string    `json:"kind,omitempty"` // for TabRelated and TabCustom: the kind listed
	// Through, when set, lists Kind's records that refer to what this
	// record refers to in that column (an opportunity's credits are its
	// client's credit-ledger entries), instead of those referring to this
	// record itself.
	Through Column `json:"through,omitempty"`
	// Columns, for TabLines, are the sublist's members shown, in the
	// order a document shows them, typed: a line's other members (its
	// line number, its keys) are not shown. Other sublists show every
	// plain member of their entries, as text (Sublist).
	Columns []ColumnInfo `json:"columns,omitempty"`
}

// Kind describes one record kind of SPEC.md §3. It is the single source of
// truth for the API, the sync engine, the demo data and (through the API)
// the app: adding a kind is adding one entry to Registry.
type Kind struct {
	Name        string `json:"name"`        // record type (SPEC §3): project, customrecord_res_opportunity, ...
	Route       string `json:"route"`       // app route segment: /<route>/list
	Label       string `json:"label"`       // singular, also the search prefix source
	Plural      string `json:"plural"`      // list page title
	ERPType     string `json:"erpType"`     // NetSuite REST record type
	DefaultList string `json:"defaultList"` // default saved-list id (opaque; a tenant may override)
	// Fields are the fields an ERP connector maps to its columns: the
	// promoted ones (the first is the title), then those the account
	// adds (Registry.WithAccountFields). Forms and writes work on them.
	Fields []Field `json:"-"`
	// Document are the kind's own document fields: read from the
	// record's document (whatever filled it: the sync's extra columns,
	// the record API, the demo data), listed, filtered, sorted and shown
	// like the others. /kinds serves AllFields as "fields".
	Document []Field `json:"-"`
	// Owner, when set, names the kind's reference to the employee who
	// manages or owns a record (a project's manager): "my" records are
	// those whose Owner is the user's employee record (UserEmployeeField).
	Owner string `json:"owner,omitempty"`
	// Address, when set, names the kind's text field holding a record's
	// postal address (a client's, a vendor's): a document that names such
	// a record (a printed invoice or bill) shows it.
	Address string `json:"address,omitempty"`
	// DefaultSort is the order of a list that asks for none:
	// transactions newest first by their date, the others by name.
	// Approval, when set, is how the kind's records go through approval
	// (see Decide).
	Approval    *Approval `json:"approval,omitempty"`
	DefaultSort SortSpec  `json:"defaultSort"`
	Tabs        []Tab     `json:"tabs"`              // view sub-tabs, in display order
	ERPLink     string    `json:"erpLink,omitempty"` // path template into the ERP UI; {id} is replaced
	CanCreate   bool      `json:"canCreate"`
	CanEdit     bool      `json:"canEdit"`
	// CanApprove says the caller may decide some records' approval
	// (Guard.Kinds; false in the registry itself).
	CanApprove bool `json:"canApprove"`
}

// kindJSON is a Kind as /api/v1/kinds serves it: every field in one
// list.
type kindJSON Kind

// MarshalJSON serves the kind with "fields": AllFields.
func (k *Kind) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*kindJSON
		Fields []Field `json:"fields"`
	}{(*kindJSON)(k), k.AllFields()})
}

// InCurrency returns a copy of k whose money fields and money columns of
// lines tabs name code as their currency (Field.Currency): the kind as
// /api/v1/kinds serves it to a tenant whose base currency is code.
func (k *Kind) InCurrency(code string) *Kind {
	out := *k
	set := func(fs []Field) []Field {
		fs = slices.Clone(fs)
		for i := range fs {
			if fs[i].Type == TypeMoney {
				fs[i].Currency = code
			}
		}
		return fs
	}
	out.Fields, out.Document = set(k.Fields), set(k.Document)
	out.Tabs = slices.Clone(k.Tabs)
	for i, t := range out.Tabs {
		if len(t.Columns) == 0 {
			continue
		}
		cols := slices.Clone(t.Columns)
		for j := range cols {
			if cols[j].Type == TypeMoney {
				cols[j].Currency = code
			}
		}
		out.Tabs[i].Columns = cols
	}
	return &out
}

// AllFields returns every field of the kind: the promoted ones, then the
// kind's document fields, then the account's.
func (k *Kind) AllFields() []Field {
	out := make([]Field, 0, len(k.Fields)+len(k.Document))
	out = append(out, k.Promoted()...)
	out = append(out, k.Document...)
	return append(out, k.AccountFields()...)
}

// Promoted returns the kind's promoted fields (those on a column of the
// records table), in registry order.
func (k *Kind) Promoted() []Field {
	var out []Field
	for _, f := range k.Fields {
		if !f.Doc() {
			out = append(out, f)
		}
	}
	return out
}

// DocFields returns the kind's document fields, its own and the
// account's, in AllFields order.
func (k *Kind) DocFields() []Field {
	return append(slices.Clone(k.Document), k.AccountFields()...)
}

// Field returns the kind's promoted field on column c.
func (k *Kind) Field(c Column) (Field, bool) {
	for _, f := range k.Fields {
		if f.Column == c {
			return f, true
		}
	}
	return Field{}, false
}

// Link returns the path of record id inside the ERP's UI, or "" when the
// kind has no link template.
func (k *Kind) Link(id int64) string {
	if k.ERPLink == "" {
		return ""
	}
	return strings.ReplaceAll(k.ERPLink, "{id}", fmt.Sprint(id))
}

// Lookup returns the code's kind with the given record-type name (see
// Code).
func Lookup(name string) (*Kind, bool) { return codeKinds.Lookup(name) }

// LookupRoute returns the code's kind served under an app route segment.
func LookupRoute(route string) (*Kind, bool) { return codeKinds.LookupRoute(route) }

// All returns every kind of the code in registry order (see Code).
// Callers must not modify them.
func All() []*Kind { return codeKinds.All() }

// KindRoute names a kind's pages: its route segment (/<route>/list) and
// plural label. Routes are no secret (SPEC §2 lists every page), so every
// signed-in user may have all of them.
type KindRoute struct {
	Route  string `json:"route"`
	Plural string `json:"plural"`
}

// Routes are the routes of every kind, in registry order, whatever a
// role may see: with them the app tells a page the current role may not
// see ("Not available to your role") from a page that does not exist.
func Routes() []KindRoute {
	out := make([]KindRoute, len(registry))
	for i, k := range registry {
		out[i] = KindRoute{Route: k.Route, Plural: k.Plural}
	}
	return out
}

var (
	byName  = map[string]*Kind{}
	byRoute = map[string]*Kind{}
	// codeKinds is the registry as the code declares it; built in init.
	codeKinds *Registry
)

func init() {
	for _, k := range registry {
		if err := k.validate(); err != nil {
			panic(err)
		}
		if _, dup := byName[k.Name]; dup {
			panic("records: duplicate kind " + k.Name)
		}
		if _, dup := byRoute[k.Route]; dup {
			panic("records: duplicate route " + k.Route)
		}
		byName[k.Name], byRoute[k.Route] = k, k
	}
	codeKinds = &Registry{kinds: registry, byName: byName, byRoute: byRoute}
	for _, k := range registry {
		for i := range k.Fields {
			k.Fields[i].complete()
		}
		for i := range k.Document {
			k.Document[i].complete()
		}
		if k.DefaultSort.Field == "" {
			k.DefaultSort = SortSpec{Field: k.Fields[0].Name, Dir: "asc"}
		}
		if f, ok := k.FieldNamed(k.Owner); k.Owner != "" && (!ok || f.Type != TypeRef || f.Ref != "employee") {
			panic(fmt.Sprintf("records: %s's owner %q is not a reference to an employee", k.Name, k.Owner))
		}
		if f, ok := k.FieldNamed(k.Address); k.Address != "" && (!ok || f.Type != TypeText) {
			panic(fmt.Sprintf("records: %s's address %q is not a text field", k.Name, k.Address))
		}
		if k.Approval != nil {
			k.Approval.check(k)
			k.Approval.complete()
		}
		if f, ok := k.FieldNamed(k.DefaultSort.Field); !ok || !f.Sortable {
			panic(fmt.Sprintf("records: %s sorts by default by %q, not a sortable field", k.Name, k.DefaultSort.Field))
		}
		for _, f := range k.AllFields() {
			if f.Type == TypeRef && byName[f.Ref] == nil {
				panic(fmt.Sprintf("records: %s.%s refers to unknown kind %q", k.Name, f.Name, f.Ref))
			}
			if unit, ok := k.FieldNamed(f.Per); f.Per != "" && (f.Type != TypeQuantity || !ok || !unit.Named()) {
				panic(fmt.Sprintf("records: %s.%s: only a quantity is per the value of a status or list field, not %q", k.Name, f.Name, f.Per))
			}
		}
		for _, t := range k.Tabs {
			if (t.Source == TabLines) != (len(t.Columns) > 0) {
				panic(fmt.Sprintf("records: %s tab %s: a lines tab, and only it, declares its columns", k.Name, t.Name))
			}
			if t.Kind == "" {
				continue
			}
			listed := byName[t.Kind]
			if listed == nil {
				panic(fmt.Sprintf("records: %s tab %s lists unknown kind %q", k.Name, t.Name, t.Kind))
			}
			target, _ := k.TabTarget(t, Record{})
			if _, ok := listed.RelatedColumn(target); !ok || target == "" {
				panic(fmt.Sprintf("records: %s tab %s: %s has no reference to %s", k.Name, t.Name, t.Kind, target))
			}
		}
	}
}

// validate checks the invariants the store and the API rely on.
func (k *Kind) validate() error {
	if k.Name == "" || k.Route == "" || k.Label == "" || k.ERPType == "" || k.DefaultList == "" {
		return fmt.Errorf("records: kind %q is missing a name, route, label, ERP type or default list", k.Name)
	}
	if len(k.Fields) == 0 || k.Fields[0].Column != ColTitle {
		return fmt.Errorf("records: kind %s must promote its title first", k.Name)
	}
	seen, names := map[Column]bool{}, map[string]bool{}
	for i, f := range append(slices.Clone(k.Fields), k.Document...) {
		if seen[f.Column] || names[f.Name] {
			return fmt.Errorf("records: kind %s has field %s (column %s) twice", k.Name, f.Name, f.Column)
		}
		seen[f.Column], names[f.Name] = true, true
		if (f.Type == TypeRef) != (f.Ref != "") || (f.Type == TypeStatus) != (len(f.Choices) > 0) {
			return fmt.Errorf("records: field %s.%s has an inconsistent type", k.Name, f.Name)
		}
		if f.Doc() != (i >= len(k.Fields)) {
			return fmt.Errorf("records: field %s.%s: a document field is declared among Document, a promoted one among Fields", k.Name, f.Name)
		}
		if f.Doc() && (f.Column != DocColumn(f.Name) || !docFieldName.MatchString(f.Name)) {
			return fmt.Errorf("records: document field %s.%s must be on its own column, named as NetSuite names fields", k.Name, f.Name)
		}
	}
	return nil
}

// complete fills in what follows from the field's type and column:
// Sortable (a promoted column with an index; a document field unless
// declared unsorted), Filterable and Summable.
func (f *Field) complete() {
	if f.Doc() {
		f.Sortable = !f.unsorted
	} else {
		f.Sortable = Sortable(f.Column)
	}
	f.Filterable = true
	f.Summable = f.Type == TypeMoney || f.Type == TypeQuantity
}
