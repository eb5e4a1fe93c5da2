// Social sign-in: the providers' display names (spec §3) and the OAuth callback error codes
// (spec §8) in words a person understands. The server tells the page which providers are on.

export const PROVIDER_NAMES: Record<string, string> = {
  apple: 'Apple', atlassian: 'Atlassian', cognito: 'Amazon Cognito', discord: 'Discord', facebook: 'Facebook',
  figma: 'Figma', github: 'GitHub', microsoft: 'Microsoft', google: 'Google', huggingface: 'Hugging Face',
  slack: 'Slack', spotify: 'Spotify', twitch: 'Twitch', twitter: 'X (Twitter)', dropbox: 'Dropbox', kick: 'Kick',
  linear: 'Linear', linkedin: 'LinkedIn', gitlab: 'GitLab', tiktok: 'TikTok', reddit: 'Reddit', roblox: 'Roblox',
  salesforce: 'Salesforce', vk: 'VK', zoom: 'Zoom', notion: 'Notion', kakao: 'Kakao', naver: 'Naver', line: 'LINE',
  paypal: 'PayPal', credential: 'Email and password',
}

export const providerName = (id: string) => PROVIDER_NAMES[id] ?? id

export const OAUTH_ERRORS: Record<string, string> = {
  invalid_callback_request: 'The sign-in answer from the provider was malformed. Please try again.',
  state_not_found: 'The sign-in could not be matched to this browser. Please start again from this page.',
  please_restart_the_process: 'That sign-in link has already been used or has expired. Please start again.',
  state_mismatch: 'The sign-in was started in another browser or tab. Please start again from this page.',
  no_code: 'The provider did not complete the sign-in. Please try again.',
  oauth_provider_not_found: 'That sign-in provider is not available.',
  invalid_code: 'The provider did not accept the sign-in. Please try again.',
  unable_to_get_user_info: 'We could not read your profile from the provider. Please try again.',
  no_callback_url: 'The sign-in had nowhere to return to. Please start again.',
  unable_to_link_account: 'That account could not be linked: the provider does not confirm its email address.',
  "email_doesn't_match": 'That account uses a different email address from yours, so it was not linked.',
  account_already_linked_to_different_user: 'That account is already linked to another user.',
  account_not_linked: 'An account with this email already exists. Sign in with your password, then link this provider from your account settings.',
  email_not_found: 'The provider did not share an email address, which we need to sign you in.',
  internal_server_error: 'Something went wrong on our side. Please try again.',
  signup_disabled: 'New accounts cannot be created this way. Sign in with an existing account.',
  unable_to_create_user: 'We could not create your account. Please try again.',
  unable_to_create_session: 'We could not sign you in. Please try again.',
  access_denied: 'The sign-in was cancelled at the provider.',
}

// oauthErrorText words a callback error; a provider's own code falls back to its description.
export function oauthErrorText(code: string, description?: string): string {
  return OAUTH_ERRORS[code] ?? (description ? `The provider refused the sign-in: ${description}` : `The sign-in failed (${code}). Please try again.`)
}
