package config

import "strings"

// SocialProviderIDs are the identity providers of spec §3, in its order.
var SocialProviderIDs = []string{"apple", "atlassian", "cognito", "discord", "facebook", "figma", "github",
	"microsoft", "google", "huggingface", "slack", "spotify", "twitch", "twitter", "dropbox", "kick", "linear",
	"linkedin", "gitlab", "tiktok", "reddit", "roblox", "salesforce", "vk", "zoom", "notion", "kakao", "naver",
	"line", "paypal"}

// SocialProvider is one identity provider's credentials and options.
type SocialProvider struct {
	ClientID     string // <ID>_CLIENT_ID (TIKTOK_CLIENT_KEY for tiktok)
	ClientSecret string // <ID>_CLIENT_SECRET
}

// Social is the social sign-in configuration: a provider is configured when its client id is set.
type Social struct {
	Providers          map[string]SocialProvider
	AppleBundleID      string // APPLE_APP_BUNDLE_IDENTIFIER
	CognitoDomain      string // COGNITO_DOMAIN
	CognitoRegion      string // COGNITO_REGION
	CognitoUserPoolID  string // COGNITO_USER_POOL_ID
	MicrosoftTenantID  string // MICROSOFT_TENANT_ID
	PaypalEnvironment  string // PAYPAL_ENVIRONMENT: sandbox | live
	SalesforceEnv      string // SALESFORCE_ENVIRONMENT: production | sandbox
	GitlabIssuer       string // GITLAB_ISSUER
	EncryptOAuthTokens bool   // AUTH_ENCRYPT_OAUTH_TOKENS
	// TestIDPURL (SOCIAL_TEST_IDP_URL) is for browser tests only: every provider's endpoints go
	// to a stand-in identity provider at this URL. Refused in production.
	TestIDPURL string

	TrustedProviders      []string // AUTH_TRUSTED_PROVIDERS: link to an existing user even without a verified email
	AccountLinking        bool     // AUTH_ACCOUNT_LINKING_ENABLED
	AllowDifferentEmails  bool     // AUTH_ALLOW_DIFFERENT_EMAILS: link-social with another email than the user's
	DisableSignUp         bool     // AUTH_SOCIAL_DISABLE_SIGN_UP: social sign-in never creates users
	DisableImplicitSignUp bool     // AUTH_SOCIAL_DISABLE_IMPLICIT_SIGN_UP: only with requestSignUp
}

func (p *parser) social(production bool) Social {
	s := Social{Providers: map[string]SocialProvider{}}
	for _, id := range SocialProviderIDs {
		up := strings.ToUpper(id)
		cid := p.str(up+"_CLIENT_ID", "")
		if id == "tiktok" {
			cid = p.str("TIKTOK_CLIENT_KEY", cid)
		}
		if cid != "" {
			s.Providers[id] = SocialProvider{ClientID: cid, ClientSecret: p.str(up+"_CLIENT_SECRET", "")}
		}
	}
	s.AppleBundleID = p.str("APPLE_APP_BUNDLE_IDENTIFIER", "")
	s.CognitoDomain = p.str("COGNITO_DOMAIN", "")
	s.CognitoRegion = p.str("COGNITO_REGION", "")
	s.CognitoUserPoolID = p.str("COGNITO_USER_POOL_ID", "")
	if _, on := s.Providers["cognito"]; on {
		// Better Auth refuses to start cognito without all three: they make its endpoints and issuer.
		for _, nv := range [][2]string{{"COGNITO_DOMAIN", s.CognitoDomain}, {"COGNITO_REGION", s.CognitoRegion}, {"COGNITO_USER_POOL_ID", s.CognitoUserPoolID}} {
			if nv[1] == "" {
				p.fail(nv[0], "required when COGNITO_CLIENT_ID is set")
			}
		}
	}
	s.MicrosoftTenantID = p.str("MICROSOFT_TENANT_ID", "common")
	s.PaypalEnvironment = p.oneOf("PAYPAL_ENVIRONMENT", "sandbox", "sandbox", "live")
	s.SalesforceEnv = p.oneOf("SALESFORCE_ENVIRONMENT", "production", "production", "sandbox")
	s.GitlabIssuer = strings.TrimRight(p.str("GITLAB_ISSUER", "https://gitlab.com"), "/")
	s.EncryptOAuthTokens = p.boolean("AUTH_ENCRYPT_OAUTH_TOKENS", production)
	if s.TestIDPURL = p.schemeURL("SOCIAL_TEST_IDP_URL", "http", "https"); s.TestIDPURL != "" && production {
		p.fail("SOCIAL_TEST_IDP_URL", "is for tests only and refused in production")
	}
	s.TrustedProviders = p.list("AUTH_TRUSTED_PROVIDERS", true)
	s.AccountLinking = p.boolean("AUTH_ACCOUNT_LINKING_ENABLED", true)
	s.AllowDifferentEmails = p.boolean("AUTH_ALLOW_DIFFERENT_EMAILS", false)
	s.DisableSignUp = p.boolean("AUTH_SOCIAL_DISABLE_SIGN_UP", false)
	s.DisableImplicitSignUp = p.boolean("AUTH_SOCIAL_DISABLE_IMPLICIT_SIGN_UP", false)
	return s
}
