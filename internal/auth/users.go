package auth

import (
	"context"
	"log/slog"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/store"
)

// NewUser is what CreateUser needs. Password is the plain password of a credential account;
// empty for users who sign in otherwise (social sign-in).
type NewUser struct {
	Name          string
	Email         string
	EmailVerified bool
	Image         *string
	Password      string
}

// CreateUser stores a user (and its credential account when a password is given) and runs the
// user-created hooks (the personal workspace, the billing customer). A taken email answers
// FAILED_TO_CREATE_USER: callers that must say "exists" check first.
func (s *Service) CreateUser(ctx context.Context, nu NewUser) (*store.User, error) {
	var hash string
	if nu.Password != "" {
		h, err := password.Hash(nu.Password)
		if err != nil {
			return nil, err
		}
		hash = h
	}
	now := s.now()
	u := &store.User{ID: randomID(32), Name: nu.Name, Email: strings.ToLower(nu.Email), EmailVerified: nu.EmailVerified,
		Image: nu.Image, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateUser(ctx, u); err != nil {
		// A concurrent sign-up with the same email loses the unique constraint race.
		return nil, ErrFailedCreateUser
	}
	if hash != "" {
		acc := &store.Account{ID: randomID(32), AccountID: u.ID, ProviderID: "credential", UserID: u.ID, Password: &hash, CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateAccount(ctx, acc); err != nil {
			return nil, err
		}
	}
	s.userCreated(ctx, u)
	return u, nil
}

// DeleteUser removes a user and everything it owns: the user-deleted hooks first (workspaces,
// datasets, watchlists, billing), then its sessions, accounts and row.
func (s *Service) DeleteUser(ctx context.Context, userID string) error {
	for _, h := range s.userDeletedHooks {
		if err := h(ctx, userID); err != nil {
			return err
		}
	}
	return s.store.DeleteUser(ctx, userID)
}

// NewID returns a random id in Better Auth's alphabet ([a-zA-Z0-9], 32 characters).
func NewID() string { return randomID(32) }

// UpdateUser changes a user's profile or email and runs the user-updated hooks (the billing
// customer follows the email).
func (s *Service) UpdateUser(ctx context.Context, userID string, upd store.UserUpdate) (*store.User, error) {
	u, err := s.store.UpdateUser(ctx, userID, upd, s.now())
	if err != nil {
		return nil, err
	}
	for _, h := range s.userUpdatedHooks {
		if err := h(ctx, u); err != nil {
			slog.Error("auth: user-updated hook", "user", u.ID, "error", err)
		}
	}
	return u, nil
}
