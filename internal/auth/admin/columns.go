package admin

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
)

// The plugin's columns, with Better Auth's names and types (its migration adds banned with a
// default of false), so a Better Auth database that has them is adopted as is.
var (
	userColumns = []store.Column{
		{Name: "role", SQLite: "text", Postgres: "text"},
		{Name: "banned", SQLite: "integer default 0", Postgres: "boolean default false"},
		{Name: "banReason", SQLite: "text", Postgres: "text"},
		{Name: "banExpires", SQLite: "date", Postgres: "timestamptz"},
	}
	sessionColumns = []store.Column{{Name: "impersonatedBy", SQLite: "text", Postgres: "text"}}
)

// adminFields are the plugin's columns of one user.
type adminFields struct {
	Role       *string
	Banned     bool
	BanReason  *string
	BanExpires *time.Time
}

// json is how Better Auth answers them in a user.
func (f adminFields) json() map[string]any {
	m := map[string]any{"role": nil, "banned": f.Banned, "banReason": nil, "banExpires": nil}
	if f.Role != nil {
		m["role"] = *f.Role
	}
	if f.BanReason != nil {
		m["banReason"] = *f.BanReason
	}
	if f.BanExpires != nil {
		m["banExpires"] = isoTime(*f.BanExpires)
	}
	return m
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// columns reads a user's admin columns; errNoUser when the user does not exist.
func (p *Plugin) columns(ctx context.Context, userID string) (adminFields, error) {
	var f adminFields
	var banned sql.NullString
	var expires sql.NullString
	var expiresTime sql.NullTime
	st := p.s.Store()
	var err error
	if st.Postgres() {
		var b sql.NullBool
		err = st.DB().QueryRowContext(ctx, st.Rebind(`select "role", "banned", "banReason", "banExpires" from "user" where "id" = ?`), userID).
			Scan(&f.Role, &b, &f.BanReason, &expiresTime)
		f.Banned = b.Valid && b.Bool
	} else {
		err = st.DB().QueryRowContext(ctx, `select "role", "banned", "banReason", "banExpires" from "user" where "id" = ?`, userID).
			Scan(&f.Role, &banned, &f.BanReason, &expires)
		f.Banned = banned.Valid && (banned.String == "1" || banned.String == "true")
	}
	if errors.Is(err, sql.ErrNoRows) {
		return f, errNoUser
	}
	if err != nil {
		return f, fmt.Errorf("admin: read user columns: %w", err)
	}
	if expiresTime.Valid {
		t := expiresTime.Time.UTC()
		f.BanExpires = &t
	}
	if expires.Valid && expires.String != "" {
		t, err := parseTime(expires.String)
		if err != nil {
			return f, fmt.Errorf("admin: banExpires of %s: %w", userID, err)
		}
		f.BanExpires = &t
	}
	return f, nil
}

var errNoUser = errors.New("admin: no such user")

// parseTime reads a date as Better Auth's SQLite adapter writes it (ISO 8601), or epoch ms.
func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	var ms int64
	if _, err := fmt.Sscanf(s, "%d", &ms); err == nil {
		return time.UnixMilli(ms).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("unrecognised time %q", s)
}

// update sets admin columns of a user (a nil value writes NULL), bumps updatedAt and drops
// the user's cached sessions.
func (p *Plugin) update(ctx context.Context, userID string, set map[string]any) error {
	st := p.s.Store()
	q, args := `update "user" set "updatedAt" = ?`, []any{st.Time(p.s.Now())}
	for _, col := range []string{"role", "banned", "banReason", "banExpires"} {
		v, ok := set[col]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case bool:
			v = p.boolArg(x)
		case time.Time:
			v = st.Time(x)
		}
		q += fmt.Sprintf(`, %q = ?`, col)
		args = append(args, v)
	}
	if _, err := st.DB().ExecContext(ctx, st.Rebind(q+` where "id" = ?`), append(args, userID)...); err != nil {
		return fmt.Errorf("admin: update user: %w", err)
	}
	return st.InvalidateUser(ctx, userID)
}

// boolArg: Better Auth stores booleans as 0/1 in SQLite.
func (p *Plugin) boolArg(b bool) any {
	if p.s.Store().Postgres() {
		return b
	}
	if b {
		return 1
	}
	return 0
}

// impersonatedBy reads a session's impersonatedBy column ("" when none).
func (p *Plugin) impersonatedBy(ctx context.Context, sessionID string) (string, error) {
	st := p.s.Store()
	var by sql.NullString
	err := st.DB().QueryRowContext(ctx, st.Rebind(`select "impersonatedBy" from "session" where "id" = ?`), sessionID).Scan(&by)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("admin: read impersonatedBy: %w", err)
	}
	return by.String, nil
}
