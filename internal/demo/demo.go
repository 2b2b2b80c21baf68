// Package demo generates deterministic demo data for an environmental
// services company (wetland and stream restoration, mitigation banking,
// habitat monitoring, erosion control): records of every kind of the
// records registry, linked to each other, and small real file attachments.
//
// The same Options always give byte-identical records and files, so tests
// and benchmarks can rely on the data. Records are shaped as NetSuite's
// REST record API returns them: each Record's Fields document holds the
// promoted values under the registry's field ids (references and list
// values as {"id", "refName"}, money and quantities as numbers with two
// decimals, dates as "yyyy-mm-dd"), plus further fields and sublists
// ("notes", a questionnaire's "answers", an opportunity's
// "communication", a project's "ecometrics").
package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/records"
)

// CompanyName is the demo company: the tenant the demo data belongs to.
// Employee e-mail addresses use its domain, CompanyDomain.
const (
	CompanyName   = "Riverbend Ecological Services"
	CompanyDomain = "riverbend-eco.example"
)

// Company is the demo company's profile, the letterhead of its invoices
// and bills: CompanyName, registered as an LLC, with its office in Eugene,
// Oregon, a phone number of the 555-01xx range kept for fiction, an
// address on CompanyDomain and a made-up employer identification number.
// It is as company.Profile.Clean leaves it.
func Company() company.Profile {
	return company.Profile{
		Name:      CompanyName,
		LegalName: CompanyName + ", LLC",
		Address: company.Address{
			Lines:      []string{"2140 Riverbend Way", "Suite 200"},
			City:       "Eugene",
			Region:     "OR",
			PostalCode: "97401",
			Country:    "US",
		},
		Phone: "(541) 555-0142",
		Email: "accounts@" + CompanyDomain,
		TaxID: "93-4416207",
	}
}

// The demo's project manager, Pete (user pete.pm@portico.test of
// access.yaml), is employee PeteEmployeeID, whose "email" is the user's
// address: the link by which the portal finds a user's employee record
// (records.UserEmployeeField). A project names its manager in
// "projectmanager" (the kind's records.Kind.Owner); Pete manages about
// one project in PeteShare, a minority, and every other project's
// manager is another employee.
const (
	PeteEmployeeID = 2
	PeteName       = "Pete Manager"
	PeteEmail      = "pete.pm@portico.test"
	PeteShare      = 20
)

// Sink receives the generated data; *sqlstore.Tenant is one. Generate
// calls it from one goroutine only, one batch at a time, records of a
// batch always of one kind. A Sink may keep the slices it is given:
// Generate never reuses them.
type Sink interface {
	PutRecords(ctx context.Context, rs []records.Record) error
	PutFiles(ctx context.Context, fs []records.File) error
}

// Options say how much data to generate and from which seed.
type Options struct {
	// Projects is the number of projects; 0 means PerKind.
	Projects int
	// PerKind is the number of records of every kind other than project;
	// 0 means 1000. When Projects is large the other kinds grow with it:
	// each gets max(PerKind, Projects/10) records, so a million projects
	// come with 100,000 clients, invoices, budgets, ... each.
	PerKind int
	// Seed selects the data set; every seed is valid, 0 included.
	Seed uint64
	// Now is the moment the data is generated "as of": dates fall in the
	// six years before it (expected closes, schedules and expiries up to
	// a year after). The zero value means the start of today (UTC), so
	// runs on one day agree; tests should set it.
	Now time.Time
	// Progress, when set, is called after each batch is stored, from the
	// goroutine that called Generate, with the kind and how many of its
	// records are stored out of total.
	Progress func(kind string, done, total int)
}

// Stats describes a finished run.
type Stats struct {
	Rows      map[string]int // records stored per kind name
	Files     int            // attachments stored
	FileBytes int64          // their total size
	Duration  time.Duration  // wall time of Generate
}

// Total returns the number of records stored, all kinds together.
func (s Stats) Total() int {
	n := 0
	for _, v := range s.Rows {
		n += v
	}
	return n
}

// Size returns how many records of kind opt generates (after defaults).
func (opt Options) Size(kind string) int {
	opt = opt.withDefaults()
	if kind == "project" {
		return opt.Projects
	}
	return max(opt.PerKind, opt.Projects/10)
}

// withDefaults fills the zero values the Options doc comments describe.
func (opt Options) withDefaults() Options {
	if opt.PerKind == 0 {
		opt.PerKind = 1000
	}
	if opt.Projects == 0 {
		opt.Projects = opt.PerKind
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now().UTC().Truncate(24 * time.Hour)
	}
	opt.Now = opt.Now.UTC().Truncate(time.Second)
	return opt
}

// batchSize is the number of records handed to the sink at once; one
// PutRecords call is one transaction in sqlstore. Measured on SQLite with
// a million projects: each commit rewrites every index page the batch
// touched, and rows land at random places in the title, status and
// modified indexes, so 4,000-row batches wrote 59 GB through the WAL for
// a 7.7 GB database (4m12s); 40,000-row batches halved that. 25,000 keeps
// most of the gain with a few tens of megabytes per batch in flight.
const batchSize = 25000

// batch is one unit of the pipeline: records of one kind and the files
// attached to them.
type batch struct {
	kind        string
	recs        []records.Record
	files       []records.File
	done, total int
}

// Generate writes the demo data set described by opt into sink and returns
// what it wrote. Records are generated in dependency order (employees,
// clients, vendors and generic resources, then projects, then the kinds
// that refer to them), so every reference points at a record already
// stored. Record ids are 1..n per kind; file ids are 1..n per run.
// Generation runs in its own goroutine, one batch ahead of the sink, so
// building a batch overlaps storing the previous one. Generate stops at
// the first sink error or when ctx is cancelled, returning that error;
// what was stored until then stays stored.
func Generate(ctx context.Context, sink Sink, opt Options) (Stats, error) {
	started := time.Now()
	if opt.Projects < 0 || opt.PerKind < 0 {
		return Stats{}, errors.New("demo: Projects and PerKind must not be negative")
	}
	opt = opt.withDefaults()
	g, err := newGenerator(opt)
	if err != nil {
		return Stats{}, err
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A buffer of one batch: the generator may run one batch ahead of the
	// writer, and memory stays bounded whatever the size.
	batches := make(chan *batch, 1)
	genDone := make(chan error, 1)
	go func() {
		defer close(batches)
		genDone <- g.run(ctx, batches)
	}()

	stats := Stats{Rows: map[string]int{}}
	var writeErr error
	for b := range batches {
		if writeErr != nil {
			continue // drain until the generator sees the cancellation
		}
		if err := ctx.Err(); err != nil {
			// The sink may not look at ctx; stop writing at once anyway.
			writeErr = fmt.Errorf("demo: %w", err)
			continue
		}
		if err := sink.PutRecords(ctx, b.recs); err != nil {
			writeErr = fmt.Errorf("demo: store %s records: %w", b.kind, err)
			cancel()
			continue
		}
		if len(b.files) > 0 {
			if err := sink.PutFiles(ctx, b.files); err != nil {
				writeErr = fmt.Errorf("demo: store %s files: %w", b.kind, err)
				cancel()
				continue
			}
		}
		stats.Rows[b.kind] += len(b.recs)
		stats.Files += len(b.files)
		for _, f := range b.files {
			stats.FileBytes += int64(len(f.Content))
		}
		if opt.Progress != nil {
			opt.Progress(b.kind, b.done, b.total)
		}
	}
	genErr := <-genDone
	stats.Duration = time.Since(started)
	if writeErr != nil {
		return stats, writeErr
	}
	if genErr != nil {
		return stats, fmt.Errorf("demo: %w", genErr)
	}
	return stats, nil
}
