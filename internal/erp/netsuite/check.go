package netsuite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// CheckStatus is the outcome of one check of the mapping against the
// account.
type CheckStatus string

// The outcomes. Missing and Failed are failures: the kind cannot sync (or
// write) as mapped. The others are not.
const (
	CheckOK      CheckStatus = "ok"
	CheckMissing CheckStatus = "missing" // required, and the account does not have it
	CheckFailed  CheckStatus = "failed"  // NetSuite refused the probe otherwise (a permission, …)
	CheckWarning CheckStatus = "warning" // optional and missing, or a doubtful setting
	CheckOff     CheckStatus = "off"     // the mapping turns the kind off: not probed
	CheckSkipped CheckStatus = "skipped" // not probed (not configured, or nothing to probe it on)
)

// Failure reports whether the status is a required check failing.
func (s CheckStatus) Failure() bool { return s == CheckMissing || s == CheckFailed }

// CheckResult is one check of one kind.
type CheckResult struct {
	Kind     string      // the registry kind; "" for the account's RESTlet
	What     string      // what was checked: "SuiteQL column balance", "record field companyName", …
	Status   CheckStatus //
	Note     string      // what the status means for the portal
	NetSuite string      // NetSuite's own error text, when it refused the probe
	Fix      string      // the mapping entry to fix: kinds.customer.columns.balance
}

// Report is what Check found, kind by kind in registry order.
type Report struct {
	Results []CheckResult
}

// Count returns how many results have status s.
func (r *Report) Count(s CheckStatus) int {
	n := 0
	for _, x := range r.Results {
		if x.Status == s {
			n++
		}
	}
	return n
}

// Failures returns the results of required checks that failed.
func (r *Report) Failures() []CheckResult {
	var out []CheckResult
	for _, x := range r.Results {
		if x.Status.Failure() {
			out = append(out, x)
		}
	}
	return out
}

// Check checks the whole mapping against the account with cheap probes
// (one row at most each): each kind's SuiteQL table with its where
// condition; every SuiteQL column the kind reads, one query per column so
// that every missing one is named; read access to DeletedRecord for the
// kind's type; the record API field ids, against the record type's
// metadata catalog; the mapping's timezone, by comparing SuiteQL's and
// the record API's last-modified times of records of each family
// (checkZone); the account's currencies (its base currency, see
// BaseCurrency); and the RESTlet, when one is configured. Kinds the
// mapping turns off are listed as off and not probed.
//
// It returns an error only when NetSuite cannot be reached or refuses the
// credentials; whatever the account lacks is in the report.
func (c *Client) Check(ctx context.Context) (*Report, error) {
	var all []*kindCheck
	for _, k := range records.All() {
		all = append(all, &kindCheck{k: k, km: c.m.Kind(k)})
	}
	var on []*kindCheck
	for _, kc := range all {
		if !kc.km.Off {
			on = append(on, kc)
		}
	}

	if len(on) > 0 {
		// One probe first: when the credentials or the network fail,
		// that is the answer, not a report of 300 identical failures.
		on[0].probeTable(ctx, c)
		if unreachable(on[0].tableErr) {
			return nil, fmt.Errorf("netsuite check: %w", on[0].tableErr)
		}
	}
	var tasks []func()
	for i, kc := range on {
		if i > 0 {
			tasks = append(tasks, func() { kc.probeTable(ctx, c) })
		}
		tasks = append(tasks, func() { kc.cat, kc.catErr = c.catalog(ctx, kc.km.RecordType) })
	}
	c.parallel(tasks)
	tasks = tasks[:0]
	for _, kc := range on {
		if !kc.tableOK {
			continue
		}
		for _, col := range kc.columns() {
			i := len(kc.cols)
			kc.cols = append(kc.cols, CheckResult{})
			tasks = append(tasks, func() { kc.cols[i] = kc.probeColumn(ctx, c, col) })
		}
		tasks = append(tasks, func() { kc.deleted = kc.probeDeleted(ctx, c) })
	}
	c.parallel(tasks)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, kc := range all {
		rep.Results = append(rep.Results, kc.results()...)
	}
	zone, err := c.checkZone(ctx, on)
	if err != nil {
		return nil, fmt.Errorf("netsuite check: %w", err)
	}
	rep.Results = append(rep.Results, zone...)
	rep.Results = append(rep.Results, c.checkMoney(ctx), c.checkRESTlet(ctx, on))
	return rep, nil
}

// kindCheck collects the probes of one kind.
type kindCheck struct {
	k        *records.Kind
	km       *KindMap
	table    CheckResult
	tableErr error
	tableOK  bool // the table answered: its columns are worth probing
	cols     []CheckResult
	deleted  CheckResult
	cat      *catalog
	catErr   error
}

func (kc *kindCheck) fix(entry string) string { return "kinds." + kc.k.Name + "." + entry }

func (kc *kindCheck) results() []CheckResult {
	if kc.km.Off {
		return []CheckResult{{Kind: kc.k.Name, What: "kind", Status: CheckOff,
			Note: "off in the mapping: not synced, not probed", Fix: kc.fix("off")}}
	}
	out := []CheckResult{kc.table}
	out = append(out, kc.cols...)
	if kc.tableOK {
		out = append(out, kc.deleted)
	}
	return append(out, kc.recordAPI()...)
}

// probeTable runs SELECT id FROM <table> [WHERE <where>] for one row.
func (kc *kindCheck) probeTable(ctx context.Context, c *Client) {
	q := "SELECT id FROM " + kc.km.Table
	what := "SuiteQL table " + kc.km.Table
	if kc.km.Where != "" {
		q += " WHERE " + kc.km.Where
		what += " where " + kc.km.Where
	}
	r := CheckResult{Kind: kc.k.Name, What: what, Status: CheckOK}
	p, err := c.suiteQL(ctx, q, 1, 0)
	kc.tableErr = err
	col, table := missingName(err)
	switch {
	case err == nil:
		kc.tableOK = true
		if kc.km.Where != "" && len(p.Items) == 0 {
			r.Status = CheckWarning
			r.Note = "no rows match the where condition: right if the account has none yet, else check the type value"
			r.Fix = kc.fix("where")
		}
	case table != "":
		r.Status, r.NetSuite = CheckMissing, netsuiteText(err)
		r.Note = fmt.Sprintf("not in this account: the kind cannot sync (record type %s)", kc.km.RecordType)
		r.Fix = kc.fix("recordType") + " (or table), or " + kc.fix("off") + ": true"
	case col != "":
		r.Status, r.NetSuite = CheckMissing, netsuiteText(err)
		r.Note = fmt.Sprintf("the table has no column %s: the kind cannot sync", col)
		r.Fix = kc.fix("where")
	default:
		r.Status, r.NetSuite = CheckFailed, netsuiteText(err)
		r.Note = "NetSuite refused the query: the integration role may lack the permission for this record type"
	}
	kc.table = r
}

// columns returns every SuiteQL column the kind's queries read, once
// each, in query order.
func (kc *kindCheck) columns() []string {
	km := kc.km
	var cols []string
	add := func(c string) {
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	for _, f := range kc.km.fields {
		add(km.SourceColumn(f.Name))
	}
	for _, x := range slices.Concat(km.Extra, km.ExtraDates) {
		add(x)
	}
	add(km.Modified)
	add(km.Created)
	add(km.ExternalID)
	for _, c := range []string{km.Currency, km.Subsidiary} {
		if c != "" {
			add(c)
		}
	}
	return cols
}

// probeColumn runs SELECT <col> FROM <table> for one row.
func (kc *kindCheck) probeColumn(ctx context.Context, c *Client, col string) CheckResult {
	km := kc.km
	what := "SuiteQL column " + col
	for _, f := range kc.km.fields {
		if km.SourceColumn(f.Name) == col && f.Name != col {
			if expr := km.Column(f.Name); expr != col {
				what += " (" + expr + ")"
			}
			what += " for " + f.Name
			break
		}
	}
	owner := ownerOr(km, col)
	r := CheckResult{Kind: kc.k.Name, What: what, Status: CheckOK}
	_, err := c.suiteQL(ctx, "SELECT "+col+" FROM "+km.Table, 1, 0)
	if err == nil {
		return r
	}
	r.NetSuite = netsuiteText(err)
	missing, _ := missingName(err)
	switch {
	case missing == "":
		r.Status = CheckFailed
		r.Note = "NetSuite refused the query"
		return r
	case km.MayLack(col):
		r.Status = CheckWarning
		r.Note = "optional: " + optionalEffect(owner)
	case owner == "modified":
		r.Status = CheckMissing
		r.Note = "required: every sync reads the kind by its last-modified time"
	default:
		r.Status = CheckMissing
		r.Note = "required: the kind cannot sync until its column is named (or the field is marked optional)"
	}
	r.Fix = kc.fix(owner)
	if owner == "extra" && slices.Contains(km.ExtraDates, col) {
		r.Fix = kc.fix("extraDates")
	}
	return r
}

// optionalEffect says what an optional column's absence costs.
func optionalEffect(owner string) string {
	switch owner {
	case "extra":
		return "left out of each record's document"
	case "created":
		return "records show no creation time"
	case "externalId":
		return "records show no external id"
	case "currency", "subsidiary":
		return "the kind's amounts are taken to be in the base currency"
	}
	return "the field stays empty"
}

// probeDeleted reads one row of DeletedRecord for the kind's type: every
// sync reads deletions there.
func (kc *kindCheck) probeDeleted(ctx context.Context, c *Client) CheckResult {
	r := CheckResult{Kind: kc.k.Name, What: "deleted records (type " + kc.km.DeletedType + ")", Status: CheckOK}
	q := "SELECT recordid, type, deleteddate FROM deletedrecord WHERE type = '" + kc.km.DeletedType + "'"
	if _, err := c.suiteQL(ctx, q, 1, 0); err != nil {
		r.Status, r.NetSuite = CheckFailed, netsuiteText(err)
		r.Note = "the sync cannot read deletions: the integration role needs Deleted Records (View)"
	}
	return r
}

// recordAPI checks the kind's record API field ids against the record
// type's metadata catalog. A field the portal writes must be a property
// under its exact id (NetSuite refuses a body member it does not know);
// a field only read matches without case (see docRecord).
func (kc *kindCheck) recordAPI() []CheckResult {
	km, k := kc.km, kc.k
	head := CheckResult{Kind: k.Name, What: "record type " + km.RecordType, Status: CheckOK}
	if kc.catErr != nil {
		head.NetSuite = netsuiteText(kc.catErr)
		if e, ok := errors.AsType[*erp.Error](kc.catErr); ok && e.Status == http.StatusNotFound {
			head.Status = CheckMissing
			head.Note = "the record API does not know the record type: the kind cannot be read or written"
			head.Fix = kc.fix("recordType") + ", or " + kc.fix("off") + ": true"
		} else {
			head.Status = CheckFailed
			head.Note = "NetSuite refused the metadata catalog; record fields not checked"
		}
		return []CheckResult{head}
	}
	if kc.cat == nil {
		head.Status, head.Note = CheckSkipped, "not probed"
		return []CheckResult{head}
	}
	out := []CheckResult{head}
	writes := k.CanCreate || k.CanEdit
	for _, f := range km.fields {
		rf := km.RecordField(f.Name)
		r := CheckResult{Kind: k.Name, What: "record field " + rf, Status: CheckOK}
		written := writes && km.Writable(f.Name)
		p, exact := kc.cat.Properties[rf]
		near := kc.cat.fold(rf)
		switch {
		case exact && written && p.ReadOnly:
			r.Status = CheckWarning
			r.Note = "NetSuite marks it read-only: writes that set it are refused"
			r.Fix = kc.fix("readOnly")
		case exact:
		case near != "" && !written:
			// Read without case: fine.
		case near != "":
			r.Status = CheckMissing
			r.Note = fmt.Sprintf("record API ids are case-sensitive: the catalog has %s; writes are refused", near)
			r.Fix = kc.fix("fields." + f.Name + ": " + near)
		case slices.Contains(km.Optional, f.Name) && written:
			r.Status = CheckWarning
			r.Note = "optional, but written: writes that set it are refused (add it to readOnly)"
			r.Fix = kc.fix("readOnly")
		case slices.Contains(km.Optional, f.Name):
			r.Status = CheckWarning
			r.Note = "optional: the field stays empty in records read from the record API"
			r.Fix = kc.fix("fields." + f.Name)
		case written:
			r.Status = CheckMissing
			r.Note = "not in the record API: writes are refused"
			r.Fix = kc.fix("fields."+f.Name) + " (its record API id), or " + kc.fix("optional")
		default:
			r.Status = CheckWarning
			r.Note = "not in the record API: the field stays empty in records read from it"
			r.Fix = kc.fix("fields." + f.Name)
		}
		out = append(out, r)
	}
	r := CheckResult{Kind: k.Name, What: "record field " + km.RecordModified + " (recordModified)", Status: CheckOK}
	if _, ok := kc.cat.Properties[km.RecordModified]; !ok {
		r.Status = CheckMissing
		r.Note = "records read from the record API have no last-modified time: reads and writes fail"
		if near := kc.cat.fold(km.RecordModified); near != "" {
			r.Note += fmt.Sprintf(" (the catalog has %s)", near)
		}
		r.Fix = kc.fix("recordModified")
	}
	return append(out, r)
}

// checkRESTlet makes one cheap RESTlet call: the files of a record of the
// first kind whose record type answered.
func (c *Client) checkRESTlet(ctx context.Context, on []*kindCheck) CheckResult {
	r := CheckResult{What: "RESTlet", Status: CheckOK,
		Note: "script " + c.cfg.RESTletScript + ", deployment " + c.cfg.RESTletDeploy + " answers"}
	if c.cfg.RESTletScript == "" || c.cfg.RESTletDeploy == "" {
		r.Status = CheckSkipped
		r.Note = "not configured (PORTICO_NETSUITE_RESTLET_SCRIPT, _DEPLOY): files and saved searches are unavailable"
		return r
	}
	i := slices.IndexFunc(on, func(kc *kindCheck) bool { return kc.cat != nil })
	if i < 0 {
		r.Status, r.Note = CheckSkipped, "no record type to list files of"
		return r
	}
	if _, err := c.RecordFiles(ctx, on[i].k, 1); err != nil {
		r.Status, r.NetSuite = CheckWarning, netsuiteText(err)
		r.Note = "script " + c.cfg.RESTletScript + ", deployment " + c.cfg.RESTletDeploy + ": files and saved searches will not work (the sync does not need the RESTlet): deploy it as restlet/README.md says"
	}
	return r
}

// unreachable reports whether err means nothing can be checked: no
// answer, refused credentials, a server failing.
func unreachable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, errTokenRefused) {
		return true
	}
	e, ok := errors.AsType[*erp.Error](err)
	if !ok {
		return true
	}
	return e.Status == 0 || e.Status == http.StatusUnauthorized || e.Status >= 500
}

// netsuiteText is NetSuite's own account of an error: status, code and
// message.
func netsuiteText(err error) string {
	if err == nil {
		return ""
	}
	if pe, ok := errors.AsType[*portal.Error](err); ok {
		return pe.Error()
	}
	e, ok := errors.AsType[*erp.Error](err)
	if !ok {
		return err.Error()
	}
	var parts []string
	if e.Status != 0 {
		parts = append(parts, fmt.Sprint(e.Status))
	}
	if e.Code != "" {
		parts = append(parts, e.Code)
	}
	s := strings.Join(parts, " ")
	if e.Detail != "" {
		if s != "" {
			s += ": "
		}
		s += e.Detail
	}
	return s
}

// parallel runs fns, at most the client's concurrency at a time.
func (c *Client) parallel(fns []func()) {
	sem := make(chan struct{}, c.cfg.Concurrency)
	var wg sync.WaitGroup
	for _, fn := range fns {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			fn()
		})
	}
	wg.Wait()
}

// catalog is a record type's entry in the record API's metadata catalog:
// a JSON Schema whose properties are the record API's field ids.
type catalog struct {
	Title      string                 `json:"title"`
	Properties map[string]catalogProp `json:"properties"`
}

// catalogProp is one field of a catalog entry.
type catalogProp struct {
	Title    string `json:"title"`
	Type     string `json:"type"`
	Format   string `json:"format"`
	ReadOnly bool   `json:"readOnly"`
	Custom   bool   `json:"x-ns-custom-field"`
}

// fold returns the property whose id equals id without regard to case
// ("" when there is none).
func (c *catalog) fold(id string) string {
	if _, ok := c.Properties[id]; ok {
		return id
	}
	for p := range c.Properties {
		if strings.EqualFold(p, id) {
			return p
		}
	}
	return ""
}

// catalog reads a record type's metadata catalog entry: NetSuite answers
// its JSON Schema to Accept: application/schema+json.
func (c *Client) catalog(ctx context.Context, recordType string) (*catalog, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet,
		path:   "/services/rest/record/v1/metadata-catalog/" + url.PathEscape(recordType),
		header: map[string][]string{"Accept": {"application/schema+json"}}})
	if err != nil {
		return nil, err
	}
	var cat catalog
	if err := json.Unmarshal(resp.body, &cat); err != nil || cat.Properties == nil {
		return nil, &erp.Error{Status: resp.status, Detail: "the metadata catalog answered no JSON Schema", Err: err}
	}
	return &cat, nil
}
