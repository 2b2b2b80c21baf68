package records

import "context"

// Summarizer counts and totals a list's whole result at bounded cost
// (sqlstore's Summarize; see Summary).
type Summarizer interface {
	Summarize(ctx context.Context, q SummaryQuery) (Summary, error)
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

// StatusTotal is one status's count of records and total amount, per
// unit (UnitTotal); Estimated when the set was too large to count exactly
// (see Summary).
type StatusTotal struct {
	Status    string      `json:"status"`
	Count     int64       `json:"count"`
	Totals    []UnitTotal `json:"totals"`
	Estimated bool        `json:"estimated,omitempty"`
}

// TotalsByStatus totals k's records matching f for each of its status's
// choices, as a list with that filter and status would count and total
// them (bucketTotals: one bounded query for a set of up to SummaryExact
// records, else one per status). It returns nil for a kind without both a
// status and a summable amount.
func (k *Kind) TotalsByStatus(ctx context.Context, st Tallier, f Filter) (*StatusTotals, error) {
	status, ok := k.Field(ColStatus)
	amt, ok2 := k.Field(ColAmount)
	if !ok || !ok2 || !amt.Summable {
		return nil, nil
	}
	buckets := make([]Filter, len(status.Choices))
	for i, c := range status.Choices {
		buckets[i] = f.And(Filter{Any: [][]Cond{{{Column: ColStatus, Type: TypeStatus, Op: OpEq, Value: c}}}})
	}
	ts, err := bucketTotals(ctx, st, k, f, amt, buckets)
	if err != nil {
		return nil, err
	}
	out := &StatusTotals{Field: status.Name, Label: status.Label, Amount: amt.Name, AmountLabel: amt.Label, Type: amt.Type, Groups: []StatusTotal{}}
	for i, c := range status.Choices {
		if t := ts[i]; t.Count > 0 {
			out.Groups = append(out.Groups, StatusTotal{Status: c, Count: t.Count, Totals: t.Totals, Estimated: t.Estimated})
		}
	}
	return out, nil
}
