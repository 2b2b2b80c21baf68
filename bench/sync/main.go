// Command sync measures the ERP pull the way issue 8 asks: a full pull of
// a million records from the fake NetSuite account (its own process, over
// loopback HTTP, 1000-row SuiteQL pages, TBA-signed) into a fresh store —
// SQLite, and PostgreSQL when PORTICO_BENCH_DATABASE_URL is set — with the
// search index kept as it goes. It prints records/s and this process's
// peak memory (the fake's memory is its own): the Go heap in use during
// each pull, and the process's peak resident set.
//
//	go run ./bench/sync [-records 1000000]
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

const account = "123456_SB1"

var cpuProfile string

func main() {
	n := flag.Int("records", 1_000_000, "projects in the fake account (the kind pulled)")
	dir := flag.String("dir", "bench/out", "where the fake's binary and the SQLite file go")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the pulls to this file")
	flag.Parse()
	if err := run(*n, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "bench sync:", err)
		os.Exit(1)
	}
}

func run(n int, dir string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	bin := filepath.Join(dir, "netsuite-fake")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/netsuite-fake").CombinedOutput(); err != nil {
		return fmt.Errorf("build the fake: %v\n%s", err, out)
	}
	fmt.Printf("loading %d projects into the fake account (its own process) ...\n", n)
	fake := exec.CommandContext(ctx, bin, "-seed-projects", fmt.Sprint(n), "-per-kind", "1000",
		"-tba", "ck:cs:tid:ts", "-account", account, "-concurrency", "10")
	fake.Stderr = io.Discard
	stdout, err := fake.StdoutPipe()
	if err != nil {
		return err
	}
	if err := fake.Start(); err != nil {
		return err
	}
	defer fake.Wait()
	defer cancel()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("the fake did not start: %w", err)
	}
	base := strings.TrimSpace(line)

	engines := []struct{ name, url string }{{"sqlite", "sqlite:" + filepath.Join(dir, "sync-bench.db")}}
	if pg := os.Getenv("PORTICO_BENCH_DATABASE_URL"); pg != "" {
		engines = append(engines, struct{ name, url string }{"postgres", pg})
	}
	k, _ := records.Lookup("project")
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	fmt.Println("\nstored: the records are in the store (lists and record pages); indexed: the list indexes")
	fmt.Println("and the search index are built too (a first full pull into an empty store builds them once, after).")
	fmt.Printf("\n%-9s %9s %10s %10s %11s %11s %13s\n", "store", "records", "stored s", "stored/s", "indexed s", "indexed/s", "peak heap MB")
	defer func() { fmt.Printf("\npeak resident memory of this process (all runs): %d MB\n", peakRSS()>>20) }()
	for _, e := range engines {
		var (
			store *sqlstore.Store
			drop  = func() {}
		)
		if e.name == "sqlite" {
			os.Remove(strings.TrimPrefix(e.url, "sqlite:"))
			store, err = sqlstore.Open(ctx, e.url, "")
		} else {
			store, drop, err = sqlstore.OpenScratch(ctx, e.url)
		}
		if err != nil {
			return err
		}
		store.EnsureTenant(ctx, "bench", "Bench")
		conn, err := netsuite.New(netsuite.Config{Account: account, BaseURL: base, PageSize: 1000, Concurrency: 4,
			Auth: netsuite.TBA{Account: account, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts"}})
		if err != nil {
			return err
		}
		eng := erpsync.New(conn, store.Tenant("bench"), erpsync.Options{Logger: slog.New(slog.DiscardHandler)})
		runtime.GC()
		peak := make(chan uint64)
		stop := make(chan struct{})
		go samplePeak(stop, peak)
		start := time.Now()
		if err := eng.Pull(ctx, []*records.Kind{k}, true); err != nil {
			return err
		}
		took := time.Since(start)
		close(stop)
		pulled := eng.Metrics().Pulled.Load()
		stored := took - time.Duration(eng.Metrics().IndexMillis.Load())*time.Millisecond
		fmt.Printf("%-9s %9d %10.1f %10.0f %11.1f %11.0f %13.0f\n", e.name, pulled, stored.Seconds(), float64(pulled)/stored.Seconds(),
			took.Seconds(), float64(pulled)/took.Seconds(), float64(<-peak)/(1<<20))
		store.Close()
		drop()
	}
	return nil
}

// peakRSS is the process's peak resident set (VmHWM), 0 when unknown.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// samplePeak reports the largest Go heap in use seen until stop closes.
func samplePeak(stop <-chan struct{}, out chan<- uint64) {
	var peak uint64
	var m runtime.MemStats
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapInuse)
		select {
		case <-stop:
			out <- peak
			return
		case <-t.C:
		}
	}
}
