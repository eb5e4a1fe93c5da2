// Package password hashes and verifies passwords with scrypt in Better Auth's stored format,
// "hex(salt):hex(key)", so users created by a Better Auth app sign in unchanged.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strings"

	"golang.org/x/crypto/scrypt"
	"golang.org/x/text/unicode/norm"
)

// Better Auth's parameters (@better-auth/utils/password). Changing them would make our hashes
// unreadable to Better Auth and, worse, a faster hash is a weaker one.
const (
	costN  = 16384
	blockR = 16
	par    = 1
	keyLen = 64
)

// ErrMalformed reports a stored hash that is not "salt:key".
var ErrMalformed = errors.New("password: malformed hash")

// Hash returns a new "salt:key" hash of pw.
func Hash(pw string) (string, error) {
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	// Better Auth uses the hex string of the salt, not its bytes, as the scrypt salt.
	salt := hex.EncodeToString(raw)
	key, err := derive(pw, salt)
	if err != nil {
		return "", err
	}
	return salt + ":" + hex.EncodeToString(key), nil
}

// Verify reports whether pw matches hash, comparing in constant time.
func Verify(hash, pw string) (bool, error) {
	salt, want, ok := strings.Cut(hash, ":")
	if !ok || salt == "" || want == "" {
		return false, ErrMalformed
	}
	key, err := derive(pw, salt)
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare([]byte(hex.EncodeToString(key)), []byte(want)) == 1, nil
}

func derive(pw, salt string) ([]byte, error) {
	return scrypt.Key([]byte(norm.NFKC.String(pw)), []byte(salt), costN, blockR, par, keyLen)
}
