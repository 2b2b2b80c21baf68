// Command netsuite-fake runs the fake NetSuite account of package
// netsuitetest as a process, seeded with the demo data, so the portal (or
// a benchmark) can be pointed at it like at a real account:
//
//	netsuite-fake -tba ck:cs:tid:ts -seed-projects 1000000
//
// It prints the account's base URL on stdout once the data is loaded and
// it is listening; use it as the connector's base URL. It stops on
// SIGINT or SIGTERM.
package main

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "netsuite-fake:", err)
		os.Exit(1)
	}
}

// run parses args, seeds the account, serves it until ctx ends, and
// writes the base URL to out and progress to log.
func run(ctx context.Context, args []string, out, log io.Writer) error {
	fs := flag.NewFlagSet("netsuite-fake", flag.ContinueOnError)
	fs.SetOutput(log)
	addr := fs.String("addr", "127.0.0.1:0", "listen address (port 0 picks a free port)")
	projects := fs.Int("seed-projects", 0, "demo projects to load (0: as many as -per-kind)")
	perKind := fs.Int("per-kind", 1000, "demo records of every other kind (more when -seed-projects/10 is larger)")
	seed := fs.Uint64("seed", 0, "demo data seed")
	tba := fs.String("tba", "", "accept Token-Based Authentication with consumerKey:consumerSecret:tokenId:tokenSecret")
	m2m := fs.String("m2m", "", "accept OAuth 2.0 client credentials: clientId:certificateId:PEM file of the certificate or public key")
	account := fs.String("account", "123456_SB1", "account id: the TBA realm")
	concurrency := fs.Int("concurrency", netsuitetest.DefaultConcurrency, "concurrent requests allowed")
	schemaFile := fs.String("schema", "", "account schema in account.yaml's format (default: the built-in account)")
	without := fs.String("without", "", "comma-separated record types (customrecord_res_billing) and fields (job.custentity_res_county) the account lacks")
	zone := fs.String("timezone", "UTC", "the integration user's Time Zone preference (IANA name): SuiteQL's date-times are in it")
	dateFormat := fs.String("date-format", netsuitetest.DefaultDateFormat, "the integration user's Date Format preference (DD/MM/YYYY, D.M.YYYY, ...)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	loc, err := time.LoadLocation(*zone)
	if err != nil {
		return fmt.Errorf("-timezone: %w", err)
	}
	cfg := netsuitetest.Config{Concurrency: *concurrency, Location: loc, DateFormat: *dateFormat}
	if *schemaFile != "" || *without != "" {
		data := netsuitetest.DefaultAccount
		if *schemaFile != "" {
			var err error
			if data, err = os.ReadFile(*schemaFile); err != nil {
				return err
			}
		}
		var drop []string
		if *without != "" {
			drop = strings.Split(*without, ",")
		}
		sc, err := netsuitetest.LoadSchema(data, drop...)
		if err != nil {
			return err
		}
		cfg.Schema = sc
	}
	if *tba != "" {
		v, err := tbaVerifier(*tba, *account)
		if err != nil {
			return err
		}
		cfg.TBA = v
	}
	if *m2m != "" {
		v, err := m2mVerifier(*m2m)
		if err != nil {
			return err
		}
		cfg.M2M = v
	}
	if cfg.TBA == nil && cfg.M2M == nil {
		return errors.New("give -tba or -m2m: the fake refuses requests without credentials, as NetSuite does")
	}
	fake, err := netsuitetest.New(cfg)
	if err != nil {
		return err
	}
	stats, err := demo.Generate(ctx, fake, demo.Options{Projects: *projects, PerKind: *perKind, Seed: *seed})
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "netsuite-fake: loaded %d records and %d files in %v\n", stats.Total(), stats.Files, stats.Duration.Round(time.Millisecond))

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: fake, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintln(out, "http://"+ln.Addr().String())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// tbaVerifier accepts the one consumer and token given as
// consumerKey:consumerSecret:tokenId:tokenSecret.
func tbaVerifier(spec, account string) (*netsuitetest.TBAVerifier, error) {
	parts := strings.Split(spec, ":")
	if len(parts) != 4 || slices.Contains(parts, "") {
		return nil, errors.New("-tba: want consumerKey:consumerSecret:tokenId:tokenSecret")
	}
	return &netsuitetest.TBAVerifier{
		Realm: netsuite.Realm(account),
		Lookup: func(consumerKey, tokenID string) (string, string, bool) {
			return parts[1], parts[3], consumerKey == parts[0] && tokenID == parts[2]
		},
	}, nil
}

// m2mVerifier registers the certificate given as clientId:certId:pemFile.
func m2mVerifier(spec string) (*netsuitetest.M2MVerifier, error) {
	parts := strings.SplitN(spec, ":", 3)
	if len(parts) != 3 || slices.Contains(parts, "") {
		return nil, errors.New("-m2m: want clientId:certificateId:pemFile")
	}
	data, err := os.ReadFile(parts[2])
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("-m2m: %s holds no PEM block", parts[2])
	}
	var pub any
	switch block.Type {
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			pub = cert.PublicKey
		}
	case "PUBLIC KEY":
		pub, err = x509.ParsePKIXPublicKey(block.Bytes)
	default:
		return nil, fmt.Errorf("-m2m: %s holds a %s, want a CERTIFICATE or PUBLIC KEY", parts[2], block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("-m2m: %w", err)
	}
	v := &netsuitetest.M2MVerifier{}
	if err := v.Register(parts[0], parts[1], pub); err != nil {
		return nil, err
	}
	return v, nil
}
