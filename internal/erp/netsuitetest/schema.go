package netsuitetest

import (
	"strings"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/records"
)

// Schema is what the fake knows about the account's record types,
// derived from a connector mapping so that the fake answers exactly the
// tables, columns and lists the connector is configured to read.
type Schema struct {
	// Types holds one entry per REST record type (job, vendorBill, ...).
	Types map[string]*TypeSchema
	// Location is the account time zone: SuiteQL date-times are written
	// and read in it.
	Location *time.Location
}

// TypeSchema is one record type's place in the account.
type TypeSchema struct {
	RecordType string        // REST record type, e.g. vendorBill
	Kind       *records.Kind // the portal kind mapped to it
	Table      string        // SuiteQL table, e.g. transaction
	// TypeColumn and TypeValue tell this type's rows apart in a table
	// several types share (type = 'VendBill'); both "" when the table
	// holds this type only.
	TypeColumn, TypeValue string
	// Modified is the mapping's last-modified column. The fake also
	// accepts lastmodifieddate and lastmodified: in every table both
	// mean the record's Modified time.
	Modified string
	// DeletedType is the recordtype of this type's rows in deletedrecord.
	DeletedType string
	// Aliases maps SuiteQL columns to record fields where the name is
	// not simply the lower-cased field name (foreigntotal → total).
	Aliases map[string]string
	// Refs maps reference fields to the record type they point at.
	Refs map[string]string
	// Lists maps list fields to their values: internal id → display text.
	Lists map[string]map[string]string
	// TitleField is the field whose value is the record's display name:
	// the refName of references to it.
	TitleField string
	// Columns are the SuiteQL columns the mapping reads (promoted fields
	// and extras): valid even while no record of the type holds them.
	Columns []string
	// renames maps the portal's field names to record fields where they
	// differ (a project's customer is its parent), for demo documents.
	renames map[string]string
}

// SchemaFrom derives the fake's schema from a connector mapping (one that
// ParseMapping accepted, so every kind is mapped and complete).
func SchemaFrom(m *netsuite.Mapping) Schema {
	s := Schema{Types: map[string]*TypeSchema{}, Location: m.Location()}
	for _, k := range records.All() {
		km := m.Kind(k)
		col, val := km.TypeFilter()
		ts := &TypeSchema{
			RecordType: km.RecordType, Kind: k, Table: km.Table,
			TypeColumn: col, TypeValue: val, Modified: km.Modified, DeletedType: km.DeletedType,
			Aliases: map[string]string{}, Refs: map[string]string{}, Lists: map[string]map[string]string{},
			renames: map[string]string{},
		}
		for _, f := range k.Fields {
			rf := km.RecordField(f.Name)
			c := km.Column(f.Name)
			if rf != f.Name {
				ts.renames[f.Name] = rf
			}
			if c != strings.ToLower(rf) {
				ts.Aliases[c] = rf
			}
			ts.Columns = append(ts.Columns, c)
			switch f.Type {
			case records.TypeRef:
				target, _ := records.Lookup(f.Ref)
				ts.Refs[rf] = m.Kind(target).RecordType
			case records.TypeStatus:
				ids := map[string]string{}
				for text, id := range km.Values[f.Name] {
					ids[id] = text
				}
				ts.Lists[rf] = ids
			}
			if f.Column == records.ColTitle {
				ts.TitleField = rf
			}
		}
		ts.Columns = append(ts.Columns, km.Extra...)
		s.Types[ts.RecordType] = ts
	}
	return s
}
