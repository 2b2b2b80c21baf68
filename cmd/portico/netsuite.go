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
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erpconn"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/secretbox"
	"github.com/portico/portico/internal/sqlstore"
)

// envOnly is the account PORTICO_NETSUITE_* configure, for a netsuite
// command given no -tenant; cmd names it in the error when there is none.
func envOnly(cmd string, cfg config.Config) (netsuiteAccount, error) {
	if !cfg.NetSuite.Enabled() {
		return netsuiteAccount{}, fmt.Errorf("%s: no NetSuite account is configured (set PORTICO_NETSUITE_ACCOUNT, or give -tenant T for a stored connection; see docs/netsuite.md)", cmd)
	}
	return envAccount(cfg), nil
}

// netsuiteCommand runs `netsuite check` or `netsuite mapping` on a.
func netsuiteCommand(ctx context.Context, cmd string, a netsuiteAccount, log *slog.Logger, verbose bool, outFile string, stdout io.Writer) error {
	if cmd == "netsuite check" {
		return netsuiteCheck(ctx, a, log, verbose, stdout)
	}
	return netsuiteMapping(ctx, a, log, outFile, stdout)
}

// netsuiteCheck is `portico netsuite check`: the mapping checked against
// the account, printed kind by kind; it fails when a required check does.
func netsuiteCheck(ctx context.Context, a netsuiteAccount, log *slog.Logger, verbose bool, stdout io.Writer) error {
	conn, _, err := connectNetSuite(a, log)
	if err != nil {
		return err
	}
	rep, err := conn.Check(ctx)
	if err != nil {
		return err
	}
	mapping := "the default mapping (internal/erp/netsuite/mapping.yaml)"
	switch {
	case a.mapping != nil:
		mapping = "the mapping stored for tenant " + string(a.tenant)
	case a.cfg.MappingFile != "":
		mapping = a.cfg.MappingFile
	}
	fmt.Fprintf(stdout, "NetSuite account %s of tenant %s, mapping %s\n\n", a.cfg.Account, a.tenant, mapping)
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
func netsuiteMapping(ctx context.Context, a netsuiteAccount, log *slog.Logger, out string, stdout io.Writer) error {
	a.cfg.MappingFile, a.mapping = "", nil
	conn, _, err := connectNetSuite(a, log)
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
	if !a.stored {
		fmt.Fprintf(stdout, "\nreview it, then: PORTICO_NETSUITE_MAPPING=%s portico netsuite check\n", out)
	} else {
		fmt.Fprintf(stdout, "\nreview it, then: portico netsuite connect -tenant %s -mapping %s && portico netsuite check -tenant %s\n", a.tenant, out, a.tenant)
	}
	return nil
}

// netsuiteConnect is `portico netsuite connect -tenant T [-mapping FILE]`:
// the account PORTICO_NETSUITE_* configure becomes tenant T's stored
// connection, its credentials sealed (PORTICO_SECRET_KEYS) and its
// mapping (the file's, or the shipped one) kept with it. With
// PORTICO_NETSUITE_ACCOUNT unset, -mapping replaces the mapping of the
// tenant's stored connection alone. Servers and syncs started afterwards
// sync the tenant from it.
func netsuiteConnect(ctx context.Context, cfg config.Config, store *sqlstore.Store, tenant, mappingFile string, stdout io.Writer) error {
	if tenant == "" {
		return errors.New("netsuite connect: give the tenant: -tenant T")
	}
	id, err := portal.ParseTenantID(tenant)
	if err != nil {
		return fmt.Errorf("netsuite connect: %q is not a tenant ID", tenant)
	}
	if !cfg.SecretKeys.Configured() {
		return fmt.Errorf("netsuite connect: %w", secretbox.ErrNoKey)
	}
	var c erpconn.Connection
	if cfg.NetSuite.Enabled() {
		c = erpconn.Connection{Tenant: id, NetSuite: cfg.NetSuite}
		c.NetSuite.PrivateKeyFile, c.NetSuite.MappingFile = "", ""
		if cfg.NetSuite.Auth != "tba" {
			if c.PrivateKey, err = os.ReadFile(cfg.NetSuite.PrivateKeyFile); err != nil {
				return fmt.Errorf("netsuite connect: PORTICO_NETSUITE_PRIVATE_KEY_FILE: %w", err)
			}
			if _, err := netsuite.ParsePrivateKey(c.PrivateKey); err != nil {
				return fmt.Errorf("netsuite connect: PORTICO_NETSUITE_PRIVATE_KEY_FILE: %w", err)
			}
		}
		if mappingFile == "" {
			mappingFile = cfg.NetSuite.MappingFile
		}
	} else {
		var ok bool
		if c, ok, err = erpconn.Find(ctx, store, cfg.SecretKeys, id); err != nil {
			return fmt.Errorf("netsuite connect: %w", err)
		} else if !ok || mappingFile == "" {
			return fmt.Errorf("netsuite connect: set PORTICO_NETSUITE_ACCOUNT and the account's other PORTICO_NETSUITE_* variables (see docs/netsuite.md); " +
				"to change only the mapping of a stored connection, give -mapping FILE")
		}
	}
	if mappingFile != "" {
		if c.Mapping, err = os.ReadFile(mappingFile); err != nil {
			return fmt.Errorf("netsuite connect: %w", err)
		}
		m, err := netsuite.ParseMapping(c.Mapping)
		if err == nil {
			_, err = m.Registry()
		}
		if err != nil {
			return fmt.Errorf("netsuite connect: the mapping %s: %w", mappingFile, err)
		}
	}
	c.UpdatedAt = time.Now()
	if err := erpconn.Save(ctx, store, cfg.SecretKeys, c); err != nil {
		return sentence("netsuite connect", err)
	}
	mapping := "the shipped mapping"
	if c.Mapping != nil {
		mapping = "its own mapping"
	}
	fmt.Fprintf(stdout, "tenant %s syncs from NetSuite account %s with %s; its credentials are sealed with key %s\n"+
		"servers and syncs started from now on use it; check it: portico netsuite check -tenant %s\n",
		id, c.NetSuite.Account, mapping, cfg.SecretKeys.Current(), id)
	return nil
}

// netsuiteDisconnect is `portico netsuite disconnect -tenant T`: the
// tenant's stored connection is deleted (its records stay).
func netsuiteDisconnect(ctx context.Context, store *sqlstore.Store, tenant string, stdout io.Writer) error {
	id, err := portal.ParseTenantID(tenant)
	if err != nil {
		return errors.New("netsuite disconnect: give the tenant: -tenant T")
	}
	if err := store.DeleteERPConnection(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tenant %s has no stored NetSuite connection; its records stay\n", id)
	return nil
}

// secretsRekey is `portico secrets rekey`: every stored credential sealed
// with another key than the first of PORTICO_SECRET_KEYS is sealed again
// with it; then the older keys may be dropped.
func secretsRekey(ctx context.Context, cfg config.Config, store *sqlstore.Store, stdout io.Writer) error {
	n, err := erpconn.Rekey(ctx, store, cfg.SecretKeys)
	if err != nil {
		return fmt.Errorf("secrets rekey: %w", err)
	}
	fmt.Fprintf(stdout, "sealed %d stored %s again with key %s; the other keys may now be dropped from PORTICO_SECRET_KEYS\n",
		n, plural(n, "connection", "connections"), cfg.SecretKeys.Current())
	return nil
}
