package records

import (
	"context"
	"slices"
)

// Grouper groups a kind's records (sqlstore's GroupRecords).
type Grouper interface {
	GroupRecords(ctx context.Context, q GroupQuery) ([]Group, error)
}

// StatusTotals are the totals of a set of records by status: the credits
// of a project by transaction type, its invoices by status. Amounts of
// different statuses are never added together (released, sold and
// retired credits are not one quantity; a voided invoice is not owed).
type StatusTotals struct {
	Field       string        `json:"field"`       // the status field's name
	Label       string        `json:"label"`       // and its label: "Transaction"
	Amount      string        `json:"amount"`      // the amount field's name
	AmountLabel string        `json:"amountLabel"` // and its label: "Credits"
	Type        FieldType     `json:"type"`        // the amount's type: money or quantity
	Groups      []StatusTotal `json:"groups"`      // in the order of the status's choices; only statuses with records
}

// StatusTotal is one status's count of records and total amount.
type StatusTotal struct {
	Status string  `json:"status"`
	Count  int64   `json:"count"`
	Total  float64 `json:"total"`
}

// TotalsByStatus totals k's records matching f by status, over all of
// them (not a page): one grouped query, at the cost of reading the
// matching records (callers narrow f to one record's tab). It returns nil
// for a kind without both a status and an amount.
func (k *Kind) TotalsByStatus(ctx context.Context, g Grouper, f Filter) (*StatusTotals, error) {
	st, ok := k.Field(ColStatus)
	amt, ok2 := k.Field(ColAmount)
	if !ok || !ok2 {
		return nil, nil
	}
	groups, err := g.GroupRecords(ctx, GroupQuery{Kind: k.Name, Filter: f, GroupBy: ColStatus, Fns: []string{AggCount, AggSum},
		Limit: maxStatuses})
	if err != nil {
		return nil, err
	}
	out := &StatusTotals{Field: st.Name, Label: st.Label, Amount: amt.Name, AmountLabel: amt.Label, Type: amt.Type, Groups: []StatusTotal{}}
	rank := func(status string) int {
		for i, c := range st.Choices {
			if c == status {
				return i
			}
		}
		return len(st.Choices) // a status the registry does not list: last
	}
	for _, gr := range groups {
		out.Groups = append(out.Groups, StatusTotal{Status: gr.Key, Count: int64(gr.Values[0]), Total: gr.Values[1]})
	}
	slices.SortStableFunc(out.Groups, func(a, b StatusTotal) int { return rank(a.Status) - rank(b.Status) })
	return out, nil
}

// maxStatuses bounds the statuses a total reads: a kind's choices, and
// any others the ERP sent, are far fewer.
const maxStatuses = 100
