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

// WritePrometheus writes the engine's counters, whether it holds the
// sync lease, and each kind's sync status as gauges, in Prometheus' text
// exposition format. Every series carries the instance label (Options'
// Instance): counters are this instance's; the status gauges, read from
// the shared database, are alike in every instance.
func (e *Engine) WritePrometheus(ctx context.Context, w io.Writer) error {
	m := &e.m
	inst := fmt.Sprintf("instance=%q", e.opt.Instance)
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
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s{%s} %d\n", c.name, c.help, c.name, c.name, inst, c.v)
	}
	if cw, ok := e.conn.(clockWatcher); ok {
		n, _ := cw.ClockDisagreement()
		fmt.Fprintf(w, "# HELP portico_sync_erp_clock_disagreements_total Records whose last-modified times from the ERP's two APIs disagreed (a wrong time zone in the mapping; see the sync status).\n# TYPE portico_sync_erp_clock_disagreements_total counter\nportico_sync_erp_clock_disagreements_total{%s} %d\n",
			inst, n)
	}
	fmt.Fprintf(w, "# HELP portico_sync_pull_seconds_total Wall time spent pulling.\n# TYPE portico_sync_pull_seconds_total counter\nportico_sync_pull_seconds_total{%s} %.3f\n",
		inst, float64(m.PullMillis.Load())/1000)
	holder := 0
	if e.holds() {
		holder = 1
	}
	fmt.Fprintf(w, "# HELP portico_sync_lease_holder 1 when this instance holds the sync lease (it pulls and pushes).\n# TYPE portico_sync_lease_holder gauge\nportico_sync_lease_holder{%s} %d\n",
		inst, holder)
	st, err := e.Status(ctx)
	if err != nil {
		return err
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
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n", g.name, g.help, g.name)
		for _, k := range st.Kinds {
			fmt.Fprintf(w, "%s{%s,kind=%q} %g\n", g.name, inst, k.Kind, g.value(k))
		}
	}
	fmt.Fprintf(w, "# HELP portico_sync_outbox_entries Outbox entries by state.\n# TYPE portico_sync_outbox_entries gauge\n")
	for _, state := range []string{EntryPending, EntryFailed, EntrySynced, EntryDiscarded} {
		fmt.Fprintf(w, "portico_sync_outbox_entries{%s,state=%q} %d\n", inst, state, st.Outbox[state])
	}
	return nil
}
