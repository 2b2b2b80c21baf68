package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/portico/portico/internal/equipment"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// EquipmentCharges lists a project's charges from the external
// equipment-charge service (SPEC §7). A failure is expected to be a
// *portal.Error whose Message is safe to show; its cause is only logged.
type EquipmentCharges interface {
	Charges(ctx context.Context, tenant portal.TenantID, projectID int64) ([]equipment.Charge, error)
}

var _ EquipmentCharges = (*equipment.Client)(nil)

// costDetailsAnswer is the project's cost-details tab: its vendor bills
// and, when the service is configured, an equipment section.
type costDetailsAnswer struct {
	records.TabPage
	Equipment *equipmentSection `json:"equipment,omitempty"`
}

// equipmentSection is the project's equipment charges, or with Error set
// (and no rows) why they could not be had.
type equipmentSection struct {
	Columns []records.ColumnInfo `json:"columns"`
	Rows    []records.Row        `json:"rows"`
	Error   string               `json:"error,omitempty"`
}

var equipmentColumns = []records.ColumnInfo{
	{Name: "date", Label: "Date", Type: records.TypeDate},
	{Name: "equipment", Label: "Equipment", Type: records.TypeText},
	{Name: "description", Label: "Description", Type: records.TypeText},
	{Name: "hours", Label: "Hours", Type: records.TypeQuantity},
	{Name: "rate", Label: "Rate", Type: records.TypeMoney},
	{Name: "amount", Label: "Amount", Type: records.TypeMoney},
}

// equipmentOf fetches project projectID's equipment charges; nil when the
// service is not configured. A failure of the service never fails the
// tab: it becomes the section's message, and its cause is logged with the
// request id.
func (s *Server) equipmentOf(r *http.Request, projectID int64) *equipmentSection {
	if s.equipment == nil {
		return nil
	}
	charges, err := s.equipment.Charges(r.Context(), caller(r).Tenant, projectID)
	if err != nil {
		msg := "Equipment charges could not be loaded."
		var pe *portal.Error
		if errors.As(err, &pe) {
			msg = pe.Message
		}
		s.log.Warn("equipment charges failed", "request_id", requestID(r.Context()), "project_id", projectID, "err", err)
		return &equipmentSection{Columns: equipmentColumns, Rows: []records.Row{}, Error: msg}
	}
	rows := make([]records.Row, 0, len(charges))
	for _, c := range charges {
		rows = append(rows, records.Row{"id": c.ID, "date": c.Date, "equipment": c.Equipment, "description": c.Description,
			"hours": c.Hours, "rate": c.Rate, "amount": c.Amount})
	}
	return &equipmentSection{Columns: equipmentColumns, Rows: rows}
}
