// Package harness is what the benchmark programs under bench/ share: a
// benchmark database seeded by the portico binary, demo users signed in
// with real session tokens, `portico serve` processes started on that
// database and stopped again, and small helpers for their reports.
//
// The functions run the portico binary the caller built and pass it only
// the settings named here (see CleanEnv). Progress goes to stderr, so that
// the programs' tables on stdout stay clean.
package harness

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// CleanEnv is this process's environment without PORTICO_* variables: the
// processes it is given to get only the settings the benchmark adds (no
// ERP, no settings of the shell's own).
func CleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PORTICO_") {
			out = append(out, kv)
		}
	}
	return out
}

// FreeAddr is a loopback address (host:port) whose port was free a moment
// ago; another process may take it before the caller listens on it.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Revision names the code measured: the commit (git, from the working
// directory), with " + uncommitted changes" when the server's sources
// differ from it, or "(revision unknown)" outside a git work tree.
func Revision() string {
	head, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "(revision unknown)"
	}
	rev := strings.TrimSpace(string(head))
	dirty, _ := exec.Command("git", "status", "--porcelain", "--", "cmd", "internal", "web/embed.go", "go.mod", "go.sum").Output()
	if len(dirty) > 0 {
		rev += " + uncommitted changes"
	}
	return rev
}

// DescribeMachine names the host and its CPU count, for a table's heading.
func DescribeMachine() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("host %s, %d CPUs", host, runtime.NumCPU())
}

// Progress reports what the benchmark is doing on stderr, one indented
// line, away from the tables on stdout.
func Progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "  "+format+"\n", args...)
}

// Truncate is s cut to its first n bytes, with "…" when anything was cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// lastLines is the end of a command's output, for an error message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
