package auth

import (
	"errors"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

type changePasswordBody struct {
	NewPassword         *string `json:"newPassword"`
	CurrentPassword     *string `json:"currentPassword"`
	RevokeOtherSessions *bool   `json:"revokeOtherSessions"`
}

func (s *Service) changePassword(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return
	}
	var b changePasswordBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.checkPassword(*b.NewPassword); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	acc, err := s.store.CredentialAccount(ctx, l.User.ID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && acc.Password == nil) {
		writeErr(w, r, ErrCredentialNotFound)
		return
	} else if err != nil {
		writeErr(w, r, err)
		return
	}
	if ok, _ := password.Verify(*acc.Password, *b.CurrentPassword); !ok {
		writeErr(w, r, ErrInvalidPassword)
		return
	}
	hash, err := password.Hash(*b.NewPassword)
	if err == nil {
		err = s.store.SetPassword(ctx, l.User.ID, hash, s.now())
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	var token any
	if b.RevokeOtherSessions != nil && *b.RevokeOtherSessions {
		if err := s.store.DeleteUserSessions(ctx, l.User.ID, ""); err != nil {
			writeErr(w, r, err)
			return
		}
		u, err := s.store.UserByID(ctx, l.User.ID)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		sess, _, err := s.SignIn(w, r, u, false)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		token = sess.Token
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"token": token, "user": l.User})
}

func (b *changePasswordBody) validate() error {
	var f Fields
	f.Required("newPassword", b.NewPassword)
	f.Required("currentPassword", b.CurrentPassword)
	return f.Err()
}
