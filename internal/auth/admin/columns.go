package admin

import (
	"context"
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

// carriedUser and carriedSession are the columns read with every session (store.Carried).
var (
	carriedUser = []store.Carried{{Name: "role"}, {Name: "banned", Kind: store.CarriedBool},
		{Name: "banReason"}, {Name: "banExpires", Kind: store.CarriedTime}}
	carriedSession = []store.Carried{{Name: "impersonatedBy"}}
)

// columns reads a user's admin columns; errNoUser when the user does not exist.
func (p *Plugin) columns(ctx context.Context, userID string) (adminFields, error) {
	vals, err := p.s.Store().CarriedValues(ctx, "user", userID)
	if errors.Is(err, store.ErrNotFound) {
		return adminFields{}, errNoUser
	}
	if err != nil {
		return adminFields{}, fmt.Errorf("admin: read user columns: %w", err)
	}
	return fieldsOf(vals)
}

// fieldsOf reads the admin columns out of a user's carried values.
func fieldsOf(vals map[string]any) (adminFields, error) {
	var f adminFields
	if v, ok := vals["role"].(string); ok {
		f.Role = &v
	}
	f.Banned, _ = vals["banned"].(bool)
	if v, ok := vals["banReason"].(string); ok {
		f.BanReason = &v
	}
	if v, ok := vals["banExpires"].(string); ok {
		t, err := parseTime(v)
		if err != nil {
			return f, fmt.Errorf("admin: banExpires: %w", err)
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
