package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// User is a row of Better Auth's "user" table.
type User struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	Email         string    `json:"email"`
	EmailVerified bool      `json:"emailVerified"`
	Image         *string   `json:"image"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	// Extra holds the carried columns (carried.go) when the user was read with a session.
	Extra map[string]any `json:"extra,omitempty"`
}

const userColumns = `"id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt"`

func scanUser(row interface{ Scan(...any) error }) (*User, error) {
	var u User
	var verified dbBool
	var created, updated dbTime
	if err := row.Scan(&u.ID, &u.Name, &u.Email, &verified, &u.Image, &created, &updated); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	u.EmailVerified, u.CreatedAt, u.UpdatedAt = bool(verified), created.Time, updated.Time
	return &u, nil
}

// CreateUser inserts u. The caller lowercases the email and sets the id and times.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	_, err := s.exec(ctx, `insert into "user" (`+userColumns+`) values (?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Name, u.Email, s.dialect.boolArg(u.EmailVerified), u.Image, s.dialect.timeArg(u.CreatedAt), s.dialect.timeArg(u.UpdatedAt))
	if err != nil {
		return fmt.Errorf("user: create: %w", err)
	}
	return nil
}

// UserByID returns the user with id, or ErrNotFound.
func (s *Store) UserByID(ctx context.Context, id string) (*User, error) {
	u, err := scanUser(s.queryRow(ctx, `select `+userColumns+` from "user" where "id" = ?`, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("user: by id: %w", err)
	}
	return u, err
}

// UserByEmail returns the user with the (already lowercased) email, or ErrNotFound.
func (s *Store) UserByEmail(ctx context.Context, email string) (*User, error) {
	u, err := scanUser(s.queryRow(ctx, `select `+userColumns+` from "user" where "email" = ?`, email))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("user: by email: %w", err)
	}
	return u, err
}

// UserUpdate lists the fields to change; nil fields stay as they are.
type UserUpdate struct {
	Name          *string
	Email         *string
	EmailVerified *bool
	Image         **string
}

// UpdateUser applies upd and returns the updated user.
func (s *Store) UpdateUser(ctx context.Context, id string, upd UserUpdate, now time.Time) (*User, error) {
	set, args := `"updatedAt" = ?`, []any{s.dialect.timeArg(now)}
	if upd.Name != nil {
		set, args = set+`, "name" = ?`, append(args, *upd.Name)
	}
	if upd.Email != nil {
		set, args = set+`, "email" = ?`, append(args, *upd.Email)
	}
	if upd.EmailVerified != nil {
		set, args = set+`, "emailVerified" = ?`, append(args, s.dialect.boolArg(*upd.EmailVerified))
	}
	if upd.Image != nil {
		set, args = set+`, "image" = ?`, append(args, *upd.Image)
	}
	res, err := s.exec(ctx, `update "user" set `+set+` where "id" = ?`, append(args, id)...)
	if err != nil {
		return nil, fmt.Errorf("user: update: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, ErrNotFound
	}
	if err := s.invalidateUser(ctx, id); err != nil {
		return nil, err
	}
	return s.UserByID(ctx, id)
}

// DeleteUser removes the user with its sessions and accounts.
func (s *Store) DeleteUser(ctx context.Context, id string) error {
	// Sessions and accounts cascade in the schema; deleting them first keeps SQLite databases
	// created without foreign keys enforced consistent too.
	for _, q := range []string{`delete from "session" where "userId" = ?`, `delete from "account" where "userId" = ?`, `delete from "user" where "id" = ?`} {
		if _, err := s.exec(ctx, q, id); err != nil {
			return fmt.Errorf("user: delete: %w", err)
		}
	}
	return s.invalidateUser(ctx, id)
}
