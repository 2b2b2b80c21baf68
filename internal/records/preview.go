package records

import (
	"context"
	"errors"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
)

// PreviewStore is what a rule preview reads: the tenant's unguarded
// records.
type PreviewStore interface {
	ListRecords(ctx context.Context, q ListQuery) (Page, error)
	Summarize(ctx context.Context, q SummaryQuery) (Summary, error)
}

// KindCount is how many records of a kind a user would see in a role.
type KindCount struct {
	Kind   string `json:"kind"`
	Route  string `json:"route"`
	Plural string `json:"plural"`
	// Rule is the role's view rule on the kind, "" when it sees them all.
	Rule      string `json:"rule,omitempty"`
	Count     int64  `json:"count"`
	Estimated bool   `json:"estimated"`
	// Error says why the rule cannot be applied for this user (too many
	// followed records...); Count is then 0.
	Error string `json:"error,omitempty"`
}

// Preview counts, for each kind role may view, the records the user
// (by e-mail address) would see under the role's rules: the same Guard
// every read goes through, then Summarize's count. Each count has
// Summarize's bounded cost, so it is exact for small results and
// estimated from a sample (Estimated) for large narrowed ones. The
// role's rules are checked first (CheckRules): a role being edited, not
// yet saved, may be previewed.
func Preview(ctx context.Context, st PreviewStore, role access.Role, email string) ([]KindCount, error) {
	if err := CheckRules([]access.Role{role}); err != nil {
		return nil, err
	}
	g := NewGuard(st, role, email)
	out := []KindCount{}
	for _, k := range All() {
		if !g.May(k, ActView) {
			continue
		}
		c := KindCount{Kind: k.Name, Route: k.Route, Plural: k.Plural, Rule: role.Rules[k.Route+"."+ActView]}
		f, err := g.Narrow(ctx, k.Name, Filter{})
		if err == nil {
			var s Summary
			s, err = st.Summarize(ctx, SummaryQuery{List: ListQuery{Kind: k.Name, Filter: f}, Count: true})
			c.Count, c.Estimated = s.Total, s.TotalEstimated
		}
		if err != nil {
			pe, ok := errors.AsType[*portal.Error](err)
			if !ok || pe.Code == portal.CodeInternal {
				return nil, err
			}
			c.Error = pe.Message
		}
		out = append(out, c)
	}
	return out, nil
}
