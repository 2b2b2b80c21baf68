package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// sqlstore.Tenant is the Sink the seed command uses.
var _ Sink = (*sqlstore.Tenant)(nil)

// testNow is a fixed "now" so every run of the tests sees the same data.
var testNow = time.Date(2025, time.March, 14, 15, 4, 5, 0, time.UTC)

// collector is a Sink that keeps everything in memory.
type collector struct {
	recs  map[string][]records.Record
	files []records.File
	kinds []string // batch kinds in arrival order
}

func newCollector() *collector { return &collector{recs: map[string][]records.Record{}} }

func (c *collector) PutRecords(_ context.Context, rs []records.Record) error {
	if len(rs) == 0 {
		return errors.New("empty batch")
	}
	for _, r := range rs {
		if r.Kind != rs[0].Kind {
			return fmt.Errorf("batch mixes %s and %s", rs[0].Kind, r.Kind)
		}
	}
	c.recs[rs[0].Kind] = append(c.recs[rs[0].Kind], rs...)
	c.kinds = append(c.kinds, rs[0].Kind)
	return nil
}

func (c *collector) PutFiles(_ context.Context, fs []records.File) error {
	c.files = append(c.files, fs...)
	return nil
}

// byID returns the kind's records by id.
func (c *collector) byID(kind string) map[int64]records.Record {
	m := map[int64]records.Record{}
	for _, r := range c.recs[kind] {
		m[r.ID] = r
	}
	return m
}

// digest hashes everything a run produced, in order.
func (c *collector) digest() [32]byte {
	h := sha256.New()
	for _, k := range records.All() {
		for _, r := range c.recs[k.Name] {
			amt := "nil"
			if r.Amount != nil {
				amt = strconv.FormatInt(*r.Amount, 10)
			}
			fmt.Fprintf(h, "%s|%d|%s|%s|%s|%s|%d|%d|%s|%s|%d|%s\n", r.Kind, r.ID, r.ExternalID, r.Title, r.Code,
				r.Status, r.ParentID, r.ProjectID, amt, r.Date, r.ModifiedAt.UnixMilli(), r.Fields)
		}
	}
	for _, f := range c.files {
		fmt.Fprintf(h, "%d|%s|%d|%s|%s|%d|%d|", f.ID, f.Kind, f.RecordID, f.Name, f.ContentType, f.Size, f.ModifiedAt.UnixMilli())
		h.Write(f.Content)
	}
	return [32]byte(h.Sum(nil))
}

// The shared data set of most tests: small, but with more projects than
// other kinds, so the scaling rule is exercised too (others =
// max(PerKind, Projects/10) = 60).
var (
	sharedOnce sync.Once
	shared     *collector
	sharedOpt  = Options{Projects: 600, PerKind: 40, Seed: 7, Now: testNow}
	sharedErr  error
)

func sharedData(t *testing.T) *collector {
	t.Helper()
	sharedOnce.Do(func() {
		shared = newCollector()
		_, sharedErr = Generate(context.Background(), shared, sharedOpt)
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func TestSizes(t *testing.T) {
	cases := []struct {
		opt            Options
		projects, rest int
	}{
		{Options{}, 1000, 1000},
		{Options{PerKind: 50}, 50, 50},
		{Options{Projects: 1_000_000}, 1_000_000, 100_000},
		{Options{Projects: 5000, PerKind: 50}, 5000, 500},
		{Options{Projects: 100, PerKind: 50}, 100, 50},
	}
	for _, c := range cases {
		if got := c.opt.Size("project"); got != c.projects {
			t.Errorf("%+v: %d projects, want %d", c.opt, got, c.projects)
		}
		if got := c.opt.Size("invoice"); got != c.rest {
			t.Errorf("%+v: %d invoices, want %d", c.opt, got, c.rest)
		}
	}
}

func TestEveryKindGetsItsRows(t *testing.T) {
	c := sharedData(t)
	if len(c.recs) != len(records.All()) {
		t.Errorf("generated %d kinds, the registry has %d", len(c.recs), len(records.All()))
	}
	for _, k := range records.All() {
		rs := c.recs[k.Name]
		want := sharedOpt.Size(k.Name)
		if len(rs) != want {
			t.Errorf("%s: %d records, want %d", k.Name, len(rs), want)
			continue
		}
		for i, r := range rs {
			if r.ID != int64(i+1) {
				t.Fatalf("%s: record %d has id %d; ids must be 1..n in order", k.Name, i, r.ID)
			}
		}
	}
	if want := 60; sharedOpt.Size("customer") != want {
		t.Fatalf("scaling rule: %d customers, want %d", sharedOpt.Size("customer"), want)
	}
}

func TestDeterministic(t *testing.T) {
	a := sharedData(t)
	b := newCollector()
	if _, err := Generate(context.Background(), b, sharedOpt); err != nil {
		t.Fatal(err)
	}
	if a.digest() != b.digest() {
		t.Fatal("two runs with the same options differ")
	}
	for _, k := range records.All() {
		for i := range a.recs[k.Name] {
			if !bytes.Equal(a.recs[k.Name][i].Fields, b.recs[k.Name][i].Fields) {
				t.Fatalf("%s %d: documents differ", k.Name, i+1)
			}
		}
	}

	other := sharedOpt
	other.Seed++
	c := newCollector()
	if _, err := Generate(context.Background(), c, other); err != nil {
		t.Fatal(err)
	}
	if a.digest() == c.digest() {
		t.Fatal("a different seed gave the same data")
	}
	if a.recs["project"][0].Title == c.recs["project"][1].Title && a.recs["customer"][0].Title == c.recs["customer"][0].Title {
		t.Error("a different seed gave the same first names")
	}
}

// Generation order must follow references, and each batch is one kind.
func TestDependencyOrder(t *testing.T) {
	c := sharedData(t)
	pos := map[string]int{}
	for i, k := range c.kinds {
		if _, ok := pos[k]; !ok {
			pos[k] = i
		}
	}
	for _, k := range records.All() {
		for _, f := range k.Fields {
			if f.Type == records.TypeRef && f.Ref != k.Name && pos[f.Ref] >= pos[k.Name] {
				t.Errorf("%s is stored before %s, which it refers to", k.Name, f.Ref)
			}
		}
	}
}

func TestReferencesResolve(t *testing.T) {
	c := sharedData(t)
	titles := map[string]map[int64]string{}
	for _, k := range records.All() {
		titles[k.Name] = map[int64]string{}
		for _, r := range c.recs[k.Name] {
			titles[k.Name][r.ID] = r.Title
		}
	}
	projects := c.byID("project")
	for _, k := range records.All() {
		parent, hasParent := k.Field(records.ColParent)
		proj, hasProject := k.Field(records.ColProject)
		withParent := 0
		for _, r := range c.recs[k.Name] {
			if r.ParentID != 0 {
				withParent++
				if !hasParent {
					t.Fatalf("%s %d has a parent but the kind has no parent column", k.Name, r.ID)
				}
				if _, ok := titles[parent.Ref][r.ParentID]; !ok {
					t.Fatalf("%s %d: parent %s %d does not exist", k.Name, r.ID, parent.Ref, r.ParentID)
				}
			}
			if r.ProjectID != 0 {
				if !hasProject {
					t.Fatalf("%s %d has a project but the kind has no project column", k.Name, r.ID)
				}
				p, ok := projects[r.ProjectID]
				if !ok {
					t.Fatalf("%s %d: project %d does not exist", k.Name, r.ID, r.ProjectID)
				}
				// A client and a project on one record: the project's own client.
				if hasParent && parent.Ref == "customer" && k.Name != "creditledger" && r.ParentID != p.ParentID {
					t.Fatalf("%s %d: client %d is not project %d's client %d", k.Name, r.ID, r.ParentID, p.ParentID, p.ParentID)
				}
				if strings.HasPrefix(proj.Name, "custrecord_res_c") && !strings.Contains(p.Title, "Mitigation Bank") {
					t.Fatalf("%s %d: bank %d is not a mitigation bank: %q", k.Name, r.ID, p.ID, p.Title)
				}
			} else if hasProject {
				t.Fatalf("%s %d has no project", k.Name, r.ID)
			}
		}
		// Every reference column is used; the credit ledger's releases
		// alone have no buyer.
		if hasParent && withParent < len(c.recs[k.Name])/2 {
			t.Errorf("%s: only %d of %d records have a %s", k.Name, withParent, len(c.recs[k.Name]), parent.Name)
		}
	}

	// Every {"id", "refName"} in a document names an existing record of a
	// kind and carries that record's title. Which kind is known for the
	// promoted fields and a few others.
	refKinds := map[string]string{
		"projectmanager": "employee", "salesrep": "employee", "supervisor": "employee", "owner": "employee",
		"custrecord_res_opp_salesrep": "employee", "custrecord_res_vq_reviewer": "employee",
		"custrecord_res_bud_owner": "employee", "custrecord_res_bs_customer": "customer",
	}
	for _, k := range records.All() {
		kindOf := map[string]string{}
		for n, rk := range refKinds {
			kindOf[n] = rk
		}
		for _, f := range k.Fields {
			if f.Type == records.TypeRef {
				kindOf[f.Name] = f.Ref
			}
		}
		for _, r := range c.recs[k.Name] {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(r.Fields, &m); err != nil {
				t.Fatal(err)
			}
			for name, ref := range kindOf {
				raw, ok := m[name]
				if !ok {
					continue
				}
				var v struct{ ID, RefName string }
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatalf("%s %d %s: %v", k.Name, r.ID, name, err)
				}
				id, _ := strconv.ParseInt(v.ID, 10, 64)
				if got, ok := titles[ref][id]; !ok || got != v.RefName {
					t.Fatalf("%s %d %s: refName %q for %s %s, whose title is %q", k.Name, r.ID, name, v.RefName, ref, v.ID, got)
				}
			}
		}
	}
	if titles["project"][1] == "" || !strings.Contains(titles["project"][1], "Mitigation Bank") {
		t.Errorf("project 1 should be a mitigation bank, is %q", titles["project"][1])
	}
}

var (
	datePattern      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timestampPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)
)

// The promoted columns hold the same values as the document, the document
// is one valid JSON object without duplicate keys, and values are in range.
func TestColumnsAgreeWithDocument(t *testing.T) {
	c := sharedData(t)
	earliest := testNow.AddDate(-7, 0, 0).Format(time.DateOnly)
	latest := testNow.AddDate(1, 1, 0).Format(time.DateOnly)
	for _, k := range records.All() {
		statuses := map[string]int{}
		codes := map[string]bool{}
		for _, r := range c.recs[k.Name] {
			where := fmt.Sprintf("%s %d", k.Name, r.ID)
			checkNoDuplicateKeys(t, where, r.Fields)
			var m map[string]any
			if err := json.Unmarshal(r.Fields, &m); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if m["id"] != strconv.FormatInt(r.ID, 10) {
				t.Fatalf("%s: document id %v", where, m["id"])
			}
			if ext, ok := m["externalId"]; ok != (r.ExternalID != "") || (ok && ext != r.ExternalID) {
				t.Fatalf("%s: externalId %v vs %q", where, ext, r.ExternalID)
			}
			if r.Title == "" || !utf8.ValidString(r.Title) {
				t.Fatalf("%s: bad title %q", where, r.Title)
			}
			if r.ModifiedAt.After(testNow) || r.ModifiedAt.Before(testNow.AddDate(-7, 0, 0)) || r.ModifiedAt.Location() != time.UTC {
				t.Fatalf("%s: modified at %v", where, r.ModifiedAt)
			}
			if m["lastModifiedDate"] != r.ModifiedAt.Format(time.RFC3339) {
				t.Fatalf("%s: lastModifiedDate %v, column %v", where, m["lastModifiedDate"], r.ModifiedAt)
			}
			if s, _ := m["dateCreated"].(string); !timestampPattern.MatchString(s) || s > m["lastModifiedDate"].(string) {
				t.Fatalf("%s: dateCreated %q after lastModifiedDate %v", where, s, m["lastModifiedDate"])
			}
			for _, f := range k.Fields {
				v, present := m[f.Name]
				switch f.Column {
				case records.ColTitle:
					if v != r.Title {
						t.Fatalf("%s: title %q, document %v", where, r.Title, v)
					}
				case records.ColCode:
					if v != r.Code || r.Code == "" {
						t.Fatalf("%s: code %q, document %v", where, r.Code, v)
					}
					if codes[r.Code] {
						t.Fatalf("%s: duplicate code %s", where, r.Code)
					}
					codes[r.Code] = true
				case records.ColStatus:
					i := slices.Index(f.Choices, r.Status)
					if i < 0 {
						t.Fatalf("%s: status %q is not among %v", where, r.Status, f.Choices)
					}
					statuses[r.Status]++
					want := map[string]any{"id": strconv.Itoa(i + 1), "refName": r.Status}
					if fmt.Sprint(v) != fmt.Sprint(want) {
						t.Fatalf("%s: status %q, document %v", where, r.Status, v)
					}
				case records.ColParent, records.ColProject:
					id := r.ParentID
					if f.Column == records.ColProject {
						id = r.ProjectID
					}
					if !present {
						if id != 0 {
							t.Fatalf("%s: %s %d missing from the document", where, f.Name, id)
						}
						continue
					}
					ref, _ := v.(map[string]any)
					if ref["id"] != strconv.FormatInt(id, 10) || ref["refName"] == "" {
						t.Fatalf("%s: %s %d, document %v", where, f.Name, id, v)
					}
				case records.ColAmount:
					if r.Amount == nil {
						t.Fatalf("%s: no amount", where)
					}
					num, ok := v.(float64)
					if !ok || int64(math.Round(num*100)) != *r.Amount {
						t.Fatalf("%s: amount %d, document %v", where, *r.Amount, v)
					}
					if *r.Amount < 0 {
						t.Fatalf("%s: negative amount %d", where, *r.Amount)
					}
				case records.ColDate:
					if !present {
						if r.Date != "" {
							t.Fatalf("%s: date %s missing from the document", where, r.Date)
						}
						continue
					}
					if v != r.Date || !datePattern.MatchString(r.Date) || r.Date < earliest || r.Date > latest {
						t.Fatalf("%s: date %q, document %v", where, r.Date, v)
					}
				}
			}
			for _, col := range []records.Column{records.ColCode, records.ColStatus, records.ColAmount, records.ColDate} {
				if _, ok := k.Field(col); !ok {
					empty := map[records.Column]bool{
						records.ColCode: r.Code == "", records.ColStatus: r.Status == "",
						records.ColAmount: r.Amount == nil, records.ColDate: r.Date == "",
					}[col]
					if !empty {
						t.Fatalf("%s: column %s set but the kind does not map it", where, col)
					}
				}
			}
		}
		// Statuses are weighted, but every kind uses more than one.
		if f, ok := k.Field(records.ColStatus); ok && len(statuses) < 2 {
			t.Errorf("%s: only statuses %v of %v", k.Name, statuses, f.Choices)
		}
	}
}

// checkNoDuplicateKeys fails when the document is not exactly one JSON
// object or repeats a key in any object.
func checkNoDuplicateKeys(t *testing.T, where string, doc []byte) {
	t.Helper()
	if !json.Valid(doc) || doc[0] != '{' {
		t.Fatalf("%s: not a JSON object: %s", where, doc)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				if seen[k.(string)] {
					return fmt.Errorf("duplicate key %q", k)
				}
				seen[k.(string)] = true
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk(); err != nil {
		t.Fatalf("%s: %v: %s", where, err, doc)
	}
}

// Titles vary, with common and rare words, so search and sort mean
// something.
func TestTitlesVary(t *testing.T) {
	c := newCollector()
	if _, err := Generate(context.Background(), c, Options{Projects: 20000, PerKind: 10, Seed: 3, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	words := map[string]int{}
	for _, r := range c.recs["project"] {
		distinct[r.Title] = true
		for w := range strings.FieldsSeq(r.Title) {
			words[w]++
		}
	}
	if n := len(distinct); n < 20000/2 {
		t.Errorf("only %d distinct titles among 20000 projects", n)
	}
	rare := 0
	for _, n := range words {
		if n <= 3 {
			rare++
		}
	}
	if words["Creek"] < 2000 || words["Wetland"] < 2000 || rare < 100 {
		t.Errorf("want common and rare words: Creek %d, Wetland %d, words seen at most 3 times: %d",
			words["Creek"], words["Wetland"], rare)
	}
}

func TestFiles(t *testing.T) {
	c := sharedData(t)
	withFiles := map[string]bool{}
	for _, k := range records.All() {
		for _, tab := range k.Tabs {
			if tab.Source == records.TabFiles {
				withFiles[k.Name] = true
			}
		}
	}
	ids := map[int64]bool{}
	perRecord := map[string]map[int64]int{}
	for _, f := range c.files {
		where := fmt.Sprintf("file %d (%s %d %s)", f.ID, f.Kind, f.RecordID, f.Name)
		if f.ID <= 0 || ids[f.ID] {
			t.Fatalf("%s: id not unique and positive", where)
		}
		ids[f.ID] = true
		if !withFiles[f.Kind] {
			t.Fatalf("%s: kind has no files tab", where)
		}
		if _, ok := c.byID(f.Kind)[f.RecordID]; !ok {
			t.Fatalf("%s: record does not exist", where)
		}
		if perRecord[f.Kind] == nil {
			perRecord[f.Kind] = map[int64]int{}
		}
		perRecord[f.Kind][f.RecordID]++
		if f.Size != int64(len(f.Content)) || len(f.Content) == 0 || f.Name == "" || f.ModifiedAt.IsZero() {
			t.Fatalf("%s: size %d, content %d bytes", where, f.Size, len(f.Content))
		}
		switch {
		case strings.HasSuffix(f.Name, ".pdf"):
			if f.ContentType != "application/pdf" {
				t.Fatalf("%s: content type %s", where, f.ContentType)
			}
			checkPDF(t, where, f.Content)
		case strings.HasSuffix(f.Name, ".png"):
			img, err := png.Decode(bytes.NewReader(f.Content))
			if f.ContentType != "image/png" || err != nil || img.Bounds().Dx() < 100 {
				t.Fatalf("%s: %s, %v", where, f.ContentType, err)
			}
		case strings.HasSuffix(f.Name, ".csv"):
			rows, err := csv.NewReader(bytes.NewReader(f.Content)).ReadAll()
			if !strings.HasPrefix(f.ContentType, "text/csv") || err != nil || len(rows) < 2 {
				t.Fatalf("%s: %s, %d rows, %v", where, f.ContentType, len(rows), err)
			}
		case strings.HasSuffix(f.Name, ".txt"):
			if !strings.HasPrefix(f.ContentType, "text/plain") || !utf8.Valid(f.Content) {
				t.Fatalf("%s: %s", where, f.ContentType)
			}
		default:
			t.Fatalf("%s: unexpected file type", where)
		}
	}
	// The first 200 records of each kind with a files tab have files.
	const withFilesPerKind = 200
	for kind := range withFiles {
		n := min(withFilesPerKind, sharedOpt.Size(kind))
		if len(perRecord[kind]) != n {
			t.Errorf("%s: %d records with files, want %d", kind, len(perRecord[kind]), n)
		}
		for id, cnt := range perRecord[kind] {
			if cnt < 1 || cnt > 3 || id > int64(n) {
				t.Errorf("%s %d: %d files", kind, id, cnt)
			}
		}
	}
}

var pdfObject = regexp.MustCompile(`^(\d+) 0 obj\n`)

// checkPDF checks the header, the trailer and that every cross-reference
// entry points at its object, which is what readers need to open a file
// without repairing it.
func checkPDF(t *testing.T, where string, b []byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("%PDF-1.")) || !bytes.HasSuffix(bytes.TrimRight(b, "\r\n"), []byte("%%EOF")) {
		t.Fatalf("%s: not a PDF", where)
	}
	i := bytes.LastIndex(b, []byte("startxref\n"))
	var xref int
	if _, err := fmt.Sscanf(string(b[i+len("startxref\n"):]), "%d", &xref); err != nil || !bytes.HasPrefix(b[xref:], []byte("xref\n0 ")) {
		t.Fatalf("%s: bad startxref: %v", where, err)
	}
	var n int
	fmt.Sscanf(string(b[xref+len("xref\n0 "):]), "%d", &n)
	entries := b[bytes.IndexByte(b[xref+5:], '\n')+xref+6:]
	for obj := 1; obj < n; obj++ {
		e := entries[obj*20 : obj*20+20]
		off, err := strconv.Atoi(string(e[:10]))
		if err != nil || string(e[10:]) != " 00000 n \n" {
			t.Fatalf("%s: bad xref entry %q", where, e)
		}
		m := pdfObject.FindSubmatch(b[off:])
		if m == nil || string(m[1]) != strconv.Itoa(obj) {
			t.Fatalf("%s: xref entry %d points at %q", where, obj, b[off:min(off+12, len(b))])
		}
	}
	stream := regexp.MustCompile(`/Length (\d+) >>\nstream\n`).FindSubmatchIndex(b)
	length, _ := strconv.Atoi(string(b[stream[2]:stream[3]]))
	if !bytes.HasPrefix(b[stream[1]+length:], []byte("endstream")) {
		t.Fatalf("%s: stream length %d is wrong", where, length)
	}
}

func TestWordListsAreValidUTF8(t *testing.T) {
	lists := [][]string{places, features, projectTypes, syllables, surnames, firstNames, counties, townSuffixes,
		regions, requestTypes, opportunitySuffixes, questionnaireTypes, noteTexts, milestones, invoicePhrases}
	for _, l := range lists {
		for _, w := range l {
			if !utf8.ValidString(w) || w == "" {
				t.Errorf("bad word %q", w)
			}
		}
	}
	if projectTypes[projectTypeBank] != "Mitigation Bank" {
		t.Errorf("projectTypeBank points at %q", projectTypes[projectTypeBank])
	}
}

func TestAppendHundredths(t *testing.T) {
	for h, want := range map[int64]string{0: "0.00", 5: "0.05", 100: "1.00", 123456: "1234.56", -250: "-2.50"} {
		if got := string(appendHundredths(nil, h)); got != want {
			t.Errorf("appendHundredths(%d) = %s, want %s", h, got, want)
		}
	}
}

type failingSink struct {
	collector
	after int
}

func (f *failingSink) PutRecords(ctx context.Context, rs []records.Record) error {
	if f.after == 0 {
		return errors.New("disk full")
	}
	f.after--
	return f.collector.PutRecords(ctx, rs)
}

func TestStopsOnSinkErrorAndCancel(t *testing.T) {
	s := &failingSink{collector: *newCollector(), after: 3}
	_, err := Generate(context.Background(), s, Options{PerKind: 100, Now: testNow})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v, want the sink's error", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = Generate(ctx, newCollector(), Options{PerKind: 100, Now: testNow, Progress: func(string, int, int) {
		if calls++; calls == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}

	if _, err := Generate(context.Background(), newCollector(), Options{PerKind: -1}); err == nil {
		t.Fatal("negative PerKind accepted")
	}
}

func TestProgress(t *testing.T) {
	var last = map[string]int{}
	st, err := Generate(context.Background(), newCollector(), Options{Projects: batchSize + 10, PerKind: 5, Now: testNow,
		Progress: func(kind string, done, total int) {
			if done <= last[kind] || done > total || total != (Options{Projects: batchSize + 10, PerKind: 5}).Size(kind) {
				t.Errorf("progress %s %d/%d after %d", kind, done, total, last[kind])
			}
			last[kind] = done
		}})
	if err != nil {
		t.Fatal(err)
	}
	if last["project"] != batchSize+10 || st.Rows["project"] != batchSize+10 || st.Total() != batchSize+10+14*(batchSize+10)/10 {
		t.Errorf("progress %v, stats %v", last, st.Rows)
	}
}

// The real store: the Sink contract holds, counts are right and a stored
// record reads back as generated.
func TestSeedSQLite(t *testing.T) {
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.EnsureTenant(ctx, "demo", CompanyName); err != nil {
		t.Fatal(err)
	}
	tenant := store.Tenant("demo")
	opt := Options{PerKind: 50, Seed: 1, Now: testNow}
	st, err := Generate(ctx, tenant, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := newCollector()
	if _, err := Generate(ctx, want, opt); err != nil {
		t.Fatal(err)
	}
	for _, k := range records.All() {
		n, err := tenant.CountRecords(ctx, k.Name)
		if err != nil || n != 50 || st.Rows[k.Name] != 50 {
			t.Errorf("%s: %d records stored (%v), stats say %d", k.Name, n, err, st.Rows[k.Name])
		}
		got, err := tenant.Record(ctx, k.Name, 7)
		if err != nil {
			t.Fatalf("%s 7: %v", k.Name, err)
		}
		exp := want.recs[k.Name][6]
		if got.Title != exp.Title || got.Code != exp.Code || got.ParentID != exp.ParentID ||
			got.ProjectID != exp.ProjectID || !got.ModifiedAt.Equal(exp.ModifiedAt) || !bytes.Equal(got.Fields, exp.Fields) {
			t.Errorf("%s 7 reads back as %+v, want %+v", k.Name, got, exp)
		}
	}
	if st.Files != len(want.files) || st.Files == 0 {
		t.Errorf("stats say %d files, generated %d", st.Files, len(want.files))
	}
}

type discard struct{}

func (discard) PutRecords(context.Context, []records.Record) error { return nil }
func (discard) PutFiles(context.Context, []records.File) error     { return nil }

// BenchmarkGenerate measures generation alone (into a sink that discards),
// per record, at the default size.
func BenchmarkGenerate(b *testing.B) {
	opt := Options{PerKind: 1000, Now: testNow}
	rows := 0
	for b.Loop() {
		st, err := Generate(context.Background(), discard{}, opt)
		if err != nil {
			b.Fatal(err)
		}
		rows = st.Total()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/record")
	b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "records/s")
}

// Every document field the registry declares is filled in the demo data,
// in the shape its type says (a reference to a generated record, a list
// value with its display text, numbers, booleans, dates, links), and its
// list value (records.Field.FromText) reads back.
func TestDocumentFieldsAreFilled(t *testing.T) {
	c := sharedData(t)
	for _, k := range records.All() {
		for _, f := range k.Document {
			where := k.Name + "." + f.Name
			filled := 0
			for _, r := range c.recs[k.Name] {
				var doc map[string]json.RawMessage
				json.Unmarshal(r.Fields, &doc)
				raw, ok := doc[f.Name]
				if !ok {
					continue
				}
				filled++
				var v any
				json.Unmarshal(raw, &v)
				switch {
				case f.Named():
					m, ok := v.(map[string]any)
					name, _ := m["refName"].(string)
					if !ok || name == "" {
						t.Fatalf("%s: %s is not a list value", where, raw)
					}
					if f.Type == records.TypeRef {
						id, _ := strconv.ParseInt(fmt.Sprint(m["id"]), 10, 64)
						if target, ok := c.byID(f.Ref)[id]; !ok || target.Title != name {
							t.Fatalf("%s: %s refers to no %s of that name", where, raw, f.Ref)
						}
					}
					if f.Type == records.TypeStatus && !slices.Contains(f.Choices, name) {
						t.Fatalf("%s: %q is not one of %v", where, name, f.Choices)
					}
				case f.Type.Numeric():
					if _, ok := v.(float64); !ok {
						t.Fatalf("%s: %s is not a number", where, raw)
					}
				case f.Type == records.TypeBoolean:
					if _, ok := v.(bool); !ok {
						t.Fatalf("%s: %s is not a boolean", where, raw)
					}
				case f.Type == records.TypeDate:
					if s, _ := v.(string); !datePattern.MatchString(s) {
						t.Fatalf("%s: %s is not a date", where, raw)
					}
				case f.Type == records.TypeURL:
					if s, _ := v.(string); !strings.HasPrefix(s, "https://") {
						t.Fatalf("%s: %s is not a link", where, raw)
					}
				case f.Type == records.TypeEmail:
					if s, _ := v.(string); !strings.Contains(s, "@") {
						t.Fatalf("%s: %s is not an address", where, raw)
					}
				default:
					if s, _ := v.(string); s == "" {
						t.Fatalf("%s: %s is not text", where, raw)
					}
				}
				if k.Row(records.Record{Fields: r.Fields}, k.Columns([]string{f.Name}))[f.Name] == nil {
					t.Fatalf("%s: %s reads back as nothing", where, raw)
				}
			}
			if filled == 0 && where != "vendorbill.nextapprover" { // only a bill waiting for approval: TestPendingBillsAwaitTheirManager
				t.Errorf("%s: no %s has it", where, k.Name)
			}
		}
	}
}

// Pete, the demo's project manager, is an employee with his user's
// address, and manages a minority of the projects; every project has a
// manager who is an employee.
func TestPeteManagesSomeProjects(t *testing.T) {
	c := sharedData(t)
	pete, ok := c.byID("employee")[PeteEmployeeID]
	var doc map[string]any
	json.Unmarshal(pete.Fields, &doc)
	if !ok || pete.Title != PeteName || doc["email"] != PeteEmail {
		t.Fatalf("employee %d: %s %v", PeteEmployeeID, pete.Title, doc["email"])
	}
	if !slices.ContainsFunc(Access().Users, func(u access.FileUser) bool { return u.Email == PeteEmail }) {
		t.Fatalf("no demo user %s", PeteEmail)
	}
	employees := c.byID("employee")
	his := 0
	for _, p := range c.recs["project"] {
		var d struct{ Projectmanager struct{ ID string } }
		json.Unmarshal(p.Fields, &d)
		id, _ := strconv.ParseInt(d.Projectmanager.ID, 10, 64)
		if _, ok := employees[id]; !ok {
			t.Fatalf("project %d: manager %q is no employee", p.ID, d.Projectmanager.ID)
		}
		if id == PeteEmployeeID {
			his++
		}
	}
	if n := len(c.recs["project"]); his == 0 || his*4 > n {
		t.Errorf("Pete manages %d of %d projects, want a minority but some", his, n)
	}
}

// A transaction's lines, as its kind's lines tabs read them, add up to its
// amount: an invoice's items; a vendor bill's items and expenses together.
// Bills come in three shapes (items only, expenses only, both), each
// common; expense lines are charged to an expense account and described.
func TestLinesAddUpToTheAmount(t *testing.T) {
	c := sharedData(t)
	for _, kind := range []string{"invoice", "vendorbill"} {
		k, _ := records.Lookup(kind)
		shapes := map[string]int{}
		for _, r := range c.recs[kind] {
			where := fmt.Sprintf("%s %d", kind, r.ID)
			var cents int64
			var shape []string
			for _, tab := range k.Tabs {
				if tab.Source != records.TabLines {
					continue
				}
				_, rows := records.Sublist(r, tab)
				if len(rows) > 0 {
					shape = append(shape, tab.Name)
				}
				seen := map[string]bool{}
				for _, row := range rows {
					if key := fmt.Sprint(row["account"], row["memo"]); tab.Name == "expense" && seen[key] {
						t.Fatalf("%s: two expense lines of %s", where, key)
					} else {
						seen[key] = true
					}
					amount, ok := row["amount"].(float64)
					if !ok || amount <= 0 {
						t.Fatalf("%s: %s line %v has no amount", where, tab.Name, row)
					}
					cents += int64(math.Round(amount * 100))
					if tab.Name == "expense" {
						account, _ := row["account"].(string)
						if !slices.Contains(expenseAccounts, account) || row["memo"] == "" || row["memo"] == nil {
							t.Fatalf("%s: expense line %v", where, row)
						}
					}
				}
			}
			if r.Amount == nil || cents != *r.Amount {
				t.Fatalf("%s: lines %v add up to %d, amount %v", where, shape, cents, r.Amount)
			}
			shapes[strings.Join(shape, "+")]++
		}
		n := len(c.recs[kind])
		switch kind {
		case "invoice":
			if shapes["item"] != n {
				t.Errorf("invoices' lines: %v, want items only", shapes)
			}
		case "vendorbill":
			t.Logf("the lines of %d bills: %v", n, shapes)
			// About 45 %, 40 % and 15 % of them.
			if len(shapes) != 3 || shapes["item"]*5 < n || shapes["expense"]*5 < n || shapes["item+expense"] == 0 {
				t.Errorf("bills' lines of %d bills: %v, want items only, expenses only and both, each common", n, shapes)
			}
		}
	}
}

// The Canadian clients (ids divisible by ForeignClientEvery) are invoiced
// in their own dollars: those invoices, and only those, are in
// ForeignCurrency, their document says so, and every other record is in
// the base currency.
func TestForeignClientsAreInvoicedInTheirCurrency(t *testing.T) {
	c := newCollector()
	if _, err := Generate(context.Background(), c, Options{PerKind: 200, Seed: 1, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	foreign := 0
	for kind, rs := range c.recs {
		for _, r := range rs {
			var doc struct{ Currency *struct{ RefName string } }
			json.Unmarshal(r.Fields, &doc)
			want := kind == "invoice" && r.ParentID%ForeignClientEvery == 0
			if (r.Currency == ForeignCurrency) != want || (r.Currency != "" && r.Currency != ForeignCurrency) {
				t.Fatalf("%s %d of client %d: currency %q", kind, r.ID, r.ParentID, r.Currency)
			}
			if doc.Currency != nil && (doc.Currency.RefName == ForeignCurrency) != want {
				t.Fatalf("%s %d: document currency %q, record %q", kind, r.ID, doc.Currency.RefName, r.Currency)
			}
			if want {
				foreign++
			}
		}
	}
	if foreign == 0 || foreign > len(c.recs["invoice"])/4 {
		t.Errorf("%d of %d invoices in %s", foreign, len(c.recs["invoice"]), ForeignCurrency)
	}
}

// A bill waiting for approval waits for its project's manager (the
// approval workflow routes it so), and only such a bill names a next
// approver; Pete has some to decide.
func TestPendingBillsAwaitTheirManager(t *testing.T) {
	c := newCollector()
	if _, err := Generate(context.Background(), c, Options{PerKind: 1000, Seed: 7, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	managers := map[int64]string{}
	for _, p := range c.recs["project"] {
		var doc struct {
			PM struct{ ID string } `json:"projectmanager"`
		}
		json.Unmarshal(p.Fields, &doc)
		managers[p.ID] = doc.PM.ID
	}
	pending, pete := 0, 0
	for _, b := range c.recs["vendorbill"] {
		var doc struct {
			Next *struct{ ID string } `json:"nextapprover"`
		}
		json.Unmarshal(b.Fields, &doc)
		if b.Status != "Pending approval" {
			if doc.Next != nil {
				t.Fatalf("bill %d (%s) names next approver %s", b.ID, b.Status, doc.Next.ID)
			}
			continue
		}
		pending++
		if doc.Next == nil || doc.Next.ID != managers[b.ProjectID] {
			t.Fatalf("bill %d of project %d waits for %v, not its manager %s", b.ID, b.ProjectID, doc.Next, managers[b.ProjectID])
		}
		if doc.Next.ID == strconv.Itoa(PeteEmployeeID) {
			pete++
		}
	}
	if pending < 20 || pete == 0 {
		t.Errorf("%d bills wait for approval, %d of them for Pete", pending, pete)
	}
}

// The demo company's letterhead is complete and stored as it is given.
func TestCompanyProfile(t *testing.T) {
	p := Company()
	if !reflect.DeepEqual(p.Clean(), p) {
		t.Errorf("Company() is not clean:\n got %#v\nwant %#v", p, p.Clean())
	}
	a := p.Address
	if p.Letterhead() == "" || len(a.Lines) == 0 || a.City == "" || a.Region == "" || a.PostalCode == "" || a.Country == "" ||
		p.Phone == "" || !strings.HasSuffix(p.Email, "@"+CompanyDomain) || p.TaxID == "" {
		t.Errorf("incomplete: %#v", p)
	}
}
