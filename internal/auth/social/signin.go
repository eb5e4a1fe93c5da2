package social

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

type signInBody struct {
	Provider           *string      `json:"provider"`
	CallbackURL        *string      `json:"callbackURL"`
	NewUserCallbackURL *string      `json:"newUserCallbackURL"`
	ErrorCallbackURL   *string      `json:"errorCallbackURL"`
	DisableRedirect    bool         `json:"disableRedirect"`
	Scopes             []string     `json:"scopes"`
	RequestSignUp      bool         `json:"requestSignUp"`
	LoginHint          *string      `json:"loginHint"`
	IDToken            *idTokenBody `json:"idToken"`
}

func (b *signInBody) check() error {
	var f auth.Fields
	f.Required("provider", b.Provider)
	f.MaxLen("callbackURL", b.CallbackURL, 2048)
	f.MaxLen("newUserCallbackURL", b.NewUserCallbackURL, 2048)
	f.MaxLen("errorCallbackURL", b.ErrorCallbackURL, 2048)
	f.MaxLen("loginHint", b.LoginHint, 320)
	if b.IDToken != nil {
		b.IDToken.check(&f)
	}
	if len(b.Scopes) > 50 {
		return httpx.BadRequest("[body.scopes] Too big: expected array to have <=50 items")
	}
	return f.Err()
}

// signInSocial answers the provider's authorization URL ({url, redirect}) after storing the
// state, or, with an idToken, signs in directly (idtoken.go).
func (p *plugin) signInSocial(w http.ResponseWriter, r *http.Request) {
	var b signInBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	pr := p.providers[*b.Provider]
	if pr == nil {
		auth.WriteError(w, r, errProviderNotFound)
		return
	}
	if b.IDToken != nil {
		p.signInIDToken(w, r, pr, &b)
		return
	}
	cb, nu, ecb := deref(b.CallbackURL), deref(b.NewUserCallbackURL), deref(b.ErrorCallbackURL)
	if err := p.s.CheckURLs(cb, "", ecb, nu); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if cb == "" {
		cb = "/"
	}
	u, err := p.authorize(w, r, pr, statePayload{CallbackURL: cb, NewUserURL: nu, ErrorURL: ecb, RequestSignUp: b.RequestSignUp}, b.Scopes, deref(b.LoginHint))
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if !b.DisableRedirect { // Better Auth also names the URL in Location (a 200, not a redirect)
		w.Header().Set("Location", u)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"url": u, "redirect": !b.DisableRedirect})
}

// authorize stores the state and builds the provider's authorization URL.
func (p *plugin) authorize(w http.ResponseWriter, r *http.Request, pr *providers.Provider, sp statePayload, scopes []string, loginHint string) (string, error) {
	state, verifier, err := p.newState(w, r, sp)
	if err != nil {
		return "", err
	}
	return pr.AuthCodeURL(p.redirectURI(pr.ID), state, verifier, loginHint, scopes), nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
