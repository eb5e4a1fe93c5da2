package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// nickname is a plugin written only against the exported seam: its own migration, a route under
// /api/auth, a user field in every session answer, and a hook on user creation.
type nickname struct{ created []string }

func (*nickname) ID() string { return "nickname" }

func (p *nickname) Register(s *auth.Service) error {
	if err := s.Store().Migrate(context.Background(), "nickname", os.DirFS("testdata/plugin")); err != nil {
		return err
	}
	s.Handle("POST /nickname/set", func(w http.ResponseWriter, r *http.Request) {
		cur, ok := s.RequireSensitive(w, r)
		if !ok {
			return
		}
		var b struct {
			Nickname *string `json:"nickname"`
		}
		if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("nickname", b.Nickname) }) {
			return
		}
		if _, err := s.Store().DB().ExecContext(r.Context(), s.Store().Rebind(`update "user" set "nickname" = ? where "id" = ?`), *b.Nickname, cur.User.ID); err != nil {
			auth.WriteError(w, r, err)
			return
		}
		auth.WriteStatus(w)
	})
	s.AddUserFields([]store.Carried{{Name: "nickname"}}, func(vals map[string]any) (map[string]any, error) {
		return map[string]any{"nickname": vals["nickname"]}, nil
	})
	s.OnUserCreated(func(_ context.Context, u *store.User) error {
		p.created = append(p.created, u.Email)
		return nil
	})
	return nil
}

func TestPluginSeam(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		ts := httptest.NewUnstartedServer(nil)
		base := "http://" + ts.Listener.Addr().String()
		cfg, err := config.Load(func(k string) (string, bool) {
			v, ok := map[string]string{"BASE_URL": base, "DATA_DIR": t.TempDir()}[k]
			return v, ok
		})
		if err != nil {
			t.Fatal(err)
		}
		svc := auth.New(cfg, st, &mail.Outbox{}, nil, testkit.Secret)
		p := &nickname{}
		if err := svc.Use(p); err != nil {
			t.Fatal(err)
		}
		ts.Config.Handler = svc.Handler()
		ts.Start()
		t.Cleanup(ts.Close)
		c := (&testkit.App{URL: base}).Client(t)
		if res := c.Do("POST", "/api/auth/sign-up/email", map[string]any{"email": "nick@example.com", "password": "password123", "name": "Nick"}); res.Status != 200 {
			t.Fatalf("sign-up: %d %s", res.Status, res.Body)
		}
		if len(p.created) != 1 || p.created[0] != "nick@example.com" {
			t.Errorf("user-created hook saw %v", p.created)
		}
		if res := c.Do("POST", "/api/auth/nickname/set", map[string]any{}); res.Status != 400 || !strings.Contains(string(res.Body), "[body.nickname]") {
			t.Errorf("plugin route validation: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/auth/nickname/set", map[string]any{"nickname": "nicky"}); res.Status != 200 {
			t.Fatalf("plugin route: %d %s", res.Status, res.Body)
		}
		// The database path carries the field, and so does the session-data cookie it writes.
		for _, q := range []string{"?disableCookieCache=true", ""} {
			res := c.Do("GET", "/api/auth/get-session"+q, nil)
			if !strings.Contains(string(res.Body), `"nickname":"nicky"`) {
				t.Errorf("get-session%s lacks the plugin field: %s", q, res.Body)
			}
		}
		if svc.Plugins()[0] != "nickname" {
			t.Errorf("plugins: %v", svc.Plugins())
		}
		// Migrations ran once and are recorded apart from the core's: running again is a no-op.
		if err := st.Migrate(context.Background(), "nickname", os.DirFS("testdata/plugin")); err != nil {
			t.Errorf("second migrate: %v", err)
		}
	})
}
