package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// seed recreates the database with the demo data.
func seed(ctx context.Context, d *harness.Database, bin string) error {
	if err := d.Recreate(ctx); err != nil {
		return err
	}
	harness.Progress("%s: seeding the demo ...", d.Engine)
	return d.Seed(ctx, bin)
}

// startInstances starts c.instances processes on d and waits for their
// health checks; any one not coming up is an error.
func startInstances(ctx context.Context, bin string, d *harness.Database, c config) ([]*harness.Instance, error) {
	all, err := harness.StartInstances(bin, d, c.name, c.instances)
	if err != nil {
		return nil, err
	}
	for _, in := range all {
		if err := in.WaitHealthy(ctx, time.Minute); err != nil {
			harness.Stop(all)
			return nil, fmt.Errorf("%s did not come up: %v (its log: %s)", in.Name, err, in.Log)
		}
	}
	return all, nil
}

// instanceNotes reports failed exits (other than by the SIGTERM that
// stopped them) and logged warnings and errors.
func instanceNotes(all []*harness.Instance) []string {
	var out []string
	for _, in := range all {
		if in.Err != nil && !strings.Contains(in.Err.Error(), "terminated") {
			out = append(out, fmt.Sprintf("%s exited: %v", in.Name, in.Err))
		}
		if n := in.LogNote(300); n != "" {
			out = append(out, n)
		}
	}
	return out
}
