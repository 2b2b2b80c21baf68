package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/portico/portico/internal/records"
)

// decisionBody is an approval decision: the records, approve or reject,
// and the comment (required to reject).
type decisionBody struct {
	IDs      []int64 `json:"ids"`
	Decision string  `json:"decision"`
	Comment  string  `json:"comment"`
}

// decide approves or rejects the selected records of ?type= (POST
// {product}-approval), each through the record write path: 200 with one
// outcome per record, decided or not and why (records.Kind.Decide). Needs
// <route>.approve; a record outside its rule (one waiting for someone
// else) is not found. An Idempotency-Key makes a repeat decide no record
// twice.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	var body decisionBody
	k, key, ok := s.selectionWrite(w, r, records.ActApprove, &body)
	if !ok {
		return
	}
	p := caller(r)
	sy, mode := s.writeMode(r)
	d := records.Decision{IDs: body.IDs, Verdict: body.Decision, Comment: body.Comment,
		Addition: records.Addition{AuthorName: p.User.FullName, IdempotencyKey: key}}
	res, err := k.Decide(r.Context(), deciding{guarded{s.tenants(p.Tenant), p.Guard}}, d, author(r), time.Now(), mode)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	logCauses(r, res.Results)
	if sy != nil && res.Saved > 0 {
		sy.Notify()
	}
	writeData(w, http.StatusOK, res)
}

// deciding is the caller's store for a decision (Guard.CheckDecision
// decides its write; its comment needs the record's view scope). Decide
// writes only the kind's approval fields through it.
type deciding struct{ guarded }

func (s deciding) SaveRecord(ctx context.Context, w records.Write) (records.Record, error) {
	if err := s.g.CheckDecision(ctx, w.Record.Kind, w.Record.ID); err != nil {
		return records.Record{}, err
	}
	return s.TenantStore.SaveRecord(ctx, w)
}

func (s deciding) AddNote(ctx context.Context, w records.NoteWrite) error {
	if err := s.g.CheckRecord(ctx, w.Kind, w.RecordID); err != nil {
		return err
	}
	return s.TenantStore.AddNote(ctx, w)
}
