package secretbox

import (
	"strings"
	"testing"
)

func TestSealOpenRotate(t *testing.T) {
	old, fresh := NewKey(), NewKey()
	k1, err := ParseKeys(old)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := k1.Seal([]byte("token-secret-123"), "tenant:acme")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "token-secret-123") || KeyOf(sealed) != k1.Current() {
		t.Fatalf("sealed %q", sealed)
	}
	if again, _ := k1.Seal([]byte("token-secret-123"), "tenant:acme"); again == sealed {
		t.Error("two seals of one value are equal: the nonce is not fresh")
	}
	if got, err := k1.Open(sealed, "tenant:acme"); err != nil || string(got) != "token-secret-123" {
		t.Fatalf("%q, %v", got, err)
	}
	if _, err := k1.Open(sealed, "tenant:other"); err == nil {
		t.Error("opened for another tenant")
	}
	// Rotation: the new key in front seals, the old one still opens.
	k2, err := ParseKeys("# rotated 2026-11-30\n" + fresh + ",\n" + old + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := k2.Open(sealed, "tenant:acme"); err != nil || string(got) != "token-secret-123" {
		t.Fatalf("after rotation: %q, %v", got, err)
	}
	resealed, _ := k2.Seal([]byte("token-secret-123"), "tenant:acme")
	if KeyOf(resealed) == KeyOf(sealed) {
		t.Error("the new key does not seal")
	}
	onlyNew, _ := ParseKeys(fresh)
	_, err = onlyNew.Open(sealed, "tenant:acme")
	if err == nil || !strings.Contains(err.Error(), KeyOf(sealed)) || strings.Contains(err.Error(), old) {
		t.Errorf("the old key dropped: %v", err)
	}
	damaged := sealed[:len(sealed)-2] + "AA"
	if _, err := k1.Open(damaged, "tenant:acme"); err == nil {
		t.Error("a damaged value opened")
	}
}

func TestNoKeysAndBadKeys(t *testing.T) {
	var none Keys
	if _, err := none.Seal([]byte("x"), "c"); err != ErrNoKey {
		t.Errorf("seal without keys: %v", err)
	}
	if k, err := ParseKeys("  \n"); err != nil || k.Configured() {
		t.Errorf("empty: %v", err)
	}
	for _, bad := range []string{"not-base64!", "c2hvcnQ="} {
		if _, err := ParseKeys(bad); err == nil || strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
