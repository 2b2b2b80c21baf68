// Command testreport reads `go test -json` events on standard input and prints what a
// plain `go test` would (an ok line per package; for a package that fails, the output
// of its failed tests and its own output; build errors), then the result of every test
// whose name matches -list, one line each as `go test -v` prints it, in the order they
// finished. It exits 1 when a package or a build failed, so `make test-go` keeps failing
// as before.
//
//	go test -json ./... | go run ./scripts/testreport -list '^TestConformance\w*/(sqlite|postgres)$'
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string // build-output, build-fail
}

// pkg is what is kept of a package until it ends.
type pkg struct {
	out    []line          // the package's output and its tests', in order
	failed map[string]bool // tests that failed
}

// line is one line of output and the test that wrote it ("" for the package).
type line struct{ test, text string }

func main() {
	list := flag.String("list", "", "print the result of every test whose full name matches this regular expression")
	title := flag.String("title", "", "a line printed above that list")
	flag.Parse()
	var re *regexp.Regexp
	if *list != "" {
		re = regexp.MustCompile(*list)
	}
	if failed := report(os.Stdin, os.Stdout, re, *title); failed {
		os.Exit(1)
	}
}

// report prints the plain output of the events read from in, and the listed tests'
// results; it answers whether a package or build failed.
func report(in io.Reader, out io.Writer, list *regexp.Regexp, title string) (failed bool) {
	pkgs := map[string]*pkg{}
	get := func(name string) *pkg {
		p := pkgs[name]
		if p == nil {
			p = &pkg{failed: map[string]bool{}}
			pkgs[name] = p
		}
		return p
	}
	var listed []string
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		raw := sc.Bytes()
		var e event
		if err := json.Unmarshal(raw, &e); err != nil || e.Action == "" {
			fmt.Fprintln(out, string(raw)) // not an event: pass it on
			continue
		}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "build-fail":
			failed = true
		case e.Action == "output":
			p := get(e.Package)
			p.out = append(p.out, line{e.Test, e.Output})
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			if e.Action == "fail" {
				get(e.Package).failed[e.Test] = true
			}
			if list != nil && list.MatchString(e.Test) {
				listed = append(listed, fmt.Sprintf("    --- %s: %s (%.2fs)", strings.ToUpper(e.Action), e.Test, e.Elapsed))
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			p := get(e.Package)
			failed = failed || e.Action == "fail"
			for _, l := range p.out {
				switch {
				case l.test == "" && (e.Action == "fail" || strings.HasPrefix(l.text, "ok ") || strings.HasPrefix(l.text, "?")):
					// A passing package says only its ok line, as `go test` without -v does.
					fmt.Fprint(out, l.text)
				case l.test != "" && p.failed[l.test] && !strings.HasPrefix(strings.TrimSpace(l.text), "=== "):
					fmt.Fprint(out, l.text)
				}
			}
			delete(pkgs, e.Package)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testreport:", err)
		failed = true
	}
	// A package that never ended (the run was cut short) fails with what it printed.
	for name, p := range pkgs {
		failed = true
		for _, l := range p.out {
			fmt.Fprint(out, l.text)
		}
		fmt.Fprintf(out, "FAIL\t%s (no result)\n", name)
	}
	if list != nil {
		if title != "" {
			fmt.Fprintln(out, title)
		}
		for _, l := range listed {
			fmt.Fprintln(out, l)
		}
	}
	return failed
}
