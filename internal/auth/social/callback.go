package social

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/store"
)

// callbackParams are the query parameters the callback reads (spec §7).
var callbackParams = []string{"code", "error", "error_description", "state", "device_id", "user"}

const maxParam = 8192

// callbackPost answers form_post providers (apple) with a redirect to the GET callback carrying
// the posted fields, so the state cookie (SameSite=Lax) is sent again.
func (p *plugin) callbackPost(w http.ResponseWriter, r *http.Request, id string) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		p.redirectError(w, r, "", "invalid_callback_request", "")
		return
	}
	q := url.Values{}
	for _, k := range callbackParams {
		if v := r.PostForm.Get(k); v != "" {
			q.Set(k, v)
		}
		if v := r.URL.Query().Get(k); v != "" {
			q.Set(k, v) // the query wins, as Better Auth merges it last
		}
	}
	http.Redirect(w, r, p.redirectURI(url.PathEscape(id))+"?"+q.Encode(), http.StatusFound)
}

// callback finishes the code flow: every failure redirects to the error URL with one of the
// codes of spec §8.
func (p *plugin) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for _, k := range callbackParams {
		if len(q[k]) > 1 || len(q.Get(k)) > maxParam {
			p.redirectError(w, r, "", "invalid_callback_request", "")
			return
		}
	}
	state := q.Get("state")
	if state == "" {
		p.redirectError(w, r, "", "state_not_found", "")
		return
	}
	sp, err := p.parseState(r.Context(), w, r, state)
	if err != nil {
		errorURL := ""
		if sp != nil {
			errorURL = sp.ErrorURL
		}
		p.redirectError(w, r, errorURL, err.Error(), "")
		return
	}
	fail := func(code, desc string) { p.redirectError(w, r, sp.ErrorURL, code, desc) }
	if e := q.Get("error"); e != "" {
		fail(e, q.Get("error_description"))
		return
	}
	code := q.Get("code")
	if code == "" {
		fail("no_code", "")
		return
	}
	pr := p.providers[r.PathValue("id")]
	if pr == nil {
		fail("oauth_provider_not_found", "")
		return
	}
	ctx := context.WithValue(r.Context(), oauth2.HTTPClient, pr.TokenClient(p.client))
	if u := q.Get("user"); u != "" {
		ctx = providers.WithCallbackUser(ctx, u) // apple posts the name once, beside the code
	}
	tok, err := pr.Exchange(ctx, p.redirectURI(pr.ID), code, sp.CodeVerifier, q.Get("device_id"))
	if err != nil {
		slog.Warn("oauth code exchange failed", "provider", pr.ID, "error", err)
		fail("invalid_code", "")
		return
	}
	info, err := pr.Profile(ctx, p.client, pr, tok)
	if err != nil || info == nil || info.ID == "" {
		slog.Warn("oauth user info failed", "provider", pr.ID, "error", err)
		fail("unable_to_get_user_info", "")
		return
	}
	if sp.CallbackURL == "" {
		fail("no_callback_url", "")
		return
	}
	if sp.Link != nil {
		if code := p.linkAccount(r.Context(), pr, info, tok, sp.Link); code != "" {
			fail(code, "")
			return
		}
		http.Redirect(w, r, sp.CallbackURL, http.StatusFound)
		return
	}
	if info.Email == "" {
		fail("email_not_found", "")
		return
	}
	user, isNew, code := p.signInUser(r.Context(), pr, info, tok, sp.RequestSignUp)
	if code != "" {
		fail(code, "")
		return
	}
	if _, _, err := p.s.SignIn(w, r, user, false); err != nil {
		fail("unable_to_create_session", "")
		return
	}
	to := sp.CallbackURL
	if isNew && sp.NewUserURL != "" {
		to = sp.NewUserURL
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// redirectError sends the browser to errorURL (default the absolute {base}/api/auth/error, as
// Better Auth's) with error and, when the provider gave one, error_description.
func (p *plugin) redirectError(w http.ResponseWriter, r *http.Request, errorURL, code, desc string) {
	if errorURL == "" {
		errorURL = strings.TrimRight(p.s.Config().BaseURL.String(), "/") + auth.BasePath + "/error"
	}
	sep := "?"
	if strings.Contains(errorURL, "?") {
		sep = "&"
	}
	to := errorURL + sep + "error=" + escapeCode(code)
	if desc != "" {
		to += "&error_description=" + url.QueryEscape(desc)
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// escapeCode keeps Better Auth's literal codes (email_doesn't_match) readable while escaping
// anything a provider might put in its own error.
func escapeCode(code string) string {
	return strings.ReplaceAll(url.QueryEscape(code), "%27", "'")
}

// signInUser applies spec §4: a known account signs in (tokens refreshed), a known email is
// linked only for a trusted provider or a verified email, an unknown email creates the user.
// The string result is a §8 error code.
func (p *plugin) signInUser(ctx context.Context, pr *providers.Provider, info *providers.UserInfo, tok *oauth2.Token, requestSignUp bool) (*store.User, bool, string) {
	st := p.s.Store()
	acc, err := p.accountByProvider(ctx, pr.ID, info.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, false, "internal_server_error"
	}
	email := strings.ToLower(info.Email)
	var user *store.User
	if acc != nil {
		user, err = st.UserByID(ctx, acc.UserID)
	} else {
		user, err = st.UserByEmail(ctx, email)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, false, "internal_server_error"
	}
	if user == nil {
		if p.cfg.DisableSignUp || (p.cfg.DisableImplicitSignUp && !requestSignUp) {
			return nil, false, "signup_disabled"
		}
		u, err := p.s.CreateUser(ctx, auth.NewUser{Name: info.Name, Email: email, EmailVerified: info.EmailVerified, Image: info.Image})
		if err != nil {
			return nil, false, "unable_to_create_user"
		}
		if err := p.createAccount(ctx, pr, info, tok, u.ID); err != nil {
			return nil, false, "unable_to_create_user"
		}
		return u, true, ""
	}
	if acc == nil {
		if (!p.trusted(pr.ID) && !info.EmailVerified) || !p.cfg.AccountLinking {
			return nil, false, "account_not_linked"
		}
		if err := p.createAccount(ctx, pr, info, tok, user.ID); err != nil {
			return nil, false, "unable_to_link_account"
		}
	} else if err := p.updateTokens(ctx, acc.ID, tok); err != nil {
		return nil, false, "internal_server_error"
	}
	if info.EmailVerified && !user.EmailVerified && email == user.Email {
		yes := true
		if u, err := st.UpdateUser(ctx, user.ID, store.UserUpdate{EmailVerified: &yes}, p.s.Now()); err == nil {
			user = u
		}
	}
	return user, false, ""
}

// linkAccount adds the provider's account to the signed-in user of a link-social flow.
func (p *plugin) linkAccount(ctx context.Context, pr *providers.Provider, info *providers.UserInfo, tok *oauth2.Token, l *stateLink) string {
	if (!p.trusted(pr.ID) && !info.EmailVerified) || !p.cfg.AccountLinking {
		return "unable_to_link_account"
	}
	if !strings.EqualFold(info.Email, l.Email) && !p.cfg.AllowDifferentEmails {
		return "email_doesn't_match"
	}
	acc, err := p.accountByProvider(ctx, pr.ID, info.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "internal_server_error"
	}
	if acc != nil {
		if acc.UserID != l.UserID {
			return "account_already_linked_to_different_user"
		}
		if p.updateTokens(ctx, acc.ID, tok) != nil {
			return "internal_server_error"
		}
		return ""
	}
	if p.createAccount(ctx, pr, info, tok, l.UserID) != nil {
		return "unable_to_link_account"
	}
	return ""
}
