package netsuite

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sync"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/records"
)

// fit is what a client learnt of how the account fits its mapping: the
// optional columns each kind's table lacks, left out of its queries from
// then on. It is per process and starts empty: a new process finds the
// same columns missing on its first query of the kind. Safe for
// concurrent use.
type fit struct {
	mu     sync.Mutex
	absent map[string][]string // kind → columns, in the order found
}

func (f *fit) lacks(kind string) map[string]bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]bool, len(f.absent[kind]))
	for _, c := range f.absent[kind] {
		out[c] = true
	}
	return out
}

// note records that kind's table lacks col; it reports false when that
// was known already.
func (f *fit) note(kind, col string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if slices.Contains(f.absent[kind], col) {
		return false
	}
	if f.absent == nil {
		f.absent = map[string][]string{}
	}
	f.absent[kind] = append(f.absent[kind], col)
	return true
}

// Missing returns the optional columns of kind's mapping that the account
// lacks, as found by queries so far: their fields stay empty.
func (c *Client) Missing(k *records.Kind) []string {
	c.fit.mu.Lock()
	defer c.fit.mu.Unlock()
	return slices.Clone(c.fit.absent[k.Name])
}

// Off reports whether the mapping turns kind off.
func (c *Client) Off(k *records.Kind) bool { return c.m.Kind(k).Off }

// MappingVersion identifies kind's mapping: a kind found not in the
// account is tried again by the schedule only once this changes.
func (c *Client) MappingVersion(k *records.Kind) string { return c.m.Kind(k).version }

// TimeBase names the base of the times the client gives (records'
// ModifiedAt, checkpoints, deletion times): SuiteQL's text read in the
// mapping's timezone. Times given in another base do not compare with
// them: the sync pulls a kind again from the beginning when it changes.
func (c *Client) TimeBase() string { return c.m.TimeZone }

// SuiteQL's answers to a name the account lacks (NetSuite Help, SuiteQL):
// an unknown column ("Unknown identifier 'x'", or in older releases
// "Field 'x' for record 'y' was not found") and an unknown table ("Record
// 'x' was not found").
var (
	unknownColumn = regexp.MustCompile(`Unknown identifier '([A-Za-z0-9_]+)'|Field '([A-Za-z0-9_]+)' for record '[^']*' was not found`)
	unknownTable  = regexp.MustCompile(`Record '([A-Za-z0-9_]+)' was not found`)
)

// missingName reads which column or table a SuiteQL error says the
// account lacks ("" for other errors).
func missingName(err error) (column, table string) {
	e, ok := errors.AsType[*erp.Error](err)
	if !ok || e.Status != 400 {
		return "", ""
	}
	if m := unknownColumn.FindStringSubmatch(e.Detail); m != nil {
		return m[1] + m[2], ""
	}
	if m := unknownTable.FindStringSubmatch(e.Detail); m != nil {
		return "", m[1]
	}
	return "", ""
}

// adapt handles a query of kind that failed with err. An optional column
// the account lacks is noted and adapt reports true: the query is to be
// made again without it. A missing table or required column becomes an
// erp.Error marked NotInAccount that names the mapping entry to fix;
// other errors are returned as they are.
func (c *Client) adapt(k *records.Kind, err error) (again bool, _ error) {
	km := c.m.Kind(k)
	col, table := missingName(err)
	switch {
	case col != "" && km.MayLack(col):
		if c.fit.note(k.Name, col) {
			c.log.Warn("netsuite column not in this account; its field stays empty", "kind", k.Name, "column", col,
				"mapping", "kinds."+k.Name+"."+km.Owner(col))
			return true, nil
		}
		return false, err
	case col != "":
		return false, notInAccount(err, fmt.Sprintf("column %s of %s (fix kinds.%s.%s in the mapping, or mark the field optional)",
			col, km.Table, k.Name, ownerOr(km, col)))
	case table != "":
		return false, notInAccount(err, fmt.Sprintf("record type %s (table %s; set kinds.%s.off: true, or fix its recordType/table in the mapping)",
			km.RecordType, table, k.Name))
	}
	return false, err
}

func ownerOr(km *KindMap, col string) string {
	if o := km.Owner(col); o != "" {
		return o
	}
	return "columns"
}

func notInAccount(err error, what string) error {
	e, _ := errors.AsType[*erp.Error](err)
	return &erp.Error{Status: e.Status, Code: e.Code, Permanent: true, NotInAccount: true,
		Detail: "not in this account: " + what + " — NetSuite: " + e.Detail}
}
