package social

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// linkSocial starts a code flow whose callback links the provider's account to the caller.
func (p *plugin) linkSocial(w http.ResponseWriter, r *http.Request) {
	cur, ok := p.s.RequireUser(w, r)
	if !ok {
		return
	}
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
		p.linkIDToken(w, r, pr, b.IDToken, cur.User.ID, cur.User.Email)
		return
	}
	cb, ecb := deref(b.CallbackURL), deref(b.ErrorCallbackURL)
	if err := p.s.CheckURLs(cb, "", ecb, ""); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if cb == "" {
		cb = "/"
	}
	sp := statePayload{CallbackURL: cb, ErrorURL: ecb, RequestSignUp: b.RequestSignUp,
		Link: &stateLink{Email: cur.User.Email, UserID: cur.User.ID}}
	u, err := p.authorize(w, r, pr, sp, b.Scopes, "")
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if !b.DisableRedirect { // Better Auth also names the URL in Location (a 200, not a redirect)
		w.Header().Set("Location", u)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"url": u, "redirect": !b.DisableRedirect})
}
