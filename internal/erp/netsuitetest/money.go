package netsuitetest

import (
	"fmt"
	"strconv"
)

// static is a SuiteQL table the fake serves from the schema rather than
// from records: currency and subsidiary (account.yaml's [9], [10]).
type static struct {
	cols map[string]int
	rows [][]value
	// names maps an internal id to the row's name, for references to
	// it (BUILTIN.DF, refName).
	names map[string]string
}

// statics builds the account's currency and subsidiary tables. An
// account without subsidiaries has no subsidiary table; one without
// currencies neither.
func statics(sc *Schema) map[string]*static {
	out := map[string]*static{}
	if len(sc.Currencies) == 0 {
		return out
	}
	flag := func(b bool) value {
		if b {
			return value{k: vBool, f: 1}
		}
		return value{k: vBool}
	}
	str := func(s string) value {
		if s == "" {
			return value{}
		}
		return value{k: vStr, s: s}
	}
	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	cur := &static{names: map[string]string{},
		cols: map[string]int{"id": 0, "name": 1, "symbol": 2, "displaysymbol": 3, "exchangerate": 4, "isbasecurrency": 5, "isinactive": 6}}
	// With subsidiaries, a base currency is any subsidiary's; without,
	// the account's one ([9]).
	subBase := map[int64]bool{}
	for _, sub := range sc.Subsidiaries {
		subBase[sub.Currency] = true
	}
	for _, c := range sc.Currencies {
		base := c.Base
		if len(sc.Subsidiaries) > 0 {
			base = subBase[c.ID]
		}
		rate := c.ExchangeRate
		if rate == 0 {
			rate = 1
		}
		cur.rows = append(cur.rows, []value{{k: vNum, f: float64(c.ID)}, str(c.Name), str(c.Symbol), str(c.DisplaySymbol),
			{k: vNum, f: rate}, flag(base), flag(c.Inactive)})
		cur.names[id(c.ID)] = c.Name
	}
	out[TableCurrency] = cur
	if len(sc.Subsidiaries) == 0 {
		return out
	}
	sub := &static{names: map[string]string{}, cols: map[string]int{"id": 0, "name": 1, "parent": 2, "currency": 3, "isinactive": 4}}
	for _, s := range sc.Subsidiaries {
		sub.names[id(s.ID)] = s.Name
	}
	for _, s := range sc.Subsidiaries {
		var parent value
		if s.Parent != 0 {
			parent = value{k: vRef, s: id(s.Parent), name: sub.names[id(s.Parent)], f: float64(s.Parent)}
		}
		sub.rows = append(sub.rows, []value{{k: vNum, f: float64(s.ID)}, str(s.Name), parent,
			{k: vRef, s: id(s.Currency), name: cur.names[id(s.Currency)], f: float64(s.Currency)}, flag(s.Inactive)})
	}
	out[TableSubsidiary] = sub
	return out
}

// selectName is the name of the currency or subsidiary a select field
// names (table TableCurrency or TableSubsidiary), ok false when it is no
// such field or id.
func (s *Server) selectName(table, id string) (string, bool) {
	st := s.statics[table]
	if st == nil {
		return "", false
	}
	name, ok := st.names[id]
	return name, ok
}

// checkMoney is Schema.checkMoney for a schema a test changed after
// loading it.
func checkMoney(sc *Schema) error {
	if err := sc.checkMoney(); err != nil {
		return fmt.Errorf("%w (Config.Schema)", err)
	}
	return nil
}
