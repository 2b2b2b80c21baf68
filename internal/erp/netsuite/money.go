package netsuite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/portico/portico/internal/erp"
)

// Money in NetSuite (NetSuite Help, "Currency Management", the Records
// Browser's currency and subsidiary records): the currency table lists
// the account's currencies, `symbol` being the ISO 4217 code; in a
// OneWorld account each subsidiary has a base currency and the account's
// is the root subsidiary's, otherwise one currency is marked base
// (`isbasecurrency`). A transaction's amounts are in its own `currency`;
// an entity's balance in its subsidiary's base currency; the mapping's
// kinds say which (KindMap.Currency, KindMap.Subsidiary). A record's
// Currency is "" when its money is in the account's base currency.

var _ erp.Currencies = (*Client)(nil)

// moneyTTL is how long the client keeps what it read of the account's
// currencies and subsidiaries: a currency added meanwhile is read at the
// first record that names it.
const moneyTTL = 5 * time.Minute

// moneyTables is what the client knows of the account's currencies.
type moneyTables struct {
	base  string            // the account's base currency, ISO code
	root  string            // the root subsidiary's id; "" without subsidiaries
	codes map[string]string // currency id → ISO code
	subs  map[string]string // subsidiary id → its base currency's id
}

// moneyCache holds the last read of the currency and subsidiary tables.
type moneyCache struct {
	mu     sync.Mutex
	at     time.Time
	tables *moneyTables // nil: the account has no currency table
}

// errNoCurrencies marks an account whose SuiteQL has no currency table.
var errNoCurrencies = errors.New("the account has no currency table")

// BaseCurrency implements erp.Currencies: the root subsidiary's currency
// in a OneWorld account, else the currency marked base, read from
// SuiteQL's currency and subsidiary tables (at most every few minutes).
func (c *Client) BaseCurrency(ctx context.Context) (string, error) {
	t, err := c.money(ctx, false)
	if err != nil {
		return "", err
	}
	if t == nil {
		return "", &erp.Error{Permanent: true, NotInAccount: true,
			Detail: "not in this account: SuiteQL has no currency table, so the base currency cannot be read (the portal's configured currency stands)"}
	}
	return t.base, nil
}

// money returns the account's currency tables, read again when older
// than moneyTTL or when force is set (a record named a currency or
// subsidiary they lack) and the last read is not from the last few
// seconds. A nil result with a nil error: the account has no currency
// table, and all its money is in one currency.
func (c *Client) money(ctx context.Context, force bool) (*moneyTables, error) {
	c.cur.mu.Lock()
	defer c.cur.mu.Unlock()
	age := time.Since(c.cur.at)
	if !c.cur.at.IsZero() && age < moneyTTL && (!force || age < 5*time.Second) {
		return c.cur.tables, nil
	}
	t, err := c.readMoney(ctx)
	if errors.Is(err, errNoCurrencies) {
		if c.cur.at.IsZero() || c.cur.tables != nil {
			c.log.Warn("netsuite: SuiteQL has no currency table; every amount is taken to be in the base currency", "err", err)
		}
		t, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.cur.at, c.cur.tables = time.Now(), t
	return t, nil
}

// readMoney reads the currency table and, when the account has one, the
// subsidiary table.
func (c *Client) readMoney(ctx context.Context) (*moneyTables, error) {
	rows, err := c.all(ctx, "SELECT id, symbol, isbasecurrency FROM currency ORDER BY id")
	if _, table := missingName(err); table != "" {
		return nil, fmt.Errorf("%w: %v", errNoCurrencies, err)
	}
	if err != nil {
		return nil, moneyError("currency", err)
	}
	t := &moneyTables{codes: map[string]string{}, subs: map[string]string{}}
	var marked []string
	for _, r := range rows {
		t.codes[r["id"]] = strings.ToUpper(r["symbol"])
		if r["isbasecurrency"] == "T" {
			marked = append(marked, r["id"])
		}
	}
	subs, err := c.all(ctx, "SELECT id, parent, currency FROM subsidiary ORDER BY id")
	if _, table := missingName(err); err != nil && table == "" {
		return nil, moneyError("subsidiary", err)
	}
	root := ""
	for _, r := range subs {
		t.subs[r["id"]] = r["currency"]
		if r["parent"] == "" && root == "" {
			root = r["id"]
		}
	}
	t.root = root
	switch {
	case root != "":
		t.base = t.codes[t.subs[root]]
		if t.base == "" {
			return nil, &erp.Error{Detail: fmt.Sprintf("the root subsidiary %s names currency %q, which the currency table lacks", root, t.subs[root])}
		}
	case len(marked) > 0:
		t.base = t.codes[marked[0]]
	default:
		return nil, &erp.Error{Permanent: true, Detail: "the currency table marks no base currency (isbasecurrency) and the account has no subsidiaries"}
	}
	return t, nil
}

// moneyError says what reading a money table failing means.
func moneyError(table string, err error) error {
	e, ok := errors.AsType[*erp.Error](err)
	if !ok || !e.Permanent {
		return err
	}
	cp := *e
	cp.Detail = fmt.Sprintf("cannot read SuiteQL's %s table, so amounts cannot be placed in their currency (the integration role needs to see currencies and subsidiaries): %s",
		table, e.Detail)
	return &cp
}

// all reads every row of a small query, page by page.
func (c *Client) all(ctx context.Context, q string) ([]map[string]string, error) {
	var out []map[string]string
	for offset := 0; ; {
		p, err := c.suiteQL(ctx, q, 1000, offset)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		offset += len(p.Items)
		if !p.HasMore || len(p.Items) == 0 || offset >= 100_000 {
			return out, nil
		}
	}
}

// code returns the ISO code of a record's money given the ids its
// currency and subsidiary columns hold: the currency's, else the
// subsidiary's base currency, else the base. ok is false when an id is
// not in the tables.
func (t *moneyTables) code(km *KindMap, currencyID, subsidiaryID string) (string, bool) {
	switch {
	case km.Currency != "" && currencyID != "":
		code, ok := t.codes[currencyID]
		return code, ok
	case km.Subsidiary != "" && subsidiaryID != "" && len(t.subs) > 0:
		cur, ok := t.subs[subsidiaryID]
		if !ok {
			return "", false
		}
		code, ok := t.codes[cur]
		return code, ok
	}
	return t.base, true
}

// relative is a code as records.Record.Currency has it: "" for the base
// currency.
func (t *moneyTables) relative(code string) string {
	if code == t.base {
		return ""
	}
	return code
}

// recordCurrency is the Currency of a record of kind km whose currency
// and subsidiary columns hold the given ids; t nil (no currency table,
// or a kind in the base currency) gives "". An id the tables lack makes
// them read again (at most every few seconds); still unknown, it is an
// error: the record's money cannot be placed.
func (c *Client) recordCurrency(ctx context.Context, t **moneyTables, km *KindMap, currencyID, subsidiaryID string) (string, error) {
	if *t == nil {
		return "", nil
	}
	code, ok := (*t).code(km, currencyID, subsidiaryID)
	if !ok {
		fresh, err := c.money(ctx, true)
		if err != nil {
			return "", err
		}
		if fresh != nil {
			*t = fresh
			code, ok = fresh.code(km, currencyID, subsidiaryID)
		}
	}
	if !ok {
		return "", &erp.Error{Detail: fmt.Sprintf("%s names currency %q / subsidiary %q, which SuiteQL's currency and subsidiary tables lack",
			km.kind.Name, currencyID, subsidiaryID)}
	}
	return (*t).relative(code), nil
}

// moneyFor returns the tables a kind's records need (nil for a kind
// whose money is always in the base currency, and for an account
// without a currency table).
func (c *Client) moneyFor(ctx context.Context, km *KindMap) (*moneyTables, error) {
	if km.Currency == "" && km.Subsidiary == "" {
		return nil, nil
	}
	return c.money(ctx, false)
}

// docID reads the internal id a record API document holds under a field
// (a select {"id", "refName"}), matching the field id without case.
func docID(doc map[string]any, field string) string {
	if field == "" {
		return ""
	}
	v, ok := doc[field]
	if !ok {
		for k, x := range doc {
			if strings.EqualFold(k, field) {
				v = x
				break
			}
		}
	}
	switch v := v.(type) {
	case map[string]any:
		id, _ := v["id"].(string)
		return id
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// checkMoney reports what the client finds of the account's currencies,
// for the check: the base currency and where it comes from.
func (c *Client) checkMoney(ctx context.Context) CheckResult {
	r := CheckResult{What: "currencies", Status: CheckOK}
	t, err := c.money(ctx, true)
	switch {
	case err != nil:
		r.Status, r.NetSuite = CheckFailed, netsuiteText(err)
		r.Note = "the base currency and the currency of amounts cannot be read: kinds whose mapping names currency or subsidiary cannot sync"
	case t == nil:
		r.Status = CheckWarning
		r.Note = "SuiteQL has no currency table: every amount is taken to be in the portal's configured currency"
	default:
		codes := slices.Sorted(func(yield func(string) bool) {
			for _, code := range t.codes {
				if !yield(code) {
					return
				}
			}
		})
		codes = slices.Compact(codes)
		r.Note = fmt.Sprintf("base currency %s", t.base)
		if len(t.subs) > 0 {
			r.Note += fmt.Sprintf(" (the root subsidiary's; %d %s)", len(t.subs), plural(len(t.subs), "subsidiary", "subsidiaries"))
		}
		r.Note += "; currencies " + strings.Join(codes, ", ")
	}
	return r
}
