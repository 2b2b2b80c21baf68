package sqlstore

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps prepared statements by their SQL text, so a statement
// run again (every list page, record view, search) is not parsed and
// planned again: on SQLite parsing was an eighth of a search's time. It
// holds at most maxStatements; statements past that (rare shapes of
// dynamic filters) are prepared per call as before.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

const maxStatements = 1000

// prepared returns the cached statement for query on db, preparing it on
// first use; nil when the cache is full or preparing failed (the caller
// then runs the query directly, which reports any error).
func (c *stmtCache) prepared(ctx context.Context, db *sql.DB, query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st
	}
	if len(c.m) >= maxStatements {
		return nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}
