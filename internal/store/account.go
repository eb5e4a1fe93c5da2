package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Account is a row of Better Auth's "account" table: one sign-in identity of a user.
// Email-and-password users have one with ProviderID "credential" holding the password hash.
type Account struct {
	ID                    string
	AccountID             string
	ProviderID            string
	UserID                string
	AccessToken           *string
	RefreshToken          *string
	IDToken               *string
	AccessTokenExpiresAt  *time.Time
	RefreshTokenExpiresAt *time.Time
	Scope                 *string
	Password              *string
	CreatedAt             time.Time
	UpdatedAt             time.Time
}

const accountColumns = `"id", "accountId", "providerId", "userId", "accessToken", "refreshToken", "idToken", "accessTokenExpiresAt", "refreshTokenExpiresAt", "scope", "password", "createdAt", "updatedAt"`

func scanAccount(row interface{ Scan(...any) error }) (*Account, error) {
	var a Account
	var accessExp, refreshExp nullTime
	var created, updated dbTime
	err := row.Scan(&a.ID, &a.AccountID, &a.ProviderID, &a.UserID, &a.AccessToken, &a.RefreshToken, &a.IDToken,
		&accessExp, &refreshExp, &a.Scope, &a.Password, &created, &updated)
	if err != nil {
		return nil, notFound(err)
	}
	if accessExp.Valid {
		a.AccessTokenExpiresAt = &accessExp.Time
	}
	if refreshExp.Valid {
		a.RefreshTokenExpiresAt = &refreshExp.Time
	}
	a.CreatedAt, a.UpdatedAt = created.Time, updated.Time
	return &a, nil
}

// CreateAccount inserts a.
func (s *Store) CreateAccount(ctx context.Context, a *Account) error {
	_, err := s.exec(ctx, `insert into "account" (`+accountColumns+`) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.AccountID, a.ProviderID, a.UserID, a.AccessToken, a.RefreshToken, a.IDToken,
		s.optTime(a.AccessTokenExpiresAt), s.optTime(a.RefreshTokenExpiresAt), a.Scope, a.Password,
		s.dialect.timeArg(a.CreatedAt), s.dialect.timeArg(a.UpdatedAt))
	if err != nil {
		return fmt.Errorf("account: create: %w", err)
	}
	return nil
}

func (s *Store) optTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return s.dialect.timeArg(*t)
}

// AccountsByUser lists a user's accounts, oldest first.
func (s *Store) AccountsByUser(ctx context.Context, userID string) ([]*Account, error) {
	rows, err := s.query(ctx, `select `+accountColumns+` from "account" where "userId" = ? order by "createdAt"`, userID)
	if err != nil {
		return nil, fmt.Errorf("account: by user: %w", err)
	}
	defer rows.Close()
	var out []*Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, fmt.Errorf("account: by user: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// CredentialAccount returns the user's email-and-password account, or ErrNotFound.
func (s *Store) CredentialAccount(ctx context.Context, userID string) (*Account, error) {
	a, err := scanAccount(s.queryRow(ctx, `select `+accountColumns+` from "account" where "userId" = ? and "providerId" = 'credential'`, userID))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("account: credential: %w", err)
	}
	return a, err
}

// SetPassword stores a new password hash on the user's credential account.
func (s *Store) SetPassword(ctx context.Context, userID, hash string, now time.Time) error {
	res, err := s.exec(ctx, `update "account" set "password" = ?, "updatedAt" = ? where "userId" = ? and "providerId" = 'credential'`,
		hash, s.dialect.timeArg(now), userID)
	if err != nil {
		return fmt.Errorf("account: set password: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// DeleteAccount removes one of a user's accounts.
func (s *Store) DeleteAccount(ctx context.Context, userID, id string) error {
	res, err := s.exec(ctx, `delete from "account" where "userId" = ? and "id" = ?`, userID, id)
	if err != nil {
		return fmt.Errorf("account: delete: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
