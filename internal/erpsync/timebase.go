package erpsync

import (
	"strings"
	"time"

	"github.com/portico/portico/internal/erp"
)

// timeBased is a connector whose times (records' ModifiedAt, checkpoints,
// deletion times) are read in a base its configuration sets
// (*netsuite.Client: SuiteQL's text read in the mapping's timezone).
// Times read in another base do not compare with them: the store keeps a
// record's newer version by its time, the checkpoint and the deletion
// mark say where the next pull starts reading.
type timeBased interface {
	// TimeBase names the base of the times the connector gives now.
	TimeBase() string
}

// mark is what a kind's State.Mapping holds: the kind's mapping version
// (as the connector gives it), the time base its Checkpoint,
// DeletedSince and stored records' times are in, and whether a pull
// after the base changed is still to finish. It is written "<version>
// time=<base>[ rebasing]"; a state saved before time bases were recorded
// holds the version alone.
type mark struct {
	version  string
	base     string // "": not recorded
	rebasing bool   // a pull in base has begun again from the beginning and not yet finished
}

const (
	baseKey      = "time="
	rebasingWord = "rebasing"
)

func parseMark(s string) mark {
	var m mark
	for _, f := range strings.Fields(s) {
		switch {
		case strings.HasPrefix(f, baseKey):
			m.base = strings.TrimPrefix(f, baseKey)
		case f == rebasingWord:
			m.rebasing = true
		case m.version == "":
			m.version = f
		}
	}
	return m
}

func (m mark) String() string {
	parts := make([]string, 0, 3)
	if m.version != "" {
		parts = append(parts, m.version)
	}
	if m.base != "" {
		parts = append(parts, baseKey+m.base)
		if m.rebasing {
			parts = append(parts, rebasingWord)
		}
	}
	return strings.Join(parts, " ")
}

// rebase brings a kind's state into the connector's time base before a
// pull, and reports whether the pull must store its records whatever
// their times (see LeasedWrites.ApplyRebasedPull):
//
//   - A state whose base is another (the mapping's timezone was
//     corrected) starts again from the beginning: its checkpoint, its
//     deletion mark and the stored records' times are in the old base,
//     ahead of the new one by up to the zones' offset (east of UTC), and
//     would hide every change made in as many hours. Until that pull
//     finishes (a crash resumes it), records are stored whatever their
//     times, as the stored versions' times are not comparable.
//   - A state saved before time bases were recorded has its checkpoint
//     in the connector's base, but its deletion mark may be the engine's
//     clock at a pull's start (as it was before the sync kept one base),
//     hours ahead of the connector's base west of UTC: a mark after the
//     checkpoint is brought back to it. (Its base is taken to be the
//     connector's: a zone corrected in the same restart as the upgrade
//     is not seen.)
func (e *Engine) rebase(st *State, m *mark) bool {
	tb, ok := e.conn.(timeBased)
	if !ok {
		return false
	}
	base := tb.TimeBase()
	switch {
	case m.base == base:
	case m.base == "":
		// (With no checkpoint, nothing was stored: no mark is needed.)
		if st.DeletedSince.After(st.Checkpoint.Modified) {
			st.DeletedSince = st.Checkpoint.Modified
		}
	default:
		e.log.Warn("the ERP's time base changed (the mapping's timezone): the kind is pulled again from the beginning, its records stored in the new base",
			"kind", st.Kind, "from", m.base, "to", base)
		st.Checkpoint, st.DeletedSince = erp.Checkpoint{}, time.Time{}
		m.rebasing = true
	}
	m.base = base
	return m.rebasing
}
