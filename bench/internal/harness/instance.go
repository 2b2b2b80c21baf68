package harness

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Instance is one `portico serve` process. Err is set once it has exited
// (after Stop returns).
type Instance struct {
	Name string // its PORTICO_INSTANCE, and its log's name
	Addr string // host:port it listens on
	URL  string // http://Addr
	Log  string // its output, a file in the database's DataDir
	Err  error  // how it exited, valid after Stop

	cmd    *exec.Cmd
	exited chan struct{}
}

// StartInstances starts n processes of bin on d at the same moment, named
// name-1 ... name-n, each on a free loopback address with warn-level
// logging, plus env (e.g. PORTICO_TRUSTED_PROXIES). It does not wait for
// them to come up (see WaitHealthy). When one fails to start, those
// started are stopped and the error is returned.
func StartInstances(bin string, d *Database, name string, n int, env ...string) ([]*Instance, error) {
	var all []*Instance
	for i := range n {
		in, err := startInstance(bin, d, fmt.Sprintf("%s-%d", name, i+1), env)
		if err != nil {
			Stop(all)
			return nil, err
		}
		all = append(all, in)
	}
	return all, nil
}

func startInstance(bin string, d *Database, name string, env []string) (*Instance, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(d.DataDir, name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(CleanEnv(), "PORTICO_DATABASE_URL="+d.URL, "PORTICO_DATA_DIR="+d.DataDir, "PORTICO_ADDR="+addr,
		"PORTICO_LOG_LEVEL=warn", "PORTICO_INSTANCE="+name)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	in := &Instance{Name: name, Addr: addr, URL: "http://" + addr, Log: logPath, cmd: cmd, exited: make(chan struct{})}
	go func() {
		in.Err = cmd.Wait()
		f.Close()
		close(in.exited)
	}()
	return in, nil
}

// Pid is the process's id (for reading /proc).
func (in *Instance) Pid() int { return in.cmd.Process.Pid }

// WaitHealthy polls the health check every 100 ms until it answers 200,
// and fails when the process exits, ctx ends or limit passes first.
func (in *Instance) WaitHealthy(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-in.exited:
			return fmt.Errorf("exited: %v", in.Err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		resp, err := http.Get(in.URL + "/api/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return errors.New("no healthy answer within " + limit.String())
}

// Stop ends the processes as an operator would (SIGTERM to all, a kill
// for any still running after 20 s) and waits for every one to exit.
func Stop(all []*Instance) {
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

// LogNote summarises the warnings and errors in the instance's log, with
// the first error cut to firstErr bytes, or is empty when there are none
// (or the log cannot be read).
func (in *Instance) LogNote(firstErr int) string {
	f, err := os.Open(in.Log)
	if err != nil {
		return ""
	}
	defer f.Close()
	var warns, errs int
	var first string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		switch line := sc.Text(); {
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
	note := fmt.Sprintf("%s logged %d errors and %d warnings (%s)", in.Name, errs, warns, in.Log)
	if first != "" {
		note += "; the first error: " + Truncate(first, firstErr)
	}
	return note
}
