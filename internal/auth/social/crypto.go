package social

import (
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"

	"golang.org/x/crypto/chacha20poly1305"
)

// tokenCipher is Better Auth's symmetricEncrypt: XChaCha20-Poly1305 keyed by SHA-256 of the
// secret, stored as hex(24-byte nonce || ciphertext || 16-byte tag).
type tokenCipher struct{ aead cipher.AEAD }

func newTokenCipher(secret []byte) *tokenCipher {
	key := sha256.Sum256(secret)
	aead, err := chacha20poly1305.NewX(key[:])
	if err != nil {
		panic(err) // the key is always 32 bytes
	}
	return &tokenCipher{aead: aead}
}

func (c *tokenCipher) encrypt(plain string) string {
	nonce := make([]byte, chacha20poly1305.NonceSizeX)
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	return hex.EncodeToString(c.aead.Seal(nonce, nonce, []byte(plain), nil))
}

// decrypt opens a stored token; a value that is not our ciphertext (stored before encryption
// was turned on) is returned as it is, as Better Auth does.
func (c *tokenCipher) decrypt(stored string) string {
	raw, err := hex.DecodeString(stored)
	if err != nil || len(raw) < chacha20poly1305.NonceSizeX+chacha20poly1305.Overhead {
		return stored
	}
	plain, err := c.aead.Open(nil, raw[:chacha20poly1305.NonceSizeX], raw[chacha20poly1305.NonceSizeX:], nil)
	if err != nil {
		return stored
	}
	return string(plain)
}
