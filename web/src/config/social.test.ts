import { describe, expect, it } from 'vitest'
import { OAUTH_ERRORS, PROVIDER_NAMES, oauthErrorText } from './social'

// Spec §8: the codes the OAuth callback sends to the error URL, plus Better Auth's
// account_not_linked. Each needs words a person understands, not the code.
const callbackCodes = ['invalid_callback_request', 'state_not_found', 'please_restart_the_process', 'state_mismatch', 'no_code',
  'oauth_provider_not_found', 'invalid_code', 'unable_to_get_user_info', 'no_callback_url', 'unable_to_link_account',
  "email_doesn't_match", 'account_already_linked_to_different_user', 'email_not_found', 'internal_server_error', 'signup_disabled',
  'unable_to_create_user', 'unable_to_create_session', 'account_not_linked']

const providers = ['apple', 'atlassian', 'cognito', 'discord', 'facebook', 'figma', 'github', 'microsoft', 'google', 'huggingface', 'slack',
  'spotify', 'twitch', 'twitter', 'dropbox', 'kick', 'linear', 'linkedin', 'gitlab', 'tiktok', 'reddit', 'roblox', 'salesforce', 'vk',
  'zoom', 'notion', 'kakao', 'naver', 'line', 'paypal']

describe('social sign-in words', () => {
  it.each(callbackCodes)('%s is worded as a sentence, not the code', (code) => {
    const text = oauthErrorText(code)
    expect(OAUTH_ERRORS[code]).toBe(text)
    expect(text).toMatch(/^[A-Z].*\.$/)
    expect(text).not.toContain(code)
  })
  it("a provider's own error shows its description, else names the code", () => {
    expect(oauthErrorText('server_error', 'Upstream down')).toBe('The provider refused the sign-in: Upstream down')
    expect(oauthErrorText('server_error')).toBe('The sign-in failed (server_error). Please try again.')
  })
  it('every provider of the spec has a display name', () => {
    for (const id of providers) expect(PROVIDER_NAMES[id], id).toBeTruthy()
  })
})
