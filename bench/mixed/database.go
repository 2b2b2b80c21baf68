package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// database is one engine's benchmark database, with the demo users
// signed in on it.
type database struct {
	*harness.Database
	callers []harness.Caller
}

// prepareDatabases seeds one database per engine the configurations use
// and signs the demo users in on it. The map holds every database created,
// also when an error stops the preparation, so the caller can remove them.
func prepareDatabases(ctx context.Context, bin string, o options, chosen []config) (map[string]*database, error) {
	dbs := map[string]*database{}
	for _, c := range chosen {
		if dbs[c.engine] != nil {
			continue
		}
		hd, err := harness.NewDatabase(c.engine, o.databaseURL, outDir, "portico_bench_mixed")
		if err != nil {
			return dbs, err
		}
		d := &database{Database: hd}
		dbs[c.engine] = d
		if err := d.ensureSeeded(ctx, bin, o.projects); err != nil {
			return dbs, err
		}
		if d.callers, err = harness.SignIn(ctx, d.Database); err != nil {
			return dbs, fmt.Errorf("%s: sign in: %w", d.Engine, err)
		}
	}
	return dbs, nil
}

// ensureSeeded keeps a database that holds the projects asked for (from an
// earlier run with -keep), else recreates and seeds it.
func (d *database) ensureSeeded(ctx context.Context, bin string, projects int) error {
	if n, err := d.countProjects(ctx); err == nil && n == projects {
		harness.Progress("%s: reusing the database seeded earlier (%d projects)", d.Engine, n)
		return nil
	}
	if err := d.Recreate(ctx); err != nil {
		return err
	}
	harness.Progress("%s: seeding %d projects ...", d.Engine, projects)
	start := time.Now()
	if err := d.Seed(ctx, bin, "-projects", strconv.Itoa(projects)); err != nil {
		return err
	}
	harness.Progress("%s: seeded in %s", d.Engine, time.Since(start).Round(time.Second))
	return nil
}

func (d *database) countProjects(ctx context.Context) (int, error) {
	if !d.Exists() {
		return 0, fmt.Errorf("%s: no database file", d.Engine)
	}
	db, err := d.Open()
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(ctx, d.Rebind(`SELECT COUNT(*) FROM records WHERE tenant_id = ? AND kind = 'project'`), string(harness.Tenant)).Scan(&n)
	return n, err
}
