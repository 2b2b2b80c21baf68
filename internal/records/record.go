package records

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// Record is one ERP record as the portal keeps it: the promoted columns the
// kind registry maps, plus the full field document (custom fields and
// sublists included) exactly as the ERP gave it.
type Record struct {
	Kind        string // record-type name (Kind.Name)
	ID          int64  // the ERP's internal id; positive
	ExternalID  string // the ERP's external id, "" when unset
	Title       string // never empty
	Code        string // "" when the kind has none
	Status      string // "" when the kind has none
	ParentID    int64  // 0 when none
	ParentName  string // the parent's display name (NetSuite's refName)
	ProjectID   int64  // 0 when none
	ProjectName string // the project's display name
	Amount      *int64 // hundredths; nil when unknown
	// Currency is the ISO 4217 code of the record's money values (its
	// amount and every money field of its document) when they are not
	// in the tenant's base currency (a transaction in a foreign
	// currency, an entity of a subsidiary with another base currency);
	// "" when they are. Totals never add values of different currencies.
	Currency   string
	Date       string          // yyyy-mm-dd, "" when unknown
	ModifiedAt time.Time       // last change in the ERP, millisecond precision
	Fields     json.RawMessage // the document; a JSON object (not filled by list queries)
	// Extra holds the kind's account field values a list query read
	// from the document (display text of a status, a number for an
	// amount), by field name; nil when it read none.
	Extra map[string]any
	// Write is the state of the portal's last write of this record to the
	// ERP (filled with the document).
	Write WriteState
}

// WriteState is where the portal's last create or edit of a record stands
// with the ERP: "" when there is none outstanding (the record is as the ERP
// has it), "pending" while it is on its way, "failed" with the ERP's
// message.
type WriteState struct {
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// The write states.
const (
	WriteSynced  = ""
	WritePending = "pending"
	WriteFailed  = "failed"
)

// File is an attachment of a record. Content is only filled when the file
// itself was asked for.
type File struct {
	ID          int64
	Kind        string
	RecordID    int64
	Name        string
	ContentType string
	Size        int64
	ModifiedAt  time.Time
	Content     []byte
	// Write is where a file the portal added stands with the ERP: ""
	// once there (or with no ERP), pending while on its way, failed with
	// the ERP's message.
	Write WriteState
}

// ListQuery asks for one page of a kind's records. The page is keyset-paged
// on (Sort, id): pass the previous page's Next cursor as After.
type ListQuery struct {
	Kind   string
	Sort   Column // a Sortable column; default ColTitle
	Desc   bool
	Filter Filter
	Text   string // when set, only records whose title or code contains it
	After  *Cursor
	Limit  int // 1..500
	// Fields names the document fields whose values the page reads into
	// each record's Extra; nil reads every one of the kind's.
	Fields []string
	// Columns names the promoted columns the page reads into each
	// record, besides its id and kind and the columns of its sort (which
	// the next cursor needs); nil reads every one, and ExternalID too.
	// A column not read is left at its zero value.
	Columns []Column
}

// ColID is a record's id: no field's column, but filterable, as an access
// rule's check of given records is (Guard).
const ColID Column = "id"

// ColModified is the last-modified time, sortable like a promoted column.
const ColModified Column = "modified_at"

// ColCurrency is the currency of a record's money (Record.Currency): no
// field's column, but read by a list that shows money (Kind.readNames).
const ColCurrency Column = "currency"

// Sortable reports whether lists may sort on promoted column c. Each such
// column has an index on (tenant, kind, column, id), so every sorted page
// is an index range; a reference sorts by the referenced record's name
// (parent_name, project_name), which the records table keeps beside its
// id. Document fields sort on an index of their own per kind (sqlstore's
// IndexDocumentFields): Field.Sortable says which.
func Sortable(c Column) bool {
	switch c {
	case ColTitle, ColCode, ColStatus, ColDate, ColAmount, ColModified, ColParent, ColProject:
		return true
	}
	return false
}

// Cursor marks the last row of a page: its sort key values and id.
type Cursor struct {
	Values []string `json:"v"`
	ID     int64    `json:"id"`
}

// Page is one page of records. Next is nil on the last page.
type Page struct {
	Records []Record
	HasMore bool
	Next    *Cursor
}

// SummaryQuery asks what a list's whole result counts and adds up.
type SummaryQuery struct {
	List  ListQuery // its kind, filter and text; its sort and page do not matter
	Count bool      // count the records
	Sum   []Field   // total these summable fields
}

// Summary is a list's whole result counted and totalled at bounded cost:
// exact for a list without filter or text (the store keeps each kind's
// count and sums) and for a result of at most SummaryExact records, else
// estimated from a sample of the kind's records and marked so.
type Summary struct {
	Total           int64
	TotalEstimated  bool
	Totals          map[string][]UnitTotal // by field name, per unit, in units (not hundredths)
	TotalsEstimated bool
}

// UnitTotal is a total of the values of one unit, never added to those of
// another: for money, Unit is the ISO 4217 code of their currency ("" the
// base currency); for a quantity per a unit field (Field.Per), that
// field's value ("" in records with none); "" for a quantity of one unit.
type UnitTotal struct {
	Unit  string  `json:"unit,omitempty"`
	Total float64 `json:"total"`
}

// UnitTotals lists totals by unit, "" first and then by unit; a lone
// zero total when there are none (nothing to add is a total of 0).
func UnitTotals(byUnit map[string]float64) []UnitTotal {
	if len(byUnit) == 0 {
		return []UnitTotal{{}}
	}
	out := make([]UnitTotal, 0, len(byUnit))
	for u, v := range byUnit {
		out = append(out, UnitTotal{Unit: u, Total: v})
	}
	slices.SortFunc(out, func(a, b UnitTotal) int { return strings.Compare(a.Unit, b.Unit) })
	return out
}

// SummaryExact is the most records a filtered list's count and totals
// are exact for; a larger result is estimated.
const SummaryExact = 2000
