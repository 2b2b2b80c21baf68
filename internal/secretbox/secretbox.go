// Package secretbox seals the secrets a deployment keeps in its database
// (a tenant's ERP credentials) with keys it never keeps there: AES-256-GCM
// under a key from the environment or a key file.
//
// Keys rotate: the first key of a Keys seals, every key opens, so an
// operator adds a new key in front, re-seals what is stored (portico
// secrets rekey), then drops the old one. A sealed value names the key
// that sealed it (the first 8 bytes of the key's SHA-256, in hex) and is
// bound to a context (the tenant it belongs to): a value copied to
// another tenant's row does not open.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the size of a key in bytes (AES-256).
const KeySize = 32

// version opens every sealed value: a format that changes gets another.
const version = "sb1"

// ErrNoKey is the error of sealing or opening without keys.
var ErrNoKey = errors.New("no key for secrets is configured: set PORTICO_SECRET_KEYS (or PORTICO_SECRET_KEYS_FILE) to a base64 key of 32 bytes, such as `openssl rand -base64 32` prints")

// Keys are the deployment's keys, the sealing one first. The zero Keys
// has none: it seals and opens nothing (ErrNoKey).
type Keys struct {
	keys []key
}

type key struct {
	id   string
	aead cipher.AEAD
}

// ParseKeys reads keys from text: base64 keys of KeySize bytes, separated
// by commas, spaces or line breaks, the sealing key first; lines starting
// with # are comments. No key is an empty Keys, not an error.
func ParseKeys(text string) (Keys, error) {
	var out Keys
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, word := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
			raw, err := base64.StdEncoding.DecodeString(word)
			if err != nil || len(raw) != KeySize {
				return Keys{}, fmt.Errorf("a key for secrets is %d bytes in base64 (`openssl rand -base64 32`); key %d is not", KeySize, len(out.keys)+1)
			}
			block, _ := aes.NewCipher(raw)
			aead, _ := cipher.NewGCM(block)
			sum := sha256.Sum256(raw)
			out.keys = append(out.keys, key{id: hex.EncodeToString(sum[:8]), aead: aead})
		}
	}
	return out, nil
}

// NewKey returns a fresh key in the form ParseKeys reads.
func NewKey() string {
	raw := make([]byte, KeySize)
	rand.Read(raw)
	return base64.StdEncoding.EncodeToString(raw)
}

// Configured reports whether there is a key to seal with.
func (k Keys) Configured() bool { return len(k.keys) > 0 }

// Current names the key that seals.
func (k Keys) Current() string {
	if len(k.keys) == 0 {
		return ""
	}
	return k.keys[0].id
}

// Seal seals plain for context with the current key: "sb1.<key id>.<base64
// of nonce and ciphertext>".
func (k Keys) Seal(plain []byte, context string) (string, error) {
	if len(k.keys) == 0 {
		return "", ErrNoKey
	}
	c := k.keys[0]
	nonce := make([]byte, c.aead.NonceSize())
	rand.Read(nonce)
	out := c.aead.Seal(nonce, nonce, plain, []byte(context))
	return version + "." + c.id + "." + base64.RawStdEncoding.EncodeToString(out), nil
}

// KeyOf names the key that sealed a value ("" when it is not one).
func KeyOf(sealed string) string {
	parts := strings.SplitN(sealed, ".", 3)
	if len(parts) != 3 || parts[0] != version {
		return ""
	}
	return parts[1]
}

// Open opens a value Seal sealed for the same context, with whichever of
// the keys sealed it. The error never holds the value or a key.
func (k Keys) Open(sealed, context string) ([]byte, error) {
	if len(k.keys) == 0 {
		return nil, ErrNoKey
	}
	parts := strings.SplitN(sealed, ".", 3)
	if len(parts) != 3 || parts[0] != version {
		return nil, errors.New("not a sealed secret")
	}
	for _, c := range k.keys {
		if c.id != parts[1] {
			continue
		}
		raw, err := base64.RawStdEncoding.DecodeString(parts[2])
		if err != nil || len(raw) < c.aead.NonceSize() {
			return nil, errors.New("a sealed secret is damaged")
		}
		plain, err := c.aead.Open(nil, raw[:c.aead.NonceSize()], raw[c.aead.NonceSize():], []byte(context))
		if err != nil {
			return nil, errors.New("a sealed secret does not open: damaged, or sealed for another tenant")
		}
		return plain, nil
	}
	return nil, fmt.Errorf("the secret was sealed with key %s, which is not among PORTICO_SECRET_KEYS: put it back (after the current key) until `portico secrets rekey` has run", parts[1])
}
