package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// instance is one `portico serve` process.
type instance struct {
	name   string
	url    string
	log    string // its output, a file under outDir
	cmd    *exec.Cmd
	exited chan struct{}
	err    error // how it exited, once exited is closed
}

// startInstances starts c.instances processes at the same moment on d and
// waits for their health checks. An instance that does not come up is
// named in the notes and kept in the list (a proxy in front of it sees
// connection failures); none coming up is an error.
func startInstances(ctx context.Context, bin string, d *database, c config) ([]*instance, []string, error) {
	var all []*instance
	for i := range c.instances {
		in, err := startInstance(bin, d, c, i)
		if err != nil {
			stopInstances(all)
			return nil, nil, err
		}
		all = append(all, in)
	}
	var notes []string
	up := 0
	for _, in := range all {
		if err := in.waitHealthy(ctx, time.Minute); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %s did not come up: %v; its log: %s", c.name, in.name, err, in.log))
			continue
		}
		up++
	}
	if up == 0 {
		stopInstances(all)
		return nil, notes, fmt.Errorf("%s: no instance came up (logs in %s)", c.name, outDir)
	}
	return all, notes, nil
}

func startInstance(bin string, d *database, c config, i int) (*instance, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s-%d", c.name, i+1)
	logPath := filepath.Join(outDir, name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(cleanEnv(), "PORTICO_DATABASE_URL="+d.url, "PORTICO_DATA_DIR="+outDir, "PORTICO_ADDR="+addr,
		"PORTICO_LOG_LEVEL=warn", "PORTICO_INSTANCE="+name)
	if c.instances > 1 {
		cmd.Env = append(cmd.Env, "PORTICO_TRUSTED_PROXIES=127.0.0.1/32")
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	in := &instance{name: name, url: "http://" + addr, log: logPath, cmd: cmd, exited: make(chan struct{})}
	go func() {
		in.err = cmd.Wait()
		f.Close()
		close(in.exited)
	}()
	return in, nil
}

// waitHealthy polls the health check until it answers 200.
func (in *instance) waitHealthy(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-in.exited:
			return fmt.Errorf("exited: %v", in.err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		resp, err := http.Get(in.url + "/api/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return errors.New("no healthy answer within " + limit.String())
}

// stopInstances ends the processes as an operator would (SIGTERM, a kill
// after 20 s) and waits for them.
func stopInstances(all []*instance) {
	for _, in := range all {
		in.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, in := range all {
		select {
		case <-in.exited:
		case <-time.After(20 * time.Second):
			in.cmd.Process.Kill()
			<-in.exited
		}
	}
}

// logNote summarises an instance's warnings and errors, or is empty.
func (in *instance) logNote() string {
	f, err := os.Open(in.log)
	if err != nil {
		return ""
	}
	defer f.Close()
	var warns, errs int
	var first string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "level=ERROR"):
			if errs++; first == "" {
				first = line
			}
		case strings.Contains(line, "level=WARN"):
			warns++
		}
	}
	if warns+errs == 0 {
		return ""
	}
	note := fmt.Sprintf("%s logged %d errors and %d warnings (%s)", in.name, errs, warns, in.log)
	if first != "" {
		note += "; the first error: " + truncate(first, 400)
	}
	return note
}

// cleanEnv is this process's environment without PORTICO_* variables: the
// instances get only the settings the benchmark gives them (no ERP).
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PORTICO_") {
			out = append(out, kv)
		}
	}
	return out
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
