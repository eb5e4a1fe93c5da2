package store

import (
	"context"
	"fmt"
	"time"
)

// Verification is a row of Better Auth's "verification" table: a short-lived secret such as
// reset-password:{token} or delete-account-{token}.
type Verification struct {
	ID         string
	Identifier string
	Value      string
	ExpiresAt  time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// CreateVerification inserts v.
func (s *Store) CreateVerification(ctx context.Context, v *Verification) error {
	_, err := s.exec(ctx, `insert into "verification" ("id", "identifier", "value", "expiresAt", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?)`,
		v.ID, v.Identifier, v.Value, s.dialect.timeArg(v.ExpiresAt), s.dialect.timeArg(v.CreatedAt), s.dialect.timeArg(v.UpdatedAt))
	if err != nil {
		return fmt.Errorf("verification: create: %w", err)
	}
	return nil
}

// VerificationByIdentifier returns the newest verification with identifier, or ErrNotFound.
func (s *Store) VerificationByIdentifier(ctx context.Context, identifier string) (*Verification, error) {
	var v Verification
	var exp, created, updated dbTime
	err := s.queryRow(ctx, `select "id", "identifier", "value", "expiresAt", "createdAt", "updatedAt" from "verification"
		where "identifier" = ? order by "createdAt" desc limit 1`, identifier).
		Scan(&v.ID, &v.Identifier, &v.Value, &exp, &created, &updated)
	if err != nil {
		if err = notFound(err); err == ErrNotFound {
			return nil, err
		}
		return nil, fmt.Errorf("verification: by identifier: %w", err)
	}
	v.ExpiresAt, v.CreatedAt, v.UpdatedAt = exp.Time, created.Time, updated.Time
	return &v, nil
}

// DeleteVerification removes every verification with identifier (tokens are single-use).
func (s *Store) DeleteVerification(ctx context.Context, identifier string) error {
	if _, err := s.exec(ctx, `delete from "verification" where "identifier" = ?`, identifier); err != nil {
		return fmt.Errorf("verification: delete: %w", err)
	}
	return nil
}
