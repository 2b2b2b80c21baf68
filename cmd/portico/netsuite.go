package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/records"
)

// netsuiteCheck is `portico netsuite check`: the mapping checked against
// the account, printed kind by kind; it fails when a required check does.
func netsuiteCheck(ctx context.Context, cfg config.Config, log *slog.Logger, verbose bool, stdout io.Writer) error {
	if !cfg.NetSuite.Enabled() {
		return errors.New("netsuite check: no NetSuite account is configured (set PORTICO_NETSUITE_ACCOUNT; see README)")
	}
	conn, _, err := connectNetSuite(cfg.NetSuite, log)
	if err != nil {
		return err
	}
	rep, err := conn.Check(ctx)
	if err != nil {
		return err
	}
	mapping := "the default mapping (internal/erp/netsuite/mapping.yaml)"
	if cfg.NetSuite.MappingFile != "" {
		mapping = cfg.NetSuite.MappingFile
	}
	fmt.Fprintf(stdout, "NetSuite account %s, mapping %s\n\n", cfg.NetSuite.Account, mapping)
	printReport(stdout, rep, verbose)
	if n := len(rep.Failures()); n > 0 {
		return fmt.Errorf("netsuite check: %d required %s failed: fix the mapping entries named above and run the check again",
			n, plural(n, "check", "checks"))
	}
	return nil
}

// printReport prints the report as a table: per kind its problems, each
// with what it means, the mapping entry and NetSuite's words, and a row
// counting the checks that passed (verbose: every check, and NetSuite's
// words on warnings too). A summary line ends it.
func printReport(w io.Writer, rep *netsuite.Report, verbose bool) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tCHECK\tSTATUS\t")
	detail := func(label, text string) {
		if text != "" {
			fmt.Fprintf(tw, "\t\t\t%s %s\n", label, text)
		}
	}
	var kinds []string
	byKind := map[string][]netsuite.CheckResult{}
	for _, r := range rep.Results {
		if _, ok := byKind[r.Kind]; !ok {
			kinds = append(kinds, r.Kind)
		}
		byKind[r.Kind] = append(byKind[r.Kind], r)
	}
	for _, kind := range kinds {
		name := kind
		if name == "" {
			name = "(account)"
		}
		ok := 0
		for _, r := range byKind[kind] {
			if r.Status == netsuite.CheckOK && !verbose && kind != "" {
				ok++
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, r.What, r.Status, r.Note)
			switch {
			case r.Status.Failure():
				detail("fix:", r.Fix)
				detail("NetSuite:", r.NetSuite)
			case r.Status != netsuite.CheckOK:
				detail("entry:", r.Fix)
				if verbose {
					detail("NetSuite:", r.NetSuite)
				}
			}
		}
		if ok > 0 {
			what := plural(ok, "check", "checks")
			if ok < len(byKind[kind]) {
				what = plural(ok, "other check", "other checks")
			}
			fmt.Fprintf(tw, "%s\t%d %s\tok\t\n", name, ok, what)
		}
	}
	tw.Flush()
	for line := range strings.Lines(buf.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	off := rep.Count(netsuite.CheckOff)
	fmt.Fprintf(w, "\n%d kinds (%d off), %d checks: %d ok, %d %s, %d missing, %d failed, %d skipped\n",
		len(records.All()), off, len(rep.Results)-off, rep.Count(netsuite.CheckOK),
		rep.Count(netsuite.CheckWarning), plural(rep.Count(netsuite.CheckWarning), "warning", "warnings"),
		rep.Count(netsuite.CheckMissing), rep.Count(netsuite.CheckFailed), rep.Count(netsuite.CheckSkipped))
}

// zoneMeasured says what the written mapping's timezone comment says
// was measured ("measured on 9 records ...", or that nothing could be).
func zoneMeasured(mapping []byte) string {
	text := string(mapping)
	i := strings.Index(text, "# The zone SuiteQL")
	j := strings.Index(text, "\ntimezone:")
	if i < 0 || j < i {
		return "not measured"
	}
	var words []string
	for line := range strings.Lines(text[i:j]) {
		words = append(words, strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "#"))...)
	}
	s := strings.Join(words, " ")
	if k := strings.Index(s, " on "); strings.Contains(s, "Measured by comparing") && k >= 0 {
		return "measured on " + strings.TrimSuffix(strings.SplitN(s[k+len(" on "):], ". ", 2)[0], ".")
	}
	return "not measured: no record could be read through both APIs; set it to the integration user's Time Zone preference"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// netsuiteMapping is `portico netsuite mapping [-o FILE]`: a starting
// mapping from the account's metadata catalog, to stdout or into a new
// file. The configured mapping plays no part (it may be the broken one).
func netsuiteMapping(ctx context.Context, cfg config.Config, log *slog.Logger, out string, stdout io.Writer) error {
	if !cfg.NetSuite.Enabled() {
		return errors.New("netsuite mapping: no NetSuite account is configured (set PORTICO_NETSUITE_ACCOUNT; see README)")
	}
	nc := cfg.NetSuite
	nc.MappingFile = ""
	conn, _, err := connectNetSuite(nc, log)
	if err != nil {
		return err
	}
	data, err := conn.GenerateMapping(ctx)
	if err != nil {
		return err
	}
	m, err := netsuite.ParseMapping(data)
	if err != nil {
		return fmt.Errorf("netsuite mapping: the written mapping does not parse: %w", err)
	}
	if out == "" {
		_, err = stdout.Write(data)
		return err
	}
	// A new file only: an edited mapping is not to be overwritten.
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("netsuite mapping: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("netsuite mapping: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("netsuite mapping: %w", err)
	}
	var off []string
	for _, k := range records.All() {
		if m.Kind(k).Off {
			off = append(off, k.Name)
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %d kinds", out, len(records.All()))
	if len(off) > 0 {
		fmt.Fprintf(stdout, ", off (not in this account): %s", strings.Join(off, ", "))
	}
	fmt.Fprintf(stdout, "\ntimezone: %s, %s", m.TimeZone, zoneMeasured(data))
	fmt.Fprintf(stdout, "\nreview it, then: PORTICO_NETSUITE_MAPPING=%s portico netsuite check\n", out)
	return nil
}
