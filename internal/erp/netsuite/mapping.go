package netsuite

import (
	"crypto/sha256"
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/portico/portico/internal/records"
)

// DefaultMapping is the mapping shipped for a standard account with the
// company's custom records (customrecord_res_*): mapping.yaml beside this
// file. An administrator copies it, adjusts it to the account and points
// PORTICO_NETSUITE_MAPPING at the copy.
//
//go:embed mapping.yaml
var DefaultMapping []byte

// Mapping says, per record kind, where the kind lives in the account: the
// record type of the REST record API, the SuiteQL table and condition it
// is read from, the column that holds the last-modified time, the columns
// that feed the promoted fields when their names differ, the internal ids
// of list values (for writes) and further columns kept in the document.
// It is configuration, not code: see mapping.yaml.
type Mapping struct {
	// TimeZone is the zone SuiteQL date-times are given in: the
	// integration role's user preference (NetSuite formats them in it).
	TimeZone string              `yaml:"timezone"`
	Kinds    map[string]*KindMap `yaml:"kinds"`
	loc      *time.Location
}

// KindMap is one kind's place in the account. Empty fields take the
// defaults ParseMapping documents.
type KindMap struct {
	// Off turns the kind off: the account does not use it, so it is not
	// synced and shows as off.
	Off        bool   `yaml:"off"`
	RecordType string `yaml:"recordType"` // REST record type; default: the registry's ERPType
	Table      string `yaml:"table"`      // SuiteQL table; default: lower-case RecordType
	Where      string `yaml:"where"`      // extra condition: column = 'literal'
	// Modified and Created are the SuiteQL last-modified and creation
	// columns; RecordModified the record API's last-modified field;
	// ExternalID the SuiteQL external id column. Defaults follow the
	// record family (see ParseMapping).
	Modified       string `yaml:"modified"`
	Created        string `yaml:"created"`
	RecordModified string `yaml:"recordModified"`
	ExternalID     string `yaml:"externalId"`
	DeletedType    string `yaml:"deletedType"` // DeletedRecord.type; default: lower-case RecordType
	// Currency is the column (SuiteQL's, and the record API field of the
	// same id) naming, by internal id, the currency of the kind's money:
	// a transaction's `currency`. Subsidiary is the one naming the
	// record's subsidiary, whose base currency its money is in where no
	// Currency is named: an entity's balance in a OneWorld account. With
	// neither, the kind's money is in the account's base currency
	// (custom records). Both are optional columns. When a kind with money
	// names neither, they follow its family: currency for a transaction,
	// subsidiary for an entity.
	Currency   string `yaml:"currency"`
	Subsidiary string `yaml:"subsidiary"`
	// Columns gives a field's SuiteQL column where it is not the field's
	// name: a column, or BUILTIN.DF(column) for a list's display text
	// (text fields only).
	Columns map[string]string `yaml:"columns"`
	// Fields gives a field's record API id where it is not the field's
	// name: standard fields are camel case (companyName), custom ones
	// lower case like the portal's names.
	Fields map[string]string `yaml:"fields"`
	// Optional fields may be missing from the account: their columns are
	// left out (the fields stay empty) and reported, never fatal.
	Optional []string `yaml:"optional"`
	// ReadOnly fields are read but never written (balances, system dates).
	ReadOnly []string `yaml:"readOnly"`
	// AccountFields are the account's own fields (custentity_…,
	// custbody_…, custrecord_…) added to the kind: with a label and a
	// type they are listed, filtered, sorted, shown and edited like the
	// kind's own (records.Registry.WithAccountFields). Each is read from the
	// SuiteQL column and written to the record API field of its name,
	// unless Columns and Fields say otherwise, and is optional.
	AccountFields []AccountField               `yaml:"accountFields"`
	Values        map[string]map[string]string `yaml:"values"`     // list field → display text → internal id
	Extra         []string                     `yaml:"extra"`      // more SuiteQL columns kept in the document (optional)
	ExtraDates    []string                     `yaml:"extraDates"` // more date columns, kept as yyyy-mm-dd (optional)
	kind          *records.Kind
	fields        []records.Field   // the kind's fields and its account fields
	optional      map[string]bool   // SuiteQL columns the account may lack
	owners        map[string]string // SuiteQL column → the mapping entry that names it
	version       string            // a digest of the entry, see Client.MappingVersion
}

// AccountField is one of the account's fields added to a kind.
type AccountField struct {
	Name    string            `yaml:"name"`    // the field id, lower case: custentity_res_county
	Label   string            `yaml:"label"`   // what people see
	Type    records.FieldType `yaml:"type"`    // text, date, money, quantity or status
	Choices []string          `yaml:"choices"` // a status field's values (ids in values, default 1, 2, …)
}

var (
	identifier = regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)
	recordType = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,99}$`)
	// displayOf is the one expression a column may be: a list's display
	// text.
	displayOf = regexp.MustCompile(`^(?i:builtin\.df)\(([a-z][a-z0-9_]{0,99})\)$`)
	// whereClause is the one condition form a mapping may add: enough
	// to pick transactions of one type out of the transaction table, and
	// simple enough to check completely.
	whereClause = regexp.MustCompile(`^([a-z][a-z0-9_]*) = '([A-Za-z0-9_]+)'$`)
)

// ParseMapping reads a mapping and checks it against the kind registry:
// every kind must be mapped (or off), every name must be a plain
// identifier (they are written into SuiteQL), and list values must name
// the field's choices. Defaults: RecordType = the kind's ERPType, Table
// and DeletedType = lower-case RecordType, ExternalID = externalid; for a
// custom record (customrecord_…) Modified = lastmodified, Created =
// created and RecordModified = lastModified, for the transaction table
// Created = createddate, otherwise Modified = lastmodifieddate, Created =
// datecreated and RecordModified = lastModifiedDate (NetSuite's Records
// Catalog and REST API Browser); for a kind with money that names neither
// Currency nor Subsidiary, Currency = currency on the transaction table
// and Subsidiary = subsidiary for other standard records (custom records:
// neither, the base currency); a list value's internal id = its position
// in the field's choices (from 1).
func ParseMapping(data []byte) (*Mapping, error) {
	var m Mapping
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("netsuite mapping: %w", err)
	}
	if m.TimeZone == "" {
		m.TimeZone = "UTC"
	}
	loc, err := time.LoadLocation(m.TimeZone)
	if err != nil {
		return nil, fmt.Errorf("netsuite mapping: timezone %q: %w", m.TimeZone, err)
	}
	m.loc = loc
	for name := range m.Kinds {
		if _, ok := records.Lookup(name); !ok {
			return nil, fmt.Errorf("netsuite mapping: unknown kind %q", name)
		}
	}
	for _, k := range records.All() {
		km := m.Kinds[k.Name]
		if km == nil {
			return nil, fmt.Errorf("netsuite mapping: kind %q is not mapped", k.Name)
		}
		if err := km.complete(k); err != nil {
			return nil, fmt.Errorf("netsuite mapping: kind %s: %w", k.Name, err)
		}
	}
	return &m, nil
}

func (km *KindMap) complete(k *records.Kind) error {
	km.kind = k
	km.fields = slices.Clone(k.Fields)
	for _, af := range km.AccountFields {
		f := records.AccountField(af.Name, af.Label, af.Type, af.Choices)
		km.Optional = append(km.Optional, f.Name)
		if have, ok := k.FieldNamed(f.Name); ok && have.Account && have.Type == f.Type {
			continue // the registry has it already (added from this mapping)
		}
		if err := k.CheckAccountField(f); err != nil {
			return fmt.Errorf("accountFields: %w", err)
		}
		if slices.ContainsFunc(km.fields, func(g records.Field) bool { return g.Name == f.Name }) {
			return fmt.Errorf("accountFields: %s is listed twice", f.Name)
		}
		km.fields = append(km.fields, f)
	}
	if km.RecordType == "" {
		km.RecordType = k.ERPType
	}
	if km.Table == "" {
		km.Table = strings.ToLower(km.RecordType)
	}
	custom := strings.HasPrefix(strings.ToLower(km.RecordType), "customrecord")
	def := func(v *string, customDefault, standard string) {
		if *v == "" {
			*v = standard
			if custom {
				*v = customDefault
			}
		}
	}
	def(&km.Modified, "lastmodified", "lastmodifieddate")
	def(&km.RecordModified, "lastModified", "lastModifiedDate")
	if km.Table == "transaction" {
		def(&km.Created, "created", "createddate")
	}
	def(&km.Created, "created", "datecreated")
	def(&km.ExternalID, "externalid", "externalid")
	// Where a kind's money's currency comes from, when the mapping names
	// neither column (a copy of a mapping older than currencies): a
	// transaction's own currency, an entity's subsidiary's base
	// currency; a custom record's money is in the base currency.
	money := func(f records.Field) bool { return f.Type == records.TypeMoney }
	if km.Currency == "" && km.Subsidiary == "" &&
		(slices.ContainsFunc(k.AllFields(), money) || slices.ContainsFunc(km.fields, money)) {
		switch family(km.Table, km.RecordType) {
		case "transaction":
			km.Currency = "currency"
		case "entity":
			km.Subsidiary = "subsidiary"
		}
	}
	if km.DeletedType == "" {
		km.DeletedType = strings.ToLower(km.RecordType)
	}
	if !recordType.MatchString(km.RecordType) {
		return fmt.Errorf("recordType %q is not a record type name", km.RecordType)
	}
	if !identifier.MatchString(strings.ToLower(km.RecordModified)) {
		return fmt.Errorf("recordModified %q is not a record field id", km.RecordModified)
	}
	km.optional = map[string]bool{km.Created: true, km.ExternalID: true}
	km.owners = map[string]string{km.Table: "recordType/table", km.Modified: "modified", km.Created: "created",
		km.ExternalID: "externalId"}
	names := []string{km.Table, km.Modified, km.Created, km.ExternalID, km.DeletedType}
	for _, money := range []struct{ col, entry string }{{km.Currency, "currency"}, {km.Subsidiary, "subsidiary"}} {
		if money.col != "" {
			km.optional[money.col] = true
			km.owners[money.col] = money.entry
			names = append(names, money.col)
		}
	}
	for field, col := range km.Columns {
		f, ok := km.fieldNamed(field)
		if !ok {
			return fmt.Errorf("columns: %q is not a field of the kind", field)
		}
		if m := displayOf.FindStringSubmatch(col); m != nil {
			if f.Type != records.TypeText {
				return fmt.Errorf("columns: %s: BUILTIN.DF gives text; %s is a %s field", field, field, f.Type)
			}
			col = m[1]
		}
		names = append(names, col)
	}
	for field, rf := range km.Fields {
		if _, ok := km.fieldNamed(field); !ok {
			return fmt.Errorf("fields: %q is not a field of the kind", field)
		}
		if !identifier.MatchString(strings.ToLower(rf)) {
			return fmt.Errorf("fields: %q is not a record field id", rf)
		}
	}
	for _, list := range [][]string{km.Optional, km.ReadOnly} {
		for _, field := range list {
			if _, ok := km.fieldNamed(field); !ok {
				return fmt.Errorf("optional/readOnly: %q is not a field of the kind", field)
			}
		}
	}
	for _, f := range km.fields {
		col := km.SourceColumn(f.Name)
		km.owners[col] = "columns." + f.Name
		if slices.Contains(km.Optional, f.Name) {
			if f.Column == records.ColTitle {
				return fmt.Errorf("optional: %s is the title; every record needs one", f.Name)
			}
			km.optional[col] = true
		}
	}
	for _, x := range slices.Concat(km.Extra, km.ExtraDates) {
		km.optional[x] = true
		km.owners[x] = "extra"
	}
	names = append(names, km.Extra...)
	names = append(names, km.ExtraDates...)
	for _, n := range names {
		if !identifier.MatchString(n) {
			return fmt.Errorf("%q is not a lower-case SuiteQL name", n)
		}
	}
	if km.Where != "" && !whereClause.MatchString(km.Where) {
		return fmt.Errorf("where %q: only column = 'value' is allowed", km.Where)
	}
	if km.Values == nil {
		km.Values = map[string]map[string]string{}
	}
	// A status field, promoted or in the document (a bill's approval
	// status), is written as its list value's id.
	for _, f := range slices.Concat(km.fields, k.Document) {
		if f.Type != records.TypeStatus {
			continue
		}
		vals := km.Values[f.Name]
		if vals == nil {
			vals = map[string]string{}
			km.Values[f.Name] = vals
		}
		for text := range vals {
			if !slices.Contains(f.Choices, text) {
				return fmt.Errorf("values of %s: %q is not one of its choices", f.Name, text)
			}
		}
		for i, c := range f.Choices {
			if _, ok := vals[c]; !ok {
				vals[c] = strconv.Itoa(i + 1)
			}
		}
	}
	b, _ := yaml.Marshal(km)
	km.version = fmt.Sprintf("%x", sha256.Sum256(b))[:16]
	return nil
}

// fieldNamed finds a field of the kind or of its account fields.
func (km *KindMap) fieldNamed(name string) (records.Field, bool) {
	for _, f := range km.fields {
		if f.Name == name {
			return f, true
		}
	}
	return records.Field{}, false
}

// AccountFields returns the account fields the mapping adds to kind, for
// records.Registry.WithAccountFields.
func (m *Mapping) AccountFields(kind string) []records.Field {
	km := m.Kinds[kind]
	if km == nil {
		return nil
	}
	var out []records.Field
	for _, f := range km.fields {
		if f.Account {
			out = append(out, f)
		}
	}
	return out
}

// Registry is the kinds of a tenant whose account this mapping maps: the
// code's, plus the account fields it declares.
func (m *Mapping) Registry() (*records.Registry, error) {
	return records.Code().WithAccountFields(m.AccountFields)
}

// Kind returns the mapping of a registry kind (every kind is mapped once
// ParseMapping succeeded).
func (m *Mapping) Kind(k *records.Kind) *KindMap { return m.Kinds[k.Name] }

// Location is the time zone SuiteQL date-times are read and written in.
func (m *Mapping) Location() *time.Location { return m.loc }

// Column returns the SuiteQL column, or BUILTIN.DF(column), that holds a
// promoted field.
func (km *KindMap) Column(field string) string {
	if c, ok := km.Columns[field]; ok {
		return c
	}
	return field
}

// SourceColumn returns the table column a promoted field is read from
// (the column inside BUILTIN.DF).
func (km *KindMap) SourceColumn(field string) string {
	c := km.Column(field)
	if m := displayOf.FindStringSubmatch(c); m != nil {
		return m[1]
	}
	return c
}

// MayLack reports whether the account may lack a SuiteQL column of the
// kind: an optional field's, an extra, the created or external id column.
func (km *KindMap) MayLack(column string) bool { return km.optional[column] }

// Owner names the mapping entry that put a column into the kind's
// queries (columns.balance, extra, modified, …), for messages that say
// what to fix.
func (km *KindMap) Owner(column string) string { return km.owners[column] }

// Writable reports whether a field is sent on writes (not read-only).
func (km *KindMap) Writable(field string) bool { return !slices.Contains(km.ReadOnly, field) }

// RecordField returns the REST record API field that holds a promoted
// field.
func (km *KindMap) RecordField(field string) string {
	if f, ok := km.Fields[field]; ok {
		return f
	}
	return field
}

// ValueID returns the internal id of a list field's display text.
func (km *KindMap) ValueID(field, text string) (string, bool) {
	id, ok := km.Values[field][text]
	return id, ok
}

// TypeFilter splits Where into its column and value ("" when there is no
// condition).
func (km *KindMap) TypeFilter() (column, value string) {
	m := whereClause.FindStringSubmatch(km.Where)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}
