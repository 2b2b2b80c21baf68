package erpsync

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
)

// Metrics are the engine's counters since start.
type Metrics struct {
	Pulled      atomic.Int64 // new or changed records stored by pulls (not the overlap's re-reads)
	Deleted     atomic.Int64 // deletions applied
	PullErrors  atomic.Int64 // kind pulls that failed
	PushSynced  atomic.Int64 // outbox entries that reached the ERP
	PushFailed  atomic.Int64 // entries the ERP refused (or gave up on)
	PushRetries atomic.Int64 // transient failures, retried later
	PullMillis  atomic.Int64 // wall time of pulls, milliseconds
	IndexMillis atomic.Int64 // of which building indexes after a bulk load
}

// WritePrometheus writes the engines' counters, whether each holds its
// tenant's sync lease, and each kind's sync status as gauges, in
// Prometheus' text exposition format: each metric family once, with a
// series per engine. Every series carries the instance label (Options'
// Instance) and the engine's tenant: counters are this instance's; the
// status gauges, read from the shared database, are alike in every
// instance.
func WritePrometheus(ctx context.Context, w io.Writer, engines ...*Engine) error {
	var order []string
	families := map[string]*family{}
	for _, e := range engines {
		samples, err := e.samples(ctx)
		if err != nil {
			return err
		}
		for _, s := range samples {
			f, ok := families[s.name]
			if !ok {
				f = &family{help: s.help, typ: s.typ}
				families[s.name] = f
				order = append(order, s.name)
			}
			f.lines = append(f.lines, s.line)
		}
	}
	for _, name := range order {
		f := families[name]
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, f.help, name, f.typ)
		for _, l := range f.lines {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}

// WritePrometheus is the package's WritePrometheus of e alone.
func (e *Engine) WritePrometheus(ctx context.Context, w io.Writer) error {
	return WritePrometheus(ctx, w, e)
}

// family is one metric family's help, type and series lines.
type family struct {
	help, typ string
	lines     []string
}

// sample is one series of a family: its line, "name{labels} value".
type sample struct {
	name, help, typ, line string
}

// samples are the engine's series (see WritePrometheus).
func (e *Engine) samples(ctx context.Context) ([]sample, error) {
	m := &e.m
	inst := fmt.Sprintf("instance=%q,tenant=%q", e.opt.Instance, e.store.ID())
	var out []sample
	add := func(name, help, typ, labels string, value string) {
		out = append(out, sample{name, help, typ, fmt.Sprintf("%s{%s} %s", name, labels, value)})
	}
	for _, c := range []struct {
		name, help string
		v          int64
	}{
		{"portico_sync_pulled_records_total", "New or changed records stored by ERP pulls.", m.Pulled.Load()},
		{"portico_sync_deleted_records_total", "ERP deletions applied.", m.Deleted.Load()},
		{"portico_sync_pull_errors_total", "Kind pulls that failed.", m.PullErrors.Load()},
		{"portico_sync_push_synced_total", "Outbox writes the ERP took.", m.PushSynced.Load()},
		{"portico_sync_push_failed_total", "Outbox writes the ERP refused or that were given up.", m.PushFailed.Load()},
		{"portico_sync_push_retries_total", "Transient write failures, retried later.", m.PushRetries.Load()},
	} {
		add(c.name, c.help, "counter", inst, fmt.Sprint(c.v))
	}
	if cw, ok := e.conn.(clockWatcher); ok {
		n, _ := cw.ClockDisagreement()
		add("portico_sync_erp_clock_disagreements_total", "Records whose last-modified times from the ERP's two APIs disagreed (a wrong time zone in the mapping; see the sync status).",
			"counter", inst, fmt.Sprint(n))
	}
	add("portico_sync_pull_seconds_total", "Wall time spent pulling.", "counter", inst, fmt.Sprintf("%.3f", float64(m.PullMillis.Load())/1000))
	holder := 0
	if e.holds() {
		holder = 1
	}
	add("portico_sync_lease_holder", "1 when this instance holds the tenant's sync lease (it pulls and pushes).", "gauge", inst, fmt.Sprint(holder))
	st, err := e.Status(ctx)
	if err != nil {
		return nil, err
	}
	gauges := []struct {
		name, help string
		value      func(KindStatus) float64
	}{
		{"portico_sync_lag_seconds", "Seconds since the kind's last successful pull (-1: never).", func(k KindStatus) float64 { return float64(k.LagSeconds) }},
		{"portico_sync_last_success_timestamp_seconds", "When the kind's last successful pull ran (0: never).", func(k KindStatus) float64 {
			if k.LastSuccess.IsZero() {
				return 0
			}
			return float64(k.LastSuccess.Unix())
		}},
		{"portico_sync_kind_pulled_records", "Records the kind's pulls have stored.", func(k KindStatus) float64 { return float64(k.PulledTotal) }},
		{"portico_sync_kind_failing", "1 when the kind's last pull failed.", func(k KindStatus) float64 {
			if k.LastError != "" {
				return 1
			}
			return 0
		}},
		{"portico_sync_kind_unavailable", "1 when the account does not have the kind as mapped, or the mapping turns it off.", func(k KindStatus) float64 {
			if k.Unavailable != "" || k.Off {
				return 1
			}
			return 0
		}},
	}
	for _, g := range gauges {
		for _, k := range st.Kinds {
			add(g.name, g.help, "gauge", fmt.Sprintf("%s,kind=%q", inst, k.Kind), fmt.Sprintf("%g", g.value(k)))
		}
	}
	for _, state := range []string{EntryPending, EntryFailed, EntrySynced, EntryDiscarded} {
		add("portico_sync_outbox_entries", "Outbox entries by state.", "gauge", fmt.Sprintf("%s,state=%q", inst, state), fmt.Sprint(st.Outbox[state]))
	}
	return out, nil
}
