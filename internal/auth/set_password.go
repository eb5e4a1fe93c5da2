package auth

import (
	"errors"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/store"
)

// SetPassword gives a user without a password (social sign-in only) a credential password.
// It is a server-side operation with no HTTP route, as in Better Auth.
func (s *Service) SetPassword(r *http.Request, userID, newPassword string) error {
	if err := s.checkPassword(newPassword); err != nil {
		return err
	}
	ctx := r.Context()
	acc, err := s.store.CredentialAccount(ctx, userID)
	if err == nil && acc.Password != nil {
		return ErrUserHasPassword
	}
	hash, herr := password.Hash(newPassword)
	if herr != nil {
		return herr
	}
	now := s.now()
	if errors.Is(err, store.ErrNotFound) {
		return s.store.CreateAccount(ctx, &store.Account{ID: randomID(32), AccountID: userID, ProviderID: "credential", UserID: userID, Password: &hash, CreatedAt: now, UpdatedAt: now})
	}
	if err != nil {
		return err
	}
	return s.store.SetPassword(ctx, userID, hash, now)
}
