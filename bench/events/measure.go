package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// editPool is how many projects the edits rename, each once (the demo has
// 1,000): a stream's first event naming a project is that edit's delivery.
const editPool = 1000

// grace is how long the streams are given after the last edit.
const grace = 5 * time.Second

// result is what one configuration measured.
type result struct {
	config       config
	streams      int // connected
	edits        int // acknowledged
	pairs        int // (stream, acknowledged edit)
	missed       int
	all, cross   []time.Duration // delivery after the write was sent
	puts         []time.Duration // the edits' PUT answers
	rssBefore    int64           // kB, summed over the instances
	rssIdle      int64
	cpuPercent   float64 // of one core, summed over the instances
	cpuPerInst   []float64
	notes        []string
	streamErrors map[string]int
}

// stream is one event stream held open.
type stream struct {
	inst int
	who  harness.Caller
	conn net.Conn
	got  map[int64]time.Time // project id → first record event naming it
	err  error               // why it ended before the benchmark closed it
}

func measure(ctx context.Context, o options, c config, instances []*harness.Instance, callers []harness.Caller) (*result, error) {
	res := &result{config: c, streamErrors: map[string]int{}}
	editor := callers[1]
	base := "http://" + instances[0].Addr + "/api/v1/netsuite/"
	if _, err := version(ctx, base, editor, 1); err != nil {
		return res, fmt.Errorf("%s: preflight: %w", c.name, err)
	}
	time.Sleep(time.Second)
	res.rssBefore = sumRSS(instances)

	harness.Progress("%s: connecting %d streams", c.name, o.clients)
	sctx, closeStreams := context.WithCancel(ctx)
	defer closeStreams()
	streams := make([]*stream, o.clients)
	var wg sync.WaitGroup
	for i := range streams {
		s := &stream{inst: i % len(instances), who: callers[i%len(callers)], got: map[int64]time.Time{}}
		streams[i] = s
		ready := make(chan error, 1)
		wg.Go(func() { s.run(sctx, instances[s.inst].Addr, ready) })
		if err := <-ready; err != nil { // one at a time: a stream is connected in about a millisecond
			res.streamErrors["connect: "+harness.Truncate(err.Error(), 200)]++
		} else {
			res.streams++
		}
	}
	if res.streams == 0 {
		closeStreams()
		wg.Wait()
		return res, fmt.Errorf("%s: no stream connected: %v", c.name, res.streamErrors)
	}
	time.Sleep(3 * time.Second) // idle, connected
	res.rssIdle = sumRSS(instances)

	harness.Progress("%s: %g edits a second for %s", c.name, o.rate, o.duration)
	cpu0, t0 := cpuTimes(instances), time.Now()
	type edit struct {
		id   int64
		sent time.Time
	}
	var edits []edit
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.rate))
	for n := int64(1); ctx.Err() == nil && time.Since(t0) < o.duration; n++ {
		v, err := version(ctx, base, editor, n)
		if err != nil {
			res.notes = append(res.notes, fmt.Sprintf("%s: read of project %d: %v", c.name, n, err))
		} else {
			sent := time.Now()
			if err := rename(ctx, base, editor, n, v, fmt.Sprintf("Live bench %s %d", c.name, n)); err != nil {
				res.notes = append(res.notes, fmt.Sprintf("%s: edit of project %d: %v", c.name, n, err))
			} else {
				res.puts = append(res.puts, time.Since(sent))
				edits = append(edits, edit{n, sent})
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
		}
	}
	tick.Stop()
	select {
	case <-time.After(grace):
	case <-ctx.Done():
	}
	wall := time.Since(t0)
	cpu1 := cpuTimes(instances)
	for i := range instances {
		p := 100 * float64(cpu1[i]-cpu0[i]) / clockTicks / wall.Seconds()
		res.cpuPerInst = append(res.cpuPerInst, p)
		res.cpuPercent += p
	}
	closeStreams()
	wg.Wait()
	if ctx.Err() != nil {
		return res, ctx.Err()
	}

	res.edits = len(edits)
	for _, s := range streams {
		if s.conn == nil {
			continue
		}
		if s.err != nil {
			res.streamErrors["ended early: "+harness.Truncate(s.err.Error(), 200)]++
		}
		for _, e := range edits {
			res.pairs++
			at, ok := s.got[e.id]
			if !ok {
				res.missed++
				continue
			}
			d := at.Sub(e.sent)
			res.all = append(res.all, d)
			if s.inst != 0 {
				res.cross = append(res.cross, d)
			}
		}
	}
	for what, n := range res.streamErrors {
		res.notes = append(res.notes, fmt.Sprintf("%s: %d streams: %s", c.name, n, what))
	}
	p50, p99, _ := percentiles(res.puts)
	res.notes = append(res.notes, fmt.Sprintf("%s: the edits' PUT answered in p50 %s, p99 %s", c.name, ms(p50), ms(p99)))
	return res, nil
}

// run opens the stream on addr, reports on ready whether it did, and reads
// it until ctx ends.
func (s *stream) run(ctx context.Context, addr string, ready chan<- error) {
	conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", addr)
	if err != nil {
		ready <- err
		return
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/v1/events HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nX-Role-Id: %d\r\nAccept: text/event-stream\r\n\r\n",
		addr, s.who.Token, s.who.Role)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReaderSize(conn, 2048)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		ready <- err
		return
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		ready <- fmt.Errorf("%s %s: %s", resp.Status, resp.Header.Get("Content-Type"), body)
		return
	}
	conn.SetReadDeadline(time.Time{})
	s.conn = conn
	ready <- nil
	go func() {
		<-ctx.Done()
		conn.Close()
	}()
	sc := bufio.NewScanner(resp.Body)
	var event string
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if event == "record" {
				s.record(data)
			} else if event == "end" {
				s.err = fmt.Errorf("event: end %s", data)
			}
			event, data = "", data[:0]
		case bytes.HasPrefix(line, []byte("event:")):
			event = strings.TrimSpace(string(line[len("event:"):]))
		case bytes.HasPrefix(line, []byte("data:")):
			data = append(data, bytes.TrimPrefix(line[len("data:"):], []byte(" "))...)
		}
	}
	if ctx.Err() == nil {
		s.err = sc.Err()
		if s.err == nil {
			s.err = errors.New("closed by the server")
		}
	}
}

// record notes the arrival of a project edit's event.
func (s *stream) record(data []byte) {
	now := time.Now()
	var d struct {
		Kind   string  `json:"kind"`
		IDs    []int64 `json:"ids"`
		Action string  `json:"action"`
	}
	if json.Unmarshal(data, &d) != nil || d.Kind != "project" || d.Action != "edit" {
		return
	}
	for _, id := range d.IDs {
		if _, ok := s.got[id]; !ok {
			s.got[id] = now
		}
	}
}

// version reads a project's version, as the edit form does.
func version(ctx context.Context, base string, who harness.Caller, id int64) (json.RawMessage, error) {
	var view struct {
		Data struct{ Version json.RawMessage }
	}
	return view.Data.Version, call(ctx, "GET", base+"portal-record?type=project&id="+strconv.FormatInt(id, 10), who, nil, &view)
}

// rename saves a project's new name based on version v.
func rename(ctx context.Context, base string, who harness.Caller, id int64, v json.RawMessage, name string) error {
	body, _ := json.Marshal(map[string]any{"fields": map[string]string{"companyname": name}, "version": v})
	return call(ctx, "PUT", base+"portal-crud?type=project&id="+strconv.FormatInt(id, 10), who, body, nil)
}

func call(ctx context.Context, method, url string, who harness.Caller, body []byte, into any) error {
	req, _ := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+who.Token)
	req.Header.Set("X-Role-Id", strconv.FormatInt(who.Role, 10))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		text, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return fmt.Errorf("%s: %s", resp.Status, text)
	}
	if into == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	return json.NewDecoder(resp.Body).Decode(into)
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat times
// (100 on Linux on every common architecture).
const clockTicks = 100

// cpuTimes is each instance's utime+stime, in clock ticks.
func cpuTimes(instances []*harness.Instance) []int64 {
	out := make([]int64, len(instances))
	for i, in := range instances {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", in.Pid()))
		if err != nil {
			continue
		}
		// The fields after the command's name: state is the first,
		// utime the 12th and stime the 13th.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			out[i] = u + s
		}
	}
	return out
}

// sumRSS is the instances' resident set, in kB.
func sumRSS(instances []*harness.Instance) int64 {
	var total int64
	for _, in := range instances {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", in.Pid()))
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				total += n
			}
		}
	}
	return total
}

// percentiles returns the p50, p99 and max of ds (sorting it).
func percentiles(ds []time.Duration) (p50, p99, top time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)*99/100], ds[len(ds)-1]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// report prints the table, the targets and the notes.
func report(o options, rev, files string, results []*result, notes []string) {
	fmt.Printf("\nLive updates: portico %s, %d streams, %g edit(s)/s for %s; %s; %s\n\n",
		rev, o.clients, o.rate, o.duration, harness.DescribeMachine(), files)
	fmt.Printf("%-11s %7s %5s %7s %6s %9s %9s %9s %14s %10s %10s %11s %6s\n",
		"config", "streams", "edits", "pairs", "missed", "p50", "p99", "max", "p99 cross-inst", "RSS before", "RSS idle", "per stream", "CPU")
	var targets []string
	for _, r := range results {
		p50, p99, top := percentiles(r.all)
		cross := "-"
		if r.config.instances > 1 {
			_, cp99, _ := percentiles(r.cross)
			cross = ms(cp99)
		}
		per := 0.0
		if r.streams > 0 {
			per = float64(r.rssIdle-r.rssBefore) / float64(r.streams)
		}
		fmt.Printf("%-11s %7d %5d %7d %6d %9s %9s %9s %14s %7d MB %7d MB %8.1f KB %5.1f%%\n",
			r.config.name, r.streams, r.edits, r.pairs, r.missed, ms(p50), ms(p99), ms(top), cross,
			r.rssBefore/1024, r.rssIdle/1024, per, r.cpuPercent)
		if len(r.cpuPerInst) > 1 {
			parts := make([]string, len(r.cpuPerInst))
			for i, p := range r.cpuPerInst {
				parts[i] = fmt.Sprintf("%.1f%%", p)
			}
			notes = append(notes, fmt.Sprintf("%s: CPU per instance (the first makes the edits): %s", r.config.name, strings.Join(parts, ", ")))
		}
		verdict := func(ok bool) string {
			if ok {
				return "met"
			}
			return "NOT met"
		}
		targets = append(targets, fmt.Sprintf("%s: p99 %s ≤ 1 s with %d streams, %d missed: %s; %.1f KB per idle stream ≤ 64 KB: %s",
			r.config.name, ms(p99), r.streams, r.missed, verdict(p99 <= time.Second && r.missed == 0 && r.streams == o.clients), per, verdict(per <= 64)))
	}
	fmt.Println("\nDelivery: from sending an edit's PUT to a stream receiving its record event, over every (stream, acknowledged edit) pair;")
	fmt.Println("p99 cross-inst: the streams on another instance than the edits. RSS: the instances' VmRSS summed, before the streams")
	fmt.Println("connected and with all connected and idle; per stream: the growth / streams. CPU: the instances' utime+stime over the")
	fmt.Printf("edits and %s after, in %% of one core, summed.\n", grace)
	if len(targets) > 0 {
		fmt.Println("\nTargets (issue 18):")
		for _, t := range targets {
			fmt.Println("  " + t)
		}
	}
	if len(notes) > 0 {
		fmt.Println("\nNotes:")
		for _, n := range notes {
			fmt.Println("  " + n)
		}
	}
}
