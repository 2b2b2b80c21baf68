package netsuitetest

import (
	_ "embed"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// DefaultAccount is the fake account's schema: account.yaml beside this
// file, written from NetSuite's documentation with the source of each
// fact noted there — never derived from the connector's mapping, so that
// the connector's mistakes about NetSuite fail its tests.
//
//go:embed account.yaml
var DefaultAccount []byte

// Family is the kind of record type, which decides its system fields.
type Family string

// The record families and their system fields (account.yaml's sources
// [3], [5] and [6]).
const (
	FamilyEntity      Family = "entity"      // customer, vendor, job, employee, …
	FamilyTransaction Family = "transaction" // invoice, vendorBill: one shared table
	FamilyCustom      Family = "custom"      // customrecord_*
)

// system holds a family's system column and field names.
type system struct {
	modColumn, createdColumn string // SuiteQL
	modField, createdField   string // record API
}

var systems = map[Family]system{
	FamilyEntity:      {"lastmodifieddate", "datecreated", "lastModifiedDate", "dateCreated"},
	FamilyTransaction: {"lastmodifieddate", "createddate", "lastModifiedDate", "createdDate"},
	FamilyCustom:      {"lastmodified", "created", "lastModified", "created"},
}

// TransactionTable is the one SuiteQL table of every transaction type, and
// TypeColumn the column that tells the types apart.
const (
	TransactionTable = "transaction"
	TypeColumn       = "type"
)

// The field types of account.yaml.
const (
	FieldText    = "text"
	FieldNumber  = "number"
	FieldBool    = "bool"
	FieldDate    = "date"
	FieldList    = "list"    // Arg: the list's name in Schema.Lists
	FieldRef     = "ref"     // Arg: the record type referred to
	FieldSelect  = "select"  // a reference to a record type the fake does not hold; Arg: currency or subsidiary when it is one of those tables
	FieldSublist = "sublist" // an array of lines
)

// Field is one field of a record type.
type Field struct {
	ID       string // the record API field id: companyName, custentity_res_county
	Column   string // the SuiteQL column; "" when SuiteQL does not have it
	Type     string // one of the Field* types
	Arg      string // the list or record type of list and ref fields
	ReadOnly bool   // the record API refuses to set it
	Label    string // the field's label in the account
}

// Custom reports whether the field is the account's own (custentity_…,
// custbody_…, custrecord_…).
func (f *Field) Custom() bool { return strings.HasPrefix(f.ID, "cust") }

// Schema is what the fake knows about the account: its record types and
// lists, its currencies and subsidiaries.
type Schema struct {
	// Types holds one entry per REST record type (job, vendorBill, …).
	Types map[string]*TypeSchema
	// Lists maps a list's name to its values: internal id → text.
	Lists map[string]map[string]string
	// Currencies are the rows of SuiteQL's currency table, Subsidiaries
	// those of its subsidiary table (account.yaml's [9], [10]). An
	// account without subsidiaries (not OneWorld) has no subsidiary
	// table; one without currencies none of either. A test may replace
	// them before New (a euro account, a subsidiary in pounds).
	Currencies   []Currency
	Subsidiaries []Subsidiary
}

// Currency is a row of SuiteQL's currency table (account.yaml's [9]).
type Currency struct {
	ID            int64   `yaml:"-"`
	Name          string  `yaml:"name"`          // US Dollar
	Symbol        string  `yaml:"symbol"`        // the ISO 4217 code: USD
	DisplaySymbol string  `yaml:"displaySymbol"` // $
	ExchangeRate  float64 `yaml:"exchangeRate"`  // base currency units per unit of this one
	// Base marks the base currency of an account without subsidiaries.
	// With subsidiaries, isbasecurrency is true for every subsidiary's
	// base currency, and the account's own is the root subsidiary's.
	Base     bool `yaml:"base"`
	Inactive bool `yaml:"inactive"`
}

// Subsidiary is a row of SuiteQL's subsidiary table (account.yaml's
// [10]), and its record in the record API (GET /record/v1/subsidiary/{id},
// [16]), which has the fields after Inactive too.
type Subsidiary struct {
	ID       int64  `yaml:"-"`
	Name     string `yaml:"name"`
	Parent   int64  `yaml:"parent"`   // 0 for the root
	Currency int64  `yaml:"currency"` // its base currency's id
	Inactive bool   `yaml:"inactive"`
	// LegalName is the record's legalName [16]; FederalIDNumber its
	// federalIdNumber, the tax identification number [18].
	LegalName       string `yaml:"legalName"`
	FederalIDNumber string `yaml:"federalIdNumber"`
	// MainAddress is the record's mainAddress subrecord [16][17]; nil
	// when the subsidiary has none.
	MainAddress *Address `yaml:"mainAddress"`
}

// Address is an address subrecord as the record API gives it (account.yaml's
// [17], [18]): each member under its record API id, "" members absent.
type Address struct {
	Addressee string `yaml:"addressee" json:"addressee,omitempty"`
	Attention string `yaml:"attention" json:"attention,omitempty"`
	Addr1     string `yaml:"addr1" json:"addr1,omitempty"`
	Addr2     string `yaml:"addr2" json:"addr2,omitempty"`
	Addr3     string `yaml:"addr3" json:"addr3,omitempty"`
	City      string `yaml:"city" json:"city,omitempty"`
	State     string `yaml:"state" json:"state,omitempty"`
	Zip       string `yaml:"zip" json:"zip,omitempty"`
	Country   string `yaml:"country" json:"country,omitempty"` // an ISO 3166-1 alpha-2 code: US
	AddrPhone string `yaml:"addrPhone" json:"addrPhone,omitempty"`
}

// TypeSchema is one record type.
type TypeSchema struct {
	RecordType string // REST record type, e.g. vendorBill
	Family     Family
	Table      string // SuiteQL table, e.g. transaction
	// TypeValue is this type's value of the transaction table's type
	// column (VendBill); "" outside transactions.
	TypeValue string
	Title     string // the field whose value is the record's display name
	Fields    []*Field
	byID      map[string]*Field // exact record API id
	byLower   map[string]*Field // lower-cased id, for seeding
	byColumn  map[string]*Field // SuiteQL column
}

// ModifiedColumn and the rest name the type's system fields.
func (ts *TypeSchema) ModifiedColumn() string { return systems[ts.Family].modColumn }

// CreatedColumn is the SuiteQL creation-time column.
func (ts *TypeSchema) CreatedColumn() string { return systems[ts.Family].createdColumn }

// ModifiedField is the record API's last-modified field.
func (ts *TypeSchema) ModifiedField() string { return systems[ts.Family].modField }

// CreatedField is the record API's creation-time field.
func (ts *TypeSchema) CreatedField() string { return systems[ts.Family].createdField }

// DeletedType is the type's value of DeletedRecord.type.
func (ts *TypeSchema) DeletedType() string { return strings.ToLower(ts.RecordType) }

// Field returns the field with record API id id (exact case).
func (ts *TypeSchema) Field(id string) (*Field, bool) {
	f, ok := ts.byID[id]
	return f, ok
}

// schemaFile is account.yaml as written.
type schemaFile struct {
	Lists        map[string]map[string]string `yaml:"lists"`
	Currencies   map[int64]Currency           `yaml:"currencies"`
	Subsidiaries map[int64]Subsidiary         `yaml:"subsidiaries"`
	RecordTypes  map[string]struct {
		Family    Family    `yaml:"family"`
		TypeValue string    `yaml:"typeValue"`
		Title     string    `yaml:"title"`
		Fields    yaml.Node `yaml:"fields"` // a node, to keep the file's order
	} `yaml:"recordTypes"`
}

// LoadSchema reads an account schema in account.yaml's format. without
// names record types ("customrecord_res_billing") and fields
// ("job.custentity_res_county") the account lacks: a leaner account from
// the same file.
func LoadSchema(data []byte, without ...string) (*Schema, error) {
	var f schemaFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("netsuitetest: account schema: %w", err)
	}
	drop := map[string]bool{}
	for _, w := range without {
		drop[w] = true
	}
	s := &Schema{Types: map[string]*TypeSchema{}, Lists: f.Lists}
	for _, id := range slices.Sorted(maps.Keys(f.Currencies)) {
		c := f.Currencies[id]
		c.ID = id
		s.Currencies = append(s.Currencies, c)
	}
	for _, id := range slices.Sorted(maps.Keys(f.Subsidiaries)) {
		sub := f.Subsidiaries[id]
		sub.ID = id
		s.Subsidiaries = append(s.Subsidiaries, sub)
	}
	if err := s.checkMoney(); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(f.RecordTypes)) {
		if drop[name] {
			continue
		}
		rt := f.RecordTypes[name]
		ts := &TypeSchema{RecordType: name, Family: rt.Family, TypeValue: rt.TypeValue, Title: rt.Title,
			byID: map[string]*Field{}, byLower: map[string]*Field{}, byColumn: map[string]*Field{}}
		switch rt.Family {
		case FamilyEntity, FamilyCustom:
			ts.Table = strings.ToLower(name)
		case FamilyTransaction:
			ts.Table = TransactionTable
			if rt.TypeValue == "" {
				return nil, fmt.Errorf("netsuitetest: %s: a transaction needs its typeValue", name)
			}
		default:
			return nil, fmt.Errorf("netsuitetest: %s: unknown family %q", name, rt.Family)
		}
		if rt.Fields.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("netsuitetest: %s: fields must be a mapping", name)
		}
		for i := 0; i+1 < len(rt.Fields.Content); i += 2 {
			id, spec := rt.Fields.Content[i].Value, rt.Fields.Content[i+1].Value
			if drop[name+"."+id] {
				continue
			}
			fd, err := parseField(id, spec)
			if err != nil {
				return nil, fmt.Errorf("netsuitetest: %s.%s: %w", name, id, err)
			}
			if fd.Type == FieldList && f.Lists[fd.Arg] == nil {
				return nil, fmt.Errorf("netsuitetest: %s.%s: no list %q", name, id, fd.Arg)
			}
			if fd.Type == FieldSelect && fd.Arg != "" && fd.Arg != TableCurrency && fd.Arg != TableSubsidiary {
				return nil, fmt.Errorf("netsuitetest: %s.%s: a select names currency, subsidiary or nothing, not %q", name, id, fd.Arg)
			}
			ts.Fields = append(ts.Fields, fd)
			ts.byID[fd.ID] = fd
			ts.byLower[strings.ToLower(fd.ID)] = fd
			if fd.Column != "" {
				ts.byColumn[fd.Column] = fd
			}
		}
		if _, ok := ts.byID[ts.Title]; !ok {
			return nil, fmt.Errorf("netsuitetest: %s: title %q is not one of its fields", name, ts.Title)
		}
		s.Types[name] = ts
	}
	for _, ts := range s.Types {
		for _, fd := range ts.Fields {
			if fd.Type == FieldRef && s.Types[fd.Arg] == nil {
				// A reference to a type the account lacks is a select.
				fd.Type, fd.Arg = FieldSelect, ""
			}
		}
	}
	return s, nil
}

// The SuiteQL tables the fake serves from Schema's currencies and
// subsidiaries rather than from records.
const (
	TableCurrency   = "currency"
	TableSubsidiary = "subsidiary"
)

// checkMoney checks that subsidiaries name currencies and parents the
// account has, and that one of them is the root.
func (s *Schema) checkMoney() error {
	ids := map[int64]bool{}
	for _, c := range s.Currencies {
		if c.Symbol == "" || c.Name == "" {
			return fmt.Errorf("netsuitetest: currency %d needs a name and a symbol (its ISO code)", c.ID)
		}
		ids[c.ID] = true
	}
	subs := map[int64]bool{}
	for _, sub := range s.Subsidiaries {
		subs[sub.ID] = true
	}
	roots := 0
	for _, sub := range s.Subsidiaries {
		if !ids[sub.Currency] {
			return fmt.Errorf("netsuitetest: subsidiary %d: no currency %d", sub.ID, sub.Currency)
		}
		if sub.Parent == 0 {
			roots++
		} else if !subs[sub.Parent] {
			return fmt.Errorf("netsuitetest: subsidiary %d: no parent %d", sub.ID, sub.Parent)
		}
	}
	if len(s.Subsidiaries) > 0 && roots != 1 {
		return fmt.Errorf("netsuitetest: %d root subsidiaries: a OneWorld account has one", roots)
	}
	return nil
}

// parseField reads "type [arg] [options] [| Label]".
func parseField(id, spec string) (*Field, error) {
	spec, label, _ := strings.Cut(spec, "|")
	words := strings.Fields(spec)
	if len(words) == 0 {
		return nil, fmt.Errorf("no type")
	}
	fd := &Field{ID: id, Column: strings.ToLower(id), Type: words[0], Label: strings.TrimSpace(label)}
	words = words[1:]
	switch fd.Type {
	case FieldList, FieldRef:
		if len(words) == 0 {
			return nil, fmt.Errorf("%s needs its %s", fd.Type, map[string]string{FieldList: "list", FieldRef: "record type"}[fd.Type])
		}
		fd.Arg, words = words[0], words[1:]
	case FieldSelect:
		if len(words) > 0 && words[0] != "nocolumn" && words[0] != "readonly" && !strings.HasPrefix(words[0], "column=") {
			fd.Arg, words = words[0], words[1:]
		}
	case FieldText, FieldNumber, FieldBool, FieldDate, FieldSublist:
	default:
		return nil, fmt.Errorf("unknown type %q", fd.Type)
	}
	if fd.Type == FieldSublist {
		fd.Column = ""
	}
	for _, w := range words {
		switch {
		case w == "nocolumn":
			fd.Column = ""
		case w == "readonly":
			fd.ReadOnly = true
		case strings.HasPrefix(w, "column="):
			fd.Column = strings.TrimPrefix(w, "column=")
		default:
			return nil, fmt.Errorf("unknown option %q", w)
		}
	}
	if fd.Label == "" {
		fd.Label = id
	}
	return fd, nil
}
