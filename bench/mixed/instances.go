package main

import (
	"context"
	"fmt"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// startInstances starts c.instances processes at the same moment on d and
// waits for their health checks. An instance that does not come up is
// named in the notes and kept in the list (a proxy in front of it sees
// connection failures); none coming up is an error.
func startInstances(ctx context.Context, bin string, d *database, c config) ([]*harness.Instance, []string, error) {
	var env []string
	if c.instances > 1 {
		env = append(env, "PORTICO_TRUSTED_PROXIES=127.0.0.1/32")
	}
	all, err := harness.StartInstances(bin, d.Database, c.name, c.instances, env...)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	up := 0
	for _, in := range all {
		if err := in.WaitHealthy(ctx, time.Minute); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %s did not come up: %v; its log: %s", c.name, in.Name, err, in.Log))
			continue
		}
		up++
	}
	if up == 0 {
		harness.Stop(all)
		return nil, notes, fmt.Errorf("%s: no instance came up (logs in %s)", c.name, outDir)
	}
	return all, notes, nil
}

// instanceNotes reports stopped instances' failed exits and logged
// warnings and errors.
func instanceNotes(instances []*harness.Instance) []string {
	var out []string
	for _, in := range instances {
		if in.Err != nil {
			out = append(out, fmt.Sprintf("%s exited: %v", in.Name, in.Err))
		}
		if n := in.LogNote(400); n != "" {
			out = append(out, n)
		}
	}
	return out
}
