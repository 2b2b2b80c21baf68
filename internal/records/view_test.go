package records

import "testing"

func TestLabelOf(t *testing.T) {
	for key, want := range map[string]string{
		"custrecord_res_pr_owner": "Owner", "lastModifiedDate": "Last modified", "isinactive": "Inactive",
		"permit_number": "Permit number", "custentity_res_acres": "Acres", "projectedenddate": "Projected end date",
	} {
		if got := labelOf(key); got != want {
			t.Errorf("labelOf(%q) = %q, want %q", key, got, want)
		}
	}
}
