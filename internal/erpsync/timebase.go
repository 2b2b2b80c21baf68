package erpsync

import "strings"

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
// (as the connector gives it) and the time base its Checkpoint,
// DeletedSince and stored records' times are in. It is written
// "<version> time=<base>"; a state saved before time bases were recorded
// holds the version alone.
type mark struct {
	version string
	base    string // "": not recorded
}

const baseKey = "time="

func parseMark(s string) mark {
	var m mark
	for _, f := range strings.Fields(s) {
		switch {
		case strings.HasPrefix(f, baseKey):
			m.base = strings.TrimPrefix(f, baseKey)
		case m.version == "":
			m.version = f
		}
	}
	return m
}

func (m mark) String() string {
	parts := make([]string, 0, 2)
	if m.version != "" {
		parts = append(parts, m.version)
	}
	if m.base != "" {
		parts = append(parts, baseKey+m.base)
	}
	return strings.Join(parts, " ")
}

// rebase brings a kind's state into the connector's time base before a
// pull, and records that base in it. A state saved before time bases
// were recorded has its checkpoint in the connector's base, but its
// deletion mark may be the engine's clock at a pull's start (as it was
// before the sync kept one base), hours ahead of the connector's base
// west of UTC: a mark after the checkpoint is brought back to it. (Its
// base is taken to be the connector's: a zone corrected in the same
// restart as the upgrade is not seen.)
func (e *Engine) rebase(st *State, m *mark) {
	tb, ok := e.conn.(timeBased)
	if !ok {
		return
	}
	if m.base == "" && st.DeletedSince.After(st.Checkpoint.Modified) {
		// (With no checkpoint, nothing was stored: no mark is needed.)
		st.DeletedSince = st.Checkpoint.Modified
	}
	m.base = tb.TimeBase()
}
