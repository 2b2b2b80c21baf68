// Package records owns the record-kind registry and, built on it, the list,
// view, tab, file and write operations on the company's ERP records.
package records

import (
	"fmt"
	"strings"
)

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

// FieldType says how a promoted field is rendered, compared and validated.
type FieldType string

// The field types.
const (
	TypeText     FieldType = "text"
	TypeStatus   FieldType = "status"    // one of Field.Choices
	TypeRef      FieldType = "reference" // id of a record of Field.Ref
	TypeMoney    FieldType = "money"     // hundredths of the currency unit
	TypeQuantity FieldType = "quantity"  // hundredths of a unit (credits, hours)
	TypeDate     FieldType = "date"
	TypePercent  FieldType = "percent" // a number from 0 to 100
	TypeNumber   FieldType = "number"  // any number (counts, acres, scores)
	TypeBoolean  FieldType = "boolean" // true or false
	TypeEmail    FieldType = "email"
	TypePhone    FieldType = "phone"
	TypeURL      FieldType = "url" // an http(s) address
)

// Field is a field promoted to a real column. Name is the ERP's field id
// (entityid, companyname, custrecord_...), so the sync and the portal agree.
type Field struct {
	Name    string    `json:"name"`
	Label   string    `json:"label"`
	Column  Column    `json:"column"`
	Type    FieldType `json:"type"`
	Ref     string    `json:"ref,omitempty"`     // kind name for TypeRef
	Choices []string  `json:"choices,omitempty"` // for TypeStatus
	// Required fields must have a value on create and edit forms.
	Required bool `json:"required,omitempty"`
	// ReadOnly marks a system field (an id or number the ERP assigns, a
	// balance, a computed value): forms show it on edit, leave it out
	// on create, and never send it; the server refuses input naming it.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Sortable is Sortable(Column), spelled out for the app.
	Sortable bool `json:"sortable"`
	// Account marks a field the ERP account adds (see AddAccountFields):
	// kept in the record's document, on DocColumn(Name).
	Account bool `json:"account,omitempty"`
}

// TabSource says where a view tab's rows come from.
type TabSource string

// The tab sources.
const (
	TabFiles   TabSource = "files"   // the record's attachments
	TabRelated TabSource = "related" // records of Tab.Kind whose parent or project is this record
	TabSublist TabSource = "sublist" // a sublist held in the record's document (catch-all tabs)
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
}

// Kind describes one record kind of SPEC.md §3. It is the single source of
// truth for the API, the sync engine, the demo data and (through the API)
// the app: adding a kind is adding one entry to Registry.
type Kind struct {
	Name        string  `json:"name"`              // record type (SPEC §3): project, customrecord_res_opportunity, ...
	Route       string  `json:"route"`             // app route segment: /<route>/list
	Label       string  `json:"label"`             // singular, also the search prefix source
	Plural      string  `json:"plural"`            // list page title
	ERPType     string  `json:"erpType"`           // NetSuite REST record type
	DefaultList string  `json:"defaultList"`       // default saved-list id (opaque; a tenant may override)
	Fields      []Field `json:"fields"`            // promoted fields; the first is the title
	Tabs        []Tab   `json:"tabs"`              // view sub-tabs, in display order
	ERPLink     string  `json:"erpLink,omitempty"` // path template into the ERP UI; {id} is replaced
	CanCreate   bool    `json:"canCreate"`
	CanEdit     bool    `json:"canEdit"`
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

// Lookup returns the kind with the given record-type name.
func Lookup(name string) (*Kind, bool) {
	k, ok := byName[name]
	return k, ok
}

// LookupRoute returns the kind served under an app route segment.
func LookupRoute(route string) (*Kind, bool) {
	k, ok := byRoute[route]
	return k, ok
}

// All returns every kind in registry order. Callers must not modify them.
func All() []*Kind { return registry }

var (
	byName  = map[string]*Kind{}
	byRoute = map[string]*Kind{}
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
	for _, k := range registry {
		for i := range k.Fields {
			k.Fields[i].Sortable = Sortable(k.Fields[i].Column)
		}
		for _, f := range k.Fields {
			if f.Type == TypeRef && byName[f.Ref] == nil {
				panic(fmt.Sprintf("records: %s.%s refers to unknown kind %q", k.Name, f.Name, f.Ref))
			}
		}
		for _, t := range k.Tabs {
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
	seen := map[Column]bool{}
	for _, f := range k.Fields {
		if seen[f.Column] {
			return fmt.Errorf("records: kind %s maps column %s twice", k.Name, f.Column)
		}
		seen[f.Column] = true
		if (f.Type == TypeRef) != (f.Ref != "") || (f.Type == TypeStatus) != (len(f.Choices) > 0) {
			return fmt.Errorf("records: field %s.%s has an inconsistent type", k.Name, f.Name)
		}
	}
	return nil
}
