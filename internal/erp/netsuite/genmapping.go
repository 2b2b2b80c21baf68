package netsuite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/records"
)

// transactionTypes are the values of SuiteQL's transaction.type for the
// REST record types of transactions (NetSuite Help, "transaction" in the
// Records Catalog): every transaction type shares the table transaction.
// Keys are lower case.
var transactionTypes = map[string]string{
	"invoice":             "CustInvc",
	"vendorbill":          "VendBill",
	"vendorcredit":        "VendCred",
	"vendorpayment":       "VendPymt",
	"creditmemo":          "CustCred",
	"customerpayment":     "CustPymt",
	"cashsale":            "CashSale",
	"salesorder":          "SalesOrd",
	"purchaseorder":       "PurchOrd",
	"estimate":            "Estimate",
	"journalentry":        "Journal",
	"expensereport":       "ExpRept",
	"returnauthorization": "RtnAuth",
}

// knownColumns are SuiteQL columns NetSuite names differently from the
// record API, tried when a field's own name is not a column: a
// transaction's amount in its own currency is foreigntotal, and a
// project's customer is its parent entity.
var knownColumns = map[string]string{
	"transaction.total": "foreigntotal",
	"job.customer":      "parent",
}

// knownFields are record API ids the catalog cannot match by name: a
// project's customer is its parent.
var knownFields = map[string]string{
	"job.customer": "parent",
}

// GenerateMapping writes a starting mapping for the account: for each
// kind, the registry's record type looked up in the record API's metadata
// catalog, and its SuiteQL table and columns probed. Fields whose record
// API id differs from the portal's name in case only are mapped under
// fields; fields the account lacks (no record API field, or no SuiteQL
// column) are optional, and read-only with the fields NetSuite marks
// read-only; a record type the account lacks is off. Custom fields the
// mapping leaves unused are listed in a comment, as candidates for
// accountFields or extra.
// The time zone is the one SuiteQL's last-modified times show against the
// record API's (UTC) on a few records of each family, with a comment
// saying what was measured (see zoneEntry). The result parses with
// ParseMapping; list values are left at their defaults for the
// administrator to set.
//
// It returns an error only when NetSuite cannot be reached or refuses the
// credentials.
func (c *Client) GenerateMapping(ctx context.Context) ([]byte, error) {
	kinds := records.All()
	out := make([]*genKind, len(kinds))

	// One kind first: when the credentials or the network fail, that is
	// the answer.
	first, err := c.genKind(ctx, kinds[0])
	if err != nil {
		return nil, fmt.Errorf("netsuite mapping: %w", err)
	}
	out[0] = first
	errs := make([]error, len(kinds))
	var tasks []func()
	for i, k := range kinds[1:] {
		tasks = append(tasks, func() { out[i+1], errs[i+1] = c.genKind(ctx, k) })
	}
	c.parallel(tasks)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("netsuite mapping: %w", err)
	}
	// The zone: SuiteQL's last-modified times against the record API's,
	// on records of each family.
	var stamps []stamp
	for _, fam := range families {
		i := slices.IndexFunc(out, func(g *genKind) bool { return g.off == "" && family(g.table, g.recordType) == fam })
		if i < 0 {
			continue
		}
		st, err := c.sampleTimes(ctx, out[i].spec, zoneSamples+1)
		if err != nil {
			return nil, fmt.Errorf("netsuite mapping: %w", err)
		}
		stamps = append(stamps, st...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# A starting mapping for NetSuite account %s, written by
# `+"`portico netsuite mapping`"+` from the account's metadata catalog and
# SuiteQL. See internal/erp/netsuite/mapping.yaml for what each entry
# means. Before using it: set each list field's values (display text →
# internal id, from Customization > Lists) where they are not the
# choices' positions, name the columns of fields marked optional that the
# account has under another name, and add the custom fields you want to
# accountFields or extra. Then run `+"`portico netsuite check`"+`.

%s
kinds:
`, c.cfg.Account, zoneEntry(stamps))
	for _, g := range out {
		g.write(&b)
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n"), nil
}

// genKind is what GenerateMapping found for one kind.
type genKind struct {
	k          *records.Kind
	off        string // why the kind is off; "" when it is on
	recordType string
	table      string
	where      string
	modified   string            // when not the family's default
	currency   string            // the column naming the currency of the kind's money
	subsidiary string            // the column naming the subsidiary whose base currency it is in
	recordMod  string            // when not the family's default
	fields     map[string]string // portal name → record API id, where they differ
	columns    map[string]string // portal name → SuiteQL column, where they differ
	optional   []string
	readOnly   []string
	notes      []string // comments: what is missing and why
	unused     []string // comment lines: custom fields not mapped
	spec       stampSpec
}

// genKind looks one kind up. Its error is for an account that cannot be
// reached; what the account lacks is in the result.
func (c *Client) genKind(ctx context.Context, k *records.Kind) (*genKind, error) {
	g := &genKind{k: k, recordType: k.ERPType, fields: map[string]string{}, columns: map[string]string{}}
	g.table = strings.ToLower(k.ERPType)
	if code, ok := transactionTypes[strings.ToLower(k.ERPType)]; ok {
		g.table, g.where = "transaction", "type = '"+code+"'"
	}
	cg, err := c.catalog(ctx, k.ERPType)
	if err != nil {
		if unreachable(err) {
			return nil, err
		}
		g.off = "the record API does not know " + k.ERPType + " (" + netsuiteText(err) + ")"
		if e, ok := errors.AsType[*erp.Error](err); ok && e.Status == http.StatusNotFound {
			g.off = "this account has no record type " + k.ERPType
		}
		return g, nil
	}
	q := "SELECT id FROM " + g.table
	if g.where != "" {
		q += " WHERE " + g.where
	}
	if _, err := c.suiteQL(ctx, q, 1, 0); err != nil {
		if unreachable(err) {
			return nil, err
		}
		g.off = "SuiteQL cannot read table " + g.table + " (" + netsuiteText(err) + ")"
		return g, nil
	}
	// has reports whether the table has a column; an error other than
	// an unknown name counts as having it (the check reports it).
	has := func(col string) (bool, error) {
		_, err := c.suiteQL(ctx, "SELECT "+col+" FROM "+g.table, 1, 0)
		if err == nil {
			return true, nil
		}
		if unreachable(err) {
			return false, err
		}
		missing, _ := missingName(err)
		return missing == "", nil
	}
	used := map[string]bool{}
	for _, f := range k.Fields {
		if f.Account {
			continue // added by a configured mapping, not the registry's
		}
		id := cg.fold(f.Name)
		if id == "" {
			if known, ok := knownFields[g.table+"."+f.Name]; ok {
				if _, ok := cg.Properties[known]; ok {
					id = known
				}
			}
		}
		if id != "" && id != f.Name {
			g.fields[f.Name] = id
		}
		used[strings.ToLower(id)] = true
		col := f.Name
		ok, err := has(col)
		if err != nil {
			return nil, err
		}
		if known := knownColumns[g.table+"."+f.Name]; !ok && known != "" {
			if ok, err = has(known); err != nil {
				return nil, err
			}
			if ok {
				col = known
				g.columns[f.Name] = col
			}
		}
		var lacks []string
		if id == "" {
			lacks = append(lacks, "no record API field "+f.Name)
		}
		if !ok {
			lacks = append(lacks, "no SuiteQL column "+col)
		}
		switch {
		case len(lacks) > 0 && f.Column == records.ColTitle:
			g.notes = append(g.notes, fmt.Sprintf("%s: %s; it is the title, which every record needs: map it under fields/columns",
				f.Name, strings.Join(lacks, ", ")))
		case len(lacks) > 0:
			g.optional = append(g.optional, f.Name)
			g.notes = append(g.notes, fmt.Sprintf("%s: %s", f.Name, strings.Join(lacks, ", ")))
		}
		if id == "" || cg.Properties[id].ReadOnly {
			g.readOnly = append(g.readOnly, f.Name)
		}
	}
	// The system names: the family's defaults (ParseMapping), else
	// another family's, when that is what the account has.
	def := &KindMap{RecordType: g.recordType, Table: g.table}
	if err := def.complete(k); err != nil {
		return nil, err
	}
	if _, ok := cg.Properties[def.RecordModified]; !ok {
		for _, alt := range []string{"lastModifiedDate", "lastModified"} {
			if _, ok := cg.Properties[alt]; ok {
				g.recordMod = alt
				break
			}
		}
		if g.recordMod == "" {
			g.notes = append(g.notes, "recordModified: the catalog has no "+def.RecordModified+": name the last-modified field")
		}
	}
	if ok, err := has(def.Modified); err != nil {
		return nil, err
	} else if !ok {
		for _, alt := range []string{"lastmodifieddate", "lastmodified"} {
			if ok, err := has(alt); err != nil {
				return nil, err
			} else if ok && alt != def.Modified {
				g.modified = alt
				break
			}
		}
		if g.modified == "" {
			g.notes = append(g.notes, "modified: SuiteQL has no "+def.Modified+": name the last-modified column")
		}
	}
	used[strings.ToLower(def.RecordModified)] = true
	// Where the kind's money's currency comes from: a transaction's own
	// currency; an entity's subsidiary's base currency; custom records
	// are in the base currency.
	if slices.ContainsFunc(k.AllFields(), func(f records.Field) bool { return f.Type == records.TypeMoney }) {
		switch family(g.table, g.recordType) {
		case "transaction":
			if ok, err := has("currency"); err != nil {
				return nil, err
			} else if ok {
				g.currency = "currency"
			}
		case "entity":
			if ok, err := has("subsidiary"); err != nil {
				return nil, err
			} else if ok {
				g.subsidiary = "subsidiary"
			}
		}
	}
	g.spec = stampSpec{kind: k.Name, table: g.table, where: g.where, modified: cmp.Or(g.modified, def.Modified),
		recordType: g.recordType, recordModified: cmp.Or(g.recordMod, def.RecordModified)}
	for _, id := range slices.Sorted(maps.Keys(cg.Properties)) {
		p := cg.Properties[id]
		if !p.Custom || used[strings.ToLower(id)] || !identifier.MatchString(strings.ToLower(id)) {
			continue
		}
		typ := p.Type
		if p.Format != "" {
			typ += ", " + p.Format
		}
		g.unused = append(g.unused, fmt.Sprintf("%-36s %s (%s)", id, oneLine(p.Title), typ))
	}
	return g, nil
}

// write appends the kind's entry.
func (g *genKind) write(b *strings.Builder) {
	fmt.Fprintf(b, "  %s:\n", g.k.Name)
	if g.off != "" {
		fmt.Fprintf(b, "    # %s\n    off: true\n    recordType: %s\n\n", oneLine(g.off), g.recordType)
		return
	}
	fmt.Fprintf(b, "    recordType: %s\n", g.recordType)
	if g.table != strings.ToLower(g.recordType) {
		fmt.Fprintf(b, "    table: %s\n", g.table)
	}
	if g.where != "" {
		fmt.Fprintf(b, "    where: %s\n", g.where)
	}
	if g.modified != "" {
		fmt.Fprintf(b, "    modified: %s\n", g.modified)
	}
	if g.currency != "" {
		fmt.Fprintf(b, "    currency: %s        # amounts in the transaction's own currency\n", g.currency)
	}
	if g.subsidiary != "" {
		fmt.Fprintf(b, "    subsidiary: %s    # amounts in its subsidiary's base currency\n", g.subsidiary)
	}
	if g.recordMod != "" {
		fmt.Fprintf(b, "    recordModified: %s\n", g.recordMod)
	}
	writeMap := func(name string, m map[string]string) {
		if len(m) == 0 {
			return
		}
		fmt.Fprintf(b, "    %s:\n", name)
		for _, f := range g.k.Fields {
			if v, ok := m[f.Name]; ok {
				fmt.Fprintf(b, "      %s: %s\n", f.Name, v)
			}
		}
	}
	writeMap("columns", g.columns)
	writeMap("fields", g.fields)
	for _, n := range g.notes {
		fmt.Fprintf(b, "    # %s\n", oneLine(n))
	}
	if len(g.optional) > 0 {
		fmt.Fprintf(b, "    optional: [%s]\n", strings.Join(g.optional, ", "))
	}
	if len(g.readOnly) > 0 {
		fmt.Fprintf(b, "    readOnly: [%s]   # read-only in NetSuite, or not in its record API\n", strings.Join(g.readOnly, ", "))
	}
	if len(g.unused) > 0 {
		b.WriteString("    # The account's custom fields this kind does not use. To show one in the\n" +
			"    # portal, add it under accountFields ({name, label, type}); to keep it\n" +
			"    # in each record's document only, add it to extra (dates to extraDates):\n")
		for _, u := range g.unused {
			fmt.Fprintf(b, "    #   %s\n", u)
		}
	}
	b.WriteString("\n")
}

// oneLine makes text safe for a YAML comment line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
