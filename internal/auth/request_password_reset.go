package auth

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

type resetRequestBody struct {
	Email      *string `json:"email"`
	RedirectTo *string `json:"redirectTo"`
}

// requestPasswordReset (and its alias /forget-password) mails a single-use reset link.
func (s *Service) requestPasswordReset(w http.ResponseWriter, r *http.Request) {
	var b resetRequestBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if !validEmail(lower(*b.Email)) {
		writeErr(w, r, httpx.BadRequest("[body.email] Invalid email address"))
		return
	}
	if err := s.CheckURLs("", str(b.RedirectTo), "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	u, err := s.store.UserByEmail(ctx, lower(*b.Email))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	if u != nil {
		token, now := randomID(resetTokenLen), s.now()
		v := &store.Verification{ID: randomID(32), Identifier: "reset-password:" + token, Value: u.ID, ExpiresAt: now.Add(resetTokenTTL), CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateVerification(ctx, v); err != nil {
			writeErr(w, r, err)
			return
		}
		link := s.cfg.BaseURL.String() + BasePath + "/reset-password/" + token + "?callbackURL=" + url.QueryEscape(str(b.RedirectTo))
		s.send(ctx, mail.PasswordReset(u.Email, u.Name, link))
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": true, "message": resetMessage})
}

func (b *resetRequestBody) validate() error {
	var f Fields
	f.Required("email", b.Email)
	f.MaxLen("redirectTo", b.RedirectTo, maxURLLen)
	return f.Err()
}
