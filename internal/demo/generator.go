package demo

import (
	"context"
	"fmt"
	"image/png"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/portico/portico/internal/records"
)

// plan lists the kinds in generation order: every kind only refers to
// kinds before it. Each entry names the code prefix, the minimum width of
// its number and an offset added to the id (transaction numbers start at
// 100001 like a real ledger's, entity numbers at 1).
var plan = []struct {
	kind   string
	prefix string
	width  int
	offset int64
	fill   func(*generator, *rand.Rand, *row)
}{
	{"employee", "EMP-", 4, 0, (*generator).employee},
	{"customer", "CUS-", 5, 0, (*generator).customer},
	{"vendor", "VEN-", 5, 0, (*generator).vendor},
	{"genericresource", "RES-", 4, 0, (*generator).resource},
	{"project", "PRJ-", 6, 0, (*generator).project},
	{"projectrequest", "PR-", 5, 0, (*generator).projectRequest},
	{"customrecord_res_opportunity", "OPP-", 5, 0, (*generator).opportunity},
	{"customrecord_res_vendor_questions", "VQ-", 5, 0, (*generator).questionnaire},
	{"invoice", "INV-", 6, 100000, (*generator).invoice},
	{"vendorbill", "BILL-", 6, 200000, (*generator).vendorBill},
	{"billing", "BIL-", 6, 0, (*generator).billing},
	{"billing_summary", "BS-", 6, 0, (*generator).billingSummary},
	{"budget", "BUD-", 6, 0, (*generator).budget},
	{"creditledger", "CL-", 6, 0, (*generator).creditLedger},
	{"creditavailability", "CA-", 5, 0, (*generator).creditAvailability},
}

// filesPerKind is how many records of each kind with a files tab get
// attachments (the first ones, 1–3 files each): enough to exercise the
// files tab, few enough that a million-project run is not about files.
const filesPerKind = 200

// kindInfo is what the generator needs to know about one kind.
type kindInfo struct {
	kind   *records.Kind
	n      int
	prefix string
	width  int
	offset int64
	files  bool
	fill   func(*generator, *rand.Rand, *row)
}

// row is the record being generated: its promoted values, set by the
// kind's fill function before it calls head. Only the columns the kind
// maps reach the Record and its document.
type row struct {
	id          int64
	title       []byte
	status      string
	parent      int64
	parentName  []byte
	project     int64
	projectName []byte
	amount      int64
	hasAmount   bool
	day         int32 // the record's main date
	hasDay      bool
	created     int64 // unix seconds; 0 means "the main date, during work hours"
	externalID  string
	notes       bool   // whether to add a notes sublist
	currency    string // ISO 4217 code of its money when not the base currency (records.Record.Currency)
}

// generator is the state of one run. Only the generating goroutine uses
// it.
type generator struct {
	opt    Options
	nowSec int64
	nowDay int32
	cal    *calendar

	// What later kinds refer to, indexed by id.
	employees, customers, vendors, projects *names
	vendorCat                               []uint8 // index into the vendor status Choices
	projCustomer                            []int32
	projStart                               []int32 // day
	projManager                             []int32 // employee id

	nextFileID int64
	png        *png.Encoder // BestSpeed: flat colours compress well anyway
	ki         *kindInfo    // the kind being generated
	// more draws the values of fields added after the data set was
	// first laid out (a project's end date, a bill's amount remaining),
	// from a stream of its own per kind: the kind's other values stay
	// what they were.
	more     *rand.Rand
	lines    []line    // a transaction's item lines, built before its document
	expenses []expense // a vendor bill's expense lines, likewise

	// Scratch, reused for every record.
	d     doc
	title []byte
	tmp   []byte
	// arena holds the documents of the current batch; each batch gets a
	// fresh one, so a Sink may keep what it was given.
	arena []byte
	b     *batch
}

func newGenerator(opt Options) (*generator, error) {
	g := &generator{opt: opt, nowSec: opt.Now.Unix(),
		png: &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderBuffer{}}}
	g.nowDay = int32(g.nowSec / 86400)
	g.cal = newCalendar(g.nowDay)
	if err := checkChoices(); err != nil {
		return nil, err
	}
	return g, nil
}

// checkChoices verifies that the word lists keyed by status choices cover
// the registry's choices, so a registry change fails loudly here rather
// than as an index panic in the middle of a run.
func checkChoices() error {
	need := []struct {
		kind  string
		col   records.Column
		table map[string][]string
	}{
		{"vendor", records.ColStatus, vendorItems},
		{"vendor", records.ColStatus, vendorNamePatterns},
		{"employee", records.ColStatus, jobTitles},
		{"genericresource", records.ColStatus, resourceNames},
	}
	for _, n := range need {
		k, ok := records.Lookup(n.kind)
		if !ok {
			return fmt.Errorf("demo: the registry has no kind %s", n.kind)
		}
		f, _ := k.Field(n.col)
		for _, c := range f.Choices {
			if len(n.table[c]) == 0 {
				return fmt.Errorf("demo: no demo words for %s %s %q", n.kind, f.Name, c)
			}
		}
	}
	seen := map[string]bool{}
	for _, p := range plan {
		if _, ok := records.Lookup(p.kind); !ok {
			return fmt.Errorf("demo: the registry has no kind %s", p.kind)
		}
		seen[p.kind] = true
	}
	for _, k := range records.All() {
		if !seen[k.Name] {
			return fmt.Errorf("demo: no generator for kind %s", k.Name)
		}
	}
	return nil
}

// run generates every kind in plan order, sending full batches on out.
func (g *generator) run(ctx context.Context, out chan<- *batch) error {
	for _, p := range plan {
		k, _ := records.Lookup(p.kind)
		n := g.opt.Size(k.Name)
		ki := &kindInfo{
			kind: k, n: n, prefix: p.prefix, offset: p.offset, fill: p.fill,
			// Wide enough for the largest number, so codes sort as numbers.
			width: max(p.width, digits(p.offset+int64(n))),
			files: slices.ContainsFunc(k.Tabs, func(t records.Tab) bool { return t.Source == records.TabFiles }),
		}
		g.ki = ki
		g.prepare(ki)
		r := streamFor(g.opt.Seed, k.Name)
		fr := streamFor(g.opt.Seed, k.Name+"/files")
		g.more = streamFor(g.opt.Seed, k.Name+"/more")
		g.b = g.newBatch(ki, 0)
		for id := int64(1); id <= int64(ki.n); id++ {
			rw := row{id: id}
			ki.fill(g, r, &rw)
			g.emit(ki, r, &rw)
			if ki.files && id <= filesPerKind {
				g.attach(ki, fr, &g.b.recs[len(g.b.recs)-1])
			}
			if len(g.b.recs) == batchSize || id == int64(ki.n) {
				g.b.done = int(id)
				select {
				case out <- g.b:
				case <-ctx.Done():
					return ctx.Err()
				}
				g.b = g.newBatch(ki, int(id))
			}
		}
	}
	return nil
}

func (g *generator) newBatch(ki *kindInfo, done int) *batch {
	g.arena = nil // the previous batch's documents now belong to the sink
	return &batch{kind: ki.kind.Name, total: ki.n,
		recs: make([]records.Record, 0, min(batchSize, ki.n-done))}
}

// prepare sizes the lookup tables of kinds that others refer to.
func (g *generator) prepare(ki *kindInfo) {
	switch ki.kind.Name {
	case "employee":
		g.employees = newNames(ki.n, 16)
	case "customer":
		g.customers = newNames(ki.n, 32)
	case "vendor":
		g.vendors = newNames(ki.n, 28)
		g.vendorCat = make([]uint8, 0, ki.n)
	case "project":
		g.projects = newNames(ki.n, 44)
		g.projCustomer = make([]int32, 0, ki.n)
		g.projStart = make([]int32, 0, ki.n)
		g.projManager = make([]int32, 0, ki.n)
	}
}

// head starts the record's document: its id, external id and promoted
// fields, in registry order, from rw. The kind's fill function then
// appends its own fields to g.d.
func (g *generator) head(rw *row) *doc {
	ki := g.ki
	d := &g.d
	d.reset()
	d.open("")
	g.tmp = strconv.AppendInt(g.tmp[:0], rw.id, 10)
	d.bytes("id", g.tmp)
	if rw.externalID != "" {
		d.str("externalId", rw.externalID)
	}
	for _, f := range ki.kind.Fields {
		switch f.Column {
		case records.ColTitle:
			d.bytes(f.Name, rw.title)
		case records.ColCode:
			d.bytes(f.Name, g.code(ki, rw.id))
		case records.ColStatus:
			d.sel(f.Name, slices.Index(f.Choices, rw.status)+1, rw.status)
		case records.ColParent:
			if rw.parent != 0 {
				d.ref(f.Name, rw.parent, rw.parentName)
			}
		case records.ColProject:
			if rw.project != 0 {
				d.ref(f.Name, rw.project, rw.projectName)
			}
		case records.ColAmount:
			if rw.hasAmount {
				d.money(f.Name, rw.amount)
			}
		case records.ColDate:
			if rw.hasDay {
				d.str(f.Name, g.cal.date(rw.day))
			}
		}
	}
	return d
}

// code returns the kind's document number for id, in g.tmp.
func (g *generator) code(ki *kindInfo, id int64) []byte {
	g.tmp = append(g.tmp[:0], ki.prefix...)
	g.tmp = appendDigits(g.tmp, ki.offset+id, ki.width)
	return g.tmp
}

// emit finishes the document the fill function left in g.d (creation
// and modification times, notes) and appends the Record to the batch.
func (g *generator) emit(ki *kindInfo, r *rand.Rand, rw *row) {
	d := &g.d
	created := rw.created
	if created == 0 {
		day := g.nowDay
		if rw.hasDay {
			day = min(rw.day, g.nowDay)
		}
		created = int64(day)*86400 + between(r, 7*3600, 18*3600)
	}
	created = min(created, g.nowSec)
	// A record is last touched after its main date once that date has
	// passed (a paid invoice was updated when paid), mostly within weeks.
	touched := created
	if rw.hasDay && rw.day <= g.nowDay {
		touched = max(touched, int64(rw.day)*86400+between(r, 7*3600, 18*3600))
	}
	var modified int64
	if chance(r, 0.7) {
		modified = touched + between(r, 0, 30*86400)
	} else {
		modified = between(r, touched, g.nowSec)
	}
	modified = min(modified, g.nowSec)
	g.tmp = g.cal.appendTimestamp(g.tmp[:0], created)
	d.bytes("dateCreated", g.tmp)
	g.tmp = g.cal.appendTimestamp(g.tmp[:0], modified)
	d.bytes("lastModifiedDate", g.tmp)
	if rw.notes || chance(r, 0.2) {
		g.addNotes(r, created, modified)
	}
	d.closeObj()

	rec := records.Record{
		Kind:       ki.kind.Name,
		ID:         rw.id,
		ExternalID: rw.externalID,
		Title:      string(rw.title),
		ModifiedAt: time.Unix(modified, 0).UTC(),
		Currency:   rw.currency,
	}
	for _, f := range ki.kind.Fields {
		switch f.Column {
		case records.ColCode:
			rec.Code = string(g.code(ki, rw.id))
		case records.ColStatus:
			rec.Status = rw.status
		case records.ColParent:
			rec.ParentID, rec.ParentName = rw.parent, string(rw.parentName)
		case records.ColProject:
			rec.ProjectID, rec.ProjectName = rw.project, string(rw.projectName)
		case records.ColAmount:
			if rw.hasAmount {
				a := rw.amount
				rec.Amount = &a
			}
		case records.ColDate:
			if rw.hasDay {
				rec.Date = g.cal.date(rw.day)
			}
		}
	}
	rec.Fields = g.keep(d.b)
	g.b.recs = append(g.b.recs, rec)
}

// keep copies a finished document into the batch's arena, allocated in
// 1 MB chunks: one allocation per thousand-odd records instead of one per
// record, and little slack.
func (g *generator) keep(b []byte) []byte {
	if cap(g.arena)-len(g.arena) < len(b) {
		g.arena = make([]byte, 0, max(len(b), 1<<20))
	}
	start := len(g.arena)
	g.arena = append(g.arena, b...)
	return g.arena[start:len(g.arena):len(g.arena)]
}

// addNotes appends a "notes" sublist of 1–3 entries dated between the
// record's creation and its last change.
func (g *generator) addNotes(r *rand.Rand, created, modified int64) {
	d := &g.d
	d.array("notes")
	n := 1 + r.IntN(3)
	for range n {
		d.open("")
		d.bytes("author", g.employees.get(g.employeeID(r)))
		d.str("date", g.cal.date(int32(between(r, created, modified)/86400)))
		d.str("text", pick(r, noteTexts))
		d.closeObj()
	}
	d.closeArr()
}

// employeeID picks an employee id for references (managers, authors).
func (g *generator) employeeID(r *rand.Rand) int64 {
	return 1 + r.Int64N(int64(g.employees.len()))
}

// customerID picks a client: a third of the work goes to the first
// twentieth of clients (the key accounts), the rest spreads evenly.
func (g *generator) customerID(r *rand.Rand) int64 {
	n := int64(g.customers.len())
	if chance(r, 0.33) {
		return 1 + r.Int64N(max(1, n/20))
	}
	return 1 + r.Int64N(n)
}

// projectID picks a project; started asks for one whose start date has
// passed (an invoice needs work done), which all but a few have.
func (g *generator) projectID(r *rand.Rand, started bool) int64 {
	n := int64(len(g.projStart))
	id := 1 + r.Int64N(n)
	for try := 0; started && try < 8 && g.projStart[id-1] > g.nowDay; try++ {
		id = 1 + r.Int64N(n)
	}
	return id
}

// bankID picks a mitigation bank project: every eighth project from the
// first is one, so there is always at least one.
func (g *generator) bankID(r *rand.Rand) int64 {
	banks := (int64(len(g.projStart)) + 7) / 8
	return 8*r.Int64N(banks) + 1
}

// setProject makes rw belong to project id and, when withClient, to the
// project's own client, so an invoice's client is its project's client.
func (g *generator) setProject(rw *row, id int64, withClient bool) {
	rw.project = id
	rw.projectName = g.projects.get(id)
	if withClient {
		c := int64(g.projCustomer[id-1])
		rw.parent = c
		rw.parentName = g.customers.get(c)
	}
}

// dayBetween returns a day in [from, to], both clamped to the calendar.
func (g *generator) dayBetween(r *rand.Rand, from, to int32) int32 {
	return g.cal.clamp(int32(between(r, int64(g.cal.clamp(from)), int64(g.cal.clamp(to)))))
}

// sixYearsAgo is the earliest day of the data's history.
func (g *generator) sixYearsAgo() int32 { return g.nowDay - 6*365 }
