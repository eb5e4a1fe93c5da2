package auth

import (
	"crypto/rand"
	"crypto/subtle"
)

const alphanumeric = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// randomID returns n characters from [a-zA-Z0-9], as Better Auth's generateId does
// (ids and session tokens: 32, reset-password tokens: 24).
func randomID(n int) string {
	// 62 letters: reject bytes >= 248 (4*62) so every letter is equally likely.
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("auth: crypto/rand failed: " + err.Error())
		}
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, alphanumeric[b%62])
			}
		}
	}
	return string(out)
}

// equalConstantTime compares secrets without leaking where they differ.
func equalConstantTime(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
