package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Plugins' columns come back with the session and its user in one query, as nil, strings,
// bools and RFC 3339 times on both databases, and by id for rows read without a session.
func TestCarriedColumns(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		boolType, timeType := "integer", "date"
		if s.Postgres() {
			boolType, timeType = "boolean", "timestamptz"
		}
		for _, q := range []string{`alter table "user" add column "nick" text`, `alter table "user" add column "vip" ` + boolType,
			`alter table "user" add column "until" ` + timeType, `alter table "session" add column "flag" text`} {
			if _, err := s.DB().ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		s.CarryUserColumns(store.Carried{Name: "nick"}, store.Carried{Name: "vip", Kind: store.CarriedBool}, store.Carried{Name: "until", Kind: store.CarriedTime})
		s.CarrySessionColumns(store.Carried{Name: "flag"})
		now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		for _, id := range []string{"u1", "u2"} {
			if err := s.CreateUser(ctx, &store.User{ID: id, Name: id, Email: id + "@example.com", CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
			if err := s.CreateSession(ctx, &store.Session{ID: "s-" + id, Token: "tok-" + id, UserID: id, ExpiresAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
		}
		vip := any(1)
		if s.Postgres() {
			vip = true
		}
		if _, err := s.DB().ExecContext(ctx, s.Rebind(`update "user" set "nick" = ?, "vip" = ?, "until" = ? where "id" = 'u1'`), "Nicky", vip, s.Time(now)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DB().ExecContext(ctx, `update "session" set "flag" = 'on' where "id" = 's-u1'`); err != nil {
			t.Fatal(err)
		}
		want := map[string]map[string]any{
			"u1": {"nick": "Nicky", "vip": true, "until": "2026-11-25T10:00:00Z"},
			"u2": {"nick": nil, "vip": nil, "until": nil},
		}
		wantSession := map[string]map[string]any{"u1": {"flag": "on"}, "u2": {"flag": nil}}
		for _, id := range []string{"u1", "u2"} {
			sess, u, err := s.SessionAndUser(ctx, "tok-"+id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(u.Extra, want[id]) || !reflect.DeepEqual(sess.Extra, wantSession[id]) {
				t.Errorf("%s with its session: user %#v session %#v", id, u.Extra, sess.Extra)
			}
			byID, err := s.CarriedValues(ctx, "user", id)
			if err != nil || !reflect.DeepEqual(byID, want[id]) {
				t.Errorf("%s by id: %#v %v", id, byID, err)
			}
			sessByID, err := s.CarriedValues(ctx, "session", "s-"+id)
			if err != nil || !reflect.DeepEqual(sessByID, wantSession[id]) {
				t.Errorf("session of %s by id: %#v %v", id, sessByID, err)
			}
		}
		if _, err := s.CarriedValues(ctx, "user", "nobody"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a missing user: %v", err)
		}
	})
}
