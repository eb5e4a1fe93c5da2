package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("github", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://github.com/login/oauth/authorize",
			TokenURL:    "https://github.com/login/oauth/access_token",
			UserInfoURL: "https://api.github.com/user",
			EmailsURL:   "https://api.github.com/user/emails",
			Scopes:      []string{"read:user", "user:email"},
			LoginHint:   true,
			PKCE:        true,
			CanRefresh:  true,
			Profile:     githubProfile,
		}
	})
}

// githubProfile reads /user and the emails list: the primary (else first) email when the
// profile hides it, verified when the list says that address is verified.
func githubProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof, "User-Agent", "better-auth"); err != nil {
		return nil, err
	}
	var emails []struct {
		Email    string `json:"email"`
		Primary  bool   `json:"primary"`
		Verified bool   `json:"verified"`
	}
	if err := getJSON(ctx, c, p.EmailsURL, tok.AccessToken, &emails, "User-Agent", "better-auth"); err != nil {
		emails = nil // the profile alone still signs in, unverified
	}
	email := str(prof, "email")
	if email == "" {
		for _, e := range emails {
			if e.Primary {
				email = e.Email
				break
			}
		}
		if email == "" && len(emails) > 0 {
			email = emails[0].Email
		}
	}
	verified := false
	for _, e := range emails {
		if e.Email == email {
			verified = e.Verified
			break
		}
	}
	return &UserInfo{ID: str(prof, "id"), Name: firstNonEmpty(str(prof, "name"), str(prof, "login")), Email: email,
		Image: optStr(str(prof, "avatar_url")), EmailVerified: verified, Data: prof}, nil
}
