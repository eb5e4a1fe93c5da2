import { describe, expect, it } from 'vitest'
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'

// Provider tokens stored with AUTH_ENCRYPT_OAUTH_TOKENS=true must stay readable by Better Auth:
// this ciphertext was made by the Go server (internal/auth/social/crypto.go, whose test decrypts
// both this value and one Better Auth made) with the same test secret.
const secret = 'test-secret-test-secret-test-secret-0123'
const fromGo = '300877e1dd23960ce6bbbd83bbfaad91dfe1d36b7290cdd3c02be3f2972972f725cf35e1b20a16f4b41ccaf04f0ea8e997a8'

describe('stored OAuth tokens', () => {
  it('Better Auth decrypts what the Go server encrypted', async () => {
    expect(await symmetricDecrypt({ key: secret, data: fromGo })).toBe('at-from-go')
  })
  it('Better Auth writes the shape the Go server reads: hex of 24-byte nonce, ciphertext, 16-byte tag', async () => {
    const data = await symmetricEncrypt({ key: secret, data: 'at-from-go' })
    expect(data).toMatch(/^[0-9a-f]+$/)
    expect(data.length).toBe(2 * (24 + 'at-from-go'.length + 16))
  })
})
