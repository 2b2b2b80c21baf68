package harness

import "github.com/portico/portico/internal/records"

// CreateFields is a complete, valid form for kind: title (the first
// field) and other text fields the marker, references to record 1 (every
// demo kind has it), the first status, an amount and a date.
func CreateFields(kind, marker string) map[string]any {
	k, ok := records.Lookup(kind)
	if !ok {
		panic("no kind " + kind)
	}
	out := map[string]any{}
	for _, f := range k.Fields {
		if f.ReadOnly {
			continue // the system's (an id, a balance): a form never sends it
		}
		switch f.Type {
		case records.TypeRef:
			out[f.Name] = 1
		case records.TypeStatus:
			out[f.Name] = f.Choices[0]
		case records.TypeMoney, records.TypeQuantity:
			out[f.Name] = 1234.5
		case records.TypeDate:
			out[f.Name] = "2026-11-22"
		default:
			out[f.Name] = marker
		}
	}
	return out
}
