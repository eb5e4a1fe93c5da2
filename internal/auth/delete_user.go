package auth

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

// deleteTokenTTL is the emailed account-deletion link's lifetime (spec §9: 24 hours).
const deleteTokenTTL = 24 * time.Hour

type deleteUserBody struct {
	Password    *string `json:"password"`
	Token       *string `json:"token"`
	CallbackURL *string `json:"callbackURL"`
}

// deleteUser deletes the account: at once with the right password (or a fresh session), with a
// mailed token, or by sending that mail. It removes the user, sessions and accounts.
func (s *Service) deleteUser(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.AuthDeleteUserEnabled {
		writeErr(w, r, ErrDeleteDisabled)
		return
	}
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return
	}
	var b deleteUserBody
	if !ReadJSON(w, r, &b, nil) {
		return
	}
	if err := s.CheckURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	if b.Password != nil {
		acc, err := s.store.CredentialAccount(ctx, l.User.ID)
		if err != nil || acc.Password == nil {
			writeErr(w, r, ErrCredentialNotFound)
			return
		}
		if ok, _ := password.Verify(*acc.Password, *b.Password); !ok {
			writeErr(w, r, ErrInvalidPassword)
			return
		}
	}
	if b.Token != nil {
		if err := s.consumeDeleteToken(r, l.User.ID, *b.Token); err != nil {
			writeErr(w, r, err)
			return
		}
		s.finishDelete(w, r, l.User.ID)
		return
	}
	if b.Password == nil {
		// Without a password, the account goes only by the emailed link.
		token := randomLowerID(32)
		now := s.now()
		v := &store.Verification{ID: randomID(32), Identifier: "delete-account-" + token, Value: l.User.ID, ExpiresAt: now.Add(deleteTokenTTL), CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateVerification(ctx, v); err != nil {
			writeErr(w, r, err)
			return
		}
		cb := str(b.CallbackURL)
		if cb == "" {
			cb = "/"
		}
		link := s.cfg.BaseURL.String() + BasePath + "/delete-user/callback?token=" + token + "&callbackURL=" + url.QueryEscape(cb)
		s.send(ctx, mail.AccountDeletion(l.User.Email, l.User.Name, link))
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Verification email sent"})
		return
	}
	s.finishDelete(w, r, l.User.ID)
}

func (s *Service) finishDelete(w http.ResponseWriter, r *http.Request, userID string) {
	if err := s.DeleteUser(r.Context(), userID); err != nil {
		writeErr(w, r, err)
		return
	}
	s.clearSessionCookies(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": "User deleted"})
}

func (s *Service) consumeDeleteToken(r *http.Request, userID, token string) error {
	if token == "" || len(token) > 64 {
		return ErrDeleteBadToken
	}
	v, err := s.store.VerificationByIdentifier(r.Context(), "delete-account-"+token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (v.ExpiresAt.Before(s.now()) || !equalConstantTime(v.Value, userID))) {
		return ErrDeleteBadToken
	}
	if err != nil {
		return err
	}
	return s.store.DeleteVerification(r.Context(), v.Identifier)
}

// randomLowerID is Better Auth's delete token alphabet: digits and lower-case letters.
func randomLowerID(n int) string { return strings.ToLower(randomID(n)) }
