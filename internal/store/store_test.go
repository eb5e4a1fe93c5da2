package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestUserSessionAccountRoundTrip(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 123e6, time.UTC)
		u := &store.User{ID: "u1", Name: "Ann", Email: "ann@example.com", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateUser(ctx, &store.User{ID: "u2", Name: "x", Email: "ann@example.com", CreatedAt: now, UpdatedAt: now}); err == nil {
			t.Fatal("duplicate email accepted")
		}
		hash := "salt:hash"
		if err := s.CreateAccount(ctx, &store.Account{ID: "a1", AccountID: "u1", ProviderID: "credential", UserID: "u1", Password: &hash, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSession(ctx, &store.Session{ID: "s1", Token: "tok", UserID: "u1", ExpiresAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		sess, got, err := s.SessionAndUser(ctx, "tok")
		if err != nil {
			t.Fatal(err)
		}
		if got.Email != "ann@example.com" || got.EmailVerified || !got.CreatedAt.Equal(now) || !sess.ExpiresAt.Equal(now.Add(time.Hour)) {
			t.Errorf("round trip: %+v %+v", got, sess)
		}
		verified := true
		if u, err := s.UpdateUser(ctx, "u1", store.UserUpdate{EmailVerified: &verified}, now); err != nil || !u.EmailVerified {
			t.Errorf("update: %v %+v", err, u)
		}
		acc, err := s.CredentialAccount(ctx, "u1")
		if err != nil || *acc.Password != hash {
			t.Errorf("credential: %v %+v", err, acc)
		}
		if err := s.DeleteUser(ctx, "u1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.SessionAndUser(ctx, "tok"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("session after user deletion: %v", err)
		}
		if _, err := s.UserByEmail(ctx, "ann@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("user after deletion: %v", err)
		}
	})
}

func TestVerificationIsNewestFirst(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		for i, v := range []string{"old", "new"} {
			at := now.Add(time.Duration(i) * time.Second)
			if err := s.CreateVerification(ctx, &store.Verification{ID: v, Identifier: "reset-password:x", Value: v, ExpiresAt: at.Add(time.Hour), CreatedAt: at, UpdatedAt: at}); err != nil {
				t.Fatal(err)
			}
		}
		v, err := s.VerificationByIdentifier(ctx, "reset-password:x")
		if err != nil || v.Value != "new" {
			t.Fatalf("got %+v %v", v, err)
		}
		if err := s.DeleteVerification(ctx, "reset-password:x"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.VerificationByIdentifier(ctx, "reset-password:x"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("after delete: %v", err)
		}
	})
}
