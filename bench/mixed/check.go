package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/portico/portico/bench/internal/harness"
)

// checkRow is the exactly-once check of one configuration's write mix
// (the package comment says what it checks).
type checkRow struct {
	config                                                  string
	creates, createsOnce, createsLost, createsTwice, moved  int
	unackedCreates, unackedCreatesStored                    int
	edits, editsAudited, lostUpdates, finalWrong, finalLate int
	unackedEdits, unackedEditsStored                        int
	problems                                                []string
}

// ok says every acknowledged write is stored exactly once.
func (r *checkRow) ok() bool {
	return r.createsOnce == r.creates && r.editsAudited == r.edits && r.lostUpdates == 0 && r.finalWrong == 0
}

// problem notes one finding, the first few of each check in full.
func (r *checkRow) problem(format string, args ...any) {
	if len(r.problems) < 20 {
		r.problems = append(r.problems, r.config+": "+fmt.Sprintf(format, args...))
	}
}

// check reads d (no instance running) for s's writes, whose titles start
// with marker.
func check(ctx context.Context, d *database, s *stats, cfg, marker string) (checkRow, error) {
	r := checkRow{config: cfg}
	db, err := d.Open()
	if err != nil {
		return r, err
	}
	defer db.Close()
	if err := r.checkCreates(ctx, db, d, s.creates, marker); err != nil {
		return r, fmt.Errorf("check creates: %w", err)
	}
	if err := r.checkEdits(ctx, db, d, s.edits, marker); err != nil {
		return r, fmt.Errorf("check edits: %w", err)
	}
	return r, nil
}

// checkCreates finds every create's marker among the records' titles.
func (r *checkRow) checkCreates(ctx context.Context, db *sql.DB, d *database, creates []create, marker string) error {
	rows, err := db.QueryContext(ctx, d.Rebind(`SELECT kind, id, title FROM records WHERE tenant_id = ? AND title LIKE ?`),
		string(harness.Tenant), marker+"%")
	if err != nil {
		return err
	}
	stored := map[string][]string{} // title → "kind id" of each record with it
	for rows.Next() {
		var kind, title string
		var id int64
		if err := rows.Scan(&kind, &id, &title); err != nil {
			rows.Close()
			return err
		}
		stored[title] = append(stored[title], fmt.Sprintf("%s %d", kind, id))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range creates {
		got := stored[c.marker]
		if !c.acked {
			r.unackedCreates++
			if len(got) > 0 {
				r.unackedCreatesStored++
			}
			if len(got) > 1 {
				r.problem("create %q, not acknowledged, is stored %d times: %v", c.marker, len(got), got)
			}
			continue
		}
		r.creates++
		answered := fmt.Sprintf("%s %d", c.kind, c.id)
		switch {
		case len(got) == 0:
			r.createsLost++
			r.problem("create %q answered 201 (%s) and is not stored", c.marker, answered)
		case len(got) > 1:
			r.createsTwice++
			r.problem("create %q answered 201 (%s) and is stored %d times: %v", c.marker, answered, len(got), got)
		case got[0] != answered:
			r.moved++
			r.problem("create %q answered 201 as %s and is stored as %s", c.marker, answered, got[0])
		default:
			r.createsOnce++
		}
	}
	return nil
}

// storedProject is an edited project as stored.
type storedProject struct {
	title    string
	modified int64 // its version, Unix milliseconds
}

// checkEdits compares the edits with the projects as stored and with the
// audit log.
func (r *checkRow) checkEdits(ctx context.Context, db *sql.DB, d *database, edits []edit, marker string) error {
	projects, err := editedProjects(ctx, db, d)
	if err != nil {
		return err
	}
	audited, err := auditedNames(ctx, db, d, marker)
	if err != nil {
		return err
	}
	newest := map[int64]edit{}            // record → its acknowledged edit of the latest version
	bases := map[int64]map[int64]string{} // record → base version → the acknowledged edit based on it
	for _, e := range edits {
		if !e.acked {
			r.unackedEdits++
			if audited[e.marker] > 0 {
				r.unackedEditsStored++
			}
			continue
		}
		r.edits++
		if n := audited[e.marker]; n == 1 {
			r.editsAudited++
		} else {
			r.problem("edit %q of project %d answered 200 and is in the audit log %d times", e.marker, e.id, n)
		}
		if bases[e.id] == nil {
			bases[e.id] = map[int64]string{}
		}
		if other, dup := bases[e.id][e.base.UnixMilli()]; dup {
			r.lostUpdates++
			r.problem("edits %q and %q of project %d both answered 200, both based on version %s", other, e.marker, e.id, e.base.Format("15:04:05.000"))
		}
		bases[e.id][e.base.UnixMilli()] = e.marker
		if n, seen := newest[e.id]; !seen || e.version.After(n.version) {
			newest[e.id] = e
		}
	}
	for id, e := range newest {
		r.checkFinal(id, e, projects[id], audited)
	}
	return nil
}

// checkFinal compares a project as stored with its newest acknowledged
// edit: the same name and version, or a later edit that was not
// acknowledged (its marker stored and audited: an answer lost).
func (r *checkRow) checkFinal(id int64, e edit, p storedProject, audited map[string]int) {
	switch {
	case p.title == e.marker && p.modified == e.version.UnixMilli():
	case p.modified > e.version.UnixMilli() && audited[p.title] > 0:
		r.finalLate++
	default:
		r.finalWrong++
		r.problem("project %d is stored as %q at %d, its newest acknowledged edit is %q at %d", id, p.title, p.modified, e.marker, e.version.UnixMilli())
	}
}

func editedProjects(ctx context.Context, db *sql.DB, d *database) (map[int64]storedProject, error) {
	rows, err := db.QueryContext(ctx, d.Rebind(`SELECT id, title, modified_at FROM records WHERE tenant_id = ? AND kind = 'project' AND id <= ?`),
		string(harness.Tenant), editPool)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]storedProject{}
	for rows.Next() {
		var id int64
		var p storedProject
		if err := rows.Scan(&id, &p.title, &p.modified); err != nil {
			return nil, err
		}
		out[id] = p
	}
	return out, rows.Err()
}

// auditedNames counts the audit log's project edits by the name they set,
// for names starting with marker.
func auditedNames(ctx context.Context, db *sql.DB, d *database, marker string) (map[string]int, error) {
	rows, err := db.QueryContext(ctx, d.Rebind(`SELECT detail FROM audit_log
		WHERE tenant_id = ? AND event = 'record_edit' AND kind = 'project' AND record_id <= ? AND detail LIKE ?`),
		string(harness.Tenant), editPool, "%"+marker+"%")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var detail string
		if err := rows.Scan(&detail); err != nil {
			return nil, err
		}
		var dd struct {
			Changes map[string]struct{ After any }
		}
		if err := json.Unmarshal([]byte(detail), &dd); err != nil {
			return nil, fmt.Errorf("audit detail %q: %w", harness.Truncate(detail, 100), err)
		}
		if name, _ := dd.Changes["companyname"].After.(string); strings.HasPrefix(name, marker) {
			out[name]++
		}
	}
	return out, rows.Err()
}
