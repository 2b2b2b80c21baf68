package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/portico/portico/internal/records"
)

// dialect is the seam between the two engines. Statements are written once,
// in portable SQL with ? placeholders; the dialect rewrites what differs.
type dialect struct {
	name string
	// embedded reports whether the database is a file this process opens
	// (SQLite): one writer connection and a pool of readers, a write-ahead
	// log the store's own upkeep checkpoints and reports, file backups.
	// Otherwise it is a server (PostgreSQL), reached within connectTimeout.
	embedded bool
	// notifies reports whether the database carries wake-ups between the
	// processes sharing it (PostgreSQL's NOTIFY); an embedded database has
	// one process, whose signals are in memory.
	notifies bool
	// numbered reports whether placeholders are $1, $2, ... (PostgreSQL)
	// rather than ?.
	numbered bool
	// lockMigrations, when set, serialises concurrent migrators (several
	// instances starting against one PostgreSQL) for as long as the
	// session holds it; unlockMigrations gives it back.
	lockMigrations, unlockMigrations string
	// lockRecords, when set, keeps writes of records out of the rest of a
	// transaction that reads them all to total them afresh (PostgreSQL; a
	// SQLite write transaction already excludes every other writer).
	lockRecords string
	// number is a document member as a number (%s: its JSON path):
	// SQLite's cast (0 when it is not a number), PostgreSQL's json_number
	// (NULL when it is not; migration 0020).
	number string
	// indexesOfRecords lists the records table's index names.
	indexesOfRecords string
	// includes reports whether an index can carry columns outside its
	// key (INCLUDE: PostgreSQL); without, they go after the key.
	includes bool
	// analyzeIndex gathers the planner's statistics of a new index
	// ({index}: its name): SQLite keeps them per index, PostgreSQL per
	// table (an expression index's with it), so there it is one statement
	// for any number of new indexes.
	analyzeIndex string
	// unindexed is an expression written so that no index serves a
	// condition on it (%s: the expression): SQLite's unary plus. Empty:
	// the engine's planner is left to choose (PostgreSQL's, which weighs
	// a value's own frequency).
	unindexed string
	// walkFollowed are the followed references of one list (records.Within,
	// by followedKey) whose referenced records are many (walkFollowedOver):
	// their condition is unindexed, so the list walks its sort index
	// checking each record against the referenced records' ids (read once,
	// into a temporary index) until a page matches, rather than reading
	// every record of every referenced one and sorting them all; the
	// owner's own condition (ownedKey), walked likewise; and, in a list of
	// records named by id, every followed reference's condition and a
	// record's project's owner (projectOwnerKey), checked on the records
	// read. Set per statement by Tenant.planFollowed.
	walkFollowed map[string]bool
	// correlated are those of them whose referenced records are so many
	// (correlateOver) that each record walked is checked by a look-up of
	// the one it references instead (withinSQL), where gathering all their
	// ids on every page cost more.
	correlated map[string]bool
	// kinds are the kinds of the tenant the statements are for, with its
	// account's fields; set by Store.Tenant (nil: the code's).
	kinds *records.Registry

	// statement is a scoped statement's text as the engine runs it.
	statement func(scoped) string
	// engineSearch reads and rebuilds the search index the engine's way.
	engineSearch engineSearch
	// derivedObjects lists a table's indexes and triggers, as
	// derivedObjectsQuery says (kept: the condition that keeps an index
	// named in column out).
	derivedObjects func(table, pkey string, kept func(column string) string) string
	// nameVersions reports whether the engine keeps name_versions (SQLite's
	// migration 0028: where a list's text search may start in name order).
	nameVersions bool
	// appendNote adds an entry (the argument before the kind and the id) at
	// the end of a record's notes sublist, making one when the document
	// has none, in a single statement (so concurrent notes never lose one
	// another).
	appendNote scoped
	// fenceLease and lockLease read a sync lease's row and lock it
	// (sync.go). fenceLease matches only while the lease has the token,
	// and keeps its owner from changing until the transaction ends
	// (PostgreSQL's FOR KEY SHARE: the holder's renewals of the row, which
	// change no key, go ahead). lockLease locks the row outright unless
	// another transaction has it locked, and then reads nothing
	// (FOR UPDATE SKIP LOCKED). SQLite's are plain reads: its write
	// transactions already exclude each other.
	fenceLease, lockLease scoped
}

// listCovered are the promoted columns a list's page shows that its
// default sort's index carries beside its keys (migrations 0026 and 0029,
// records_title): a page read along such an index reads no table row.
const listCovered = "code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, currency"

// carrying is what ends an index's key columns, before their closing
// parenthesis, to carry cols beside them: ", cols" (more key columns), or
// the key's end and an INCLUDE of them.
func (d dialect) carrying(cols string) string {
	if d.includes {
		return ") INCLUDE (" + cols
	}
	return ", " + cols
}

// rebind rewrites ? placeholders for the engine. Statements never contain a
// literal question mark, so a plain scan is exact.
func (d dialect) rebind(q string) string {
	if !d.numbered {
		return q
	}
	return numbered(q)
}

// numbered is q with its ? placeholders numbered $1, $2, ...
func numbered(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// like is the WHERE term "lhs LIKE ? ESCAPE '\'". On SQLite the LIKE is
// wrapped in a unary plus (a no-op): SQLite plans a statement again at
// every run when a WHERE term is a LIKE with a bound pattern (the LIKE
// optimization tries the pattern's prefix as an index range), so a
// prepared statement would be compiled anew per run, and no index here
// serves a LIKE (what lists compare is folded or concatenated): the term is
// unindexed. PostgreSQL gets the plain LIKE, which its trigram indexes
// answer.
func (d dialect) like(lhs string) string {
	term := lhs + ` LIKE ? ESCAPE '\'`
	if d.unindexed == "" {
		return term
	}
	return fmt.Sprintf(d.unindexed, term)
}

// holdRecords takes the dialect's lockRecords in tx, if it has one.
func (d dialect) holdRecords(ctx context.Context, tx *sql.Tx) error {
	if d.lockRecords == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, d.lockRecords)
	return err
}
