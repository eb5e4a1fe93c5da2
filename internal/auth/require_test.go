package auth_test

import (
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestFreshSessionRule(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_SESSION_FRESH_AGE": "60"})
	now := time.Now().UTC()
	app.Auth.SetClock(func() time.Time { return now })
	c := app.SignUp(t, "ann@example.com", "password123")
	now = now.Add(2 * time.Minute)
	if res := c.Do("GET", "/api/auth/list-sessions", nil); res.Status != 403 || res.JSON(t)["message"] != "Session is not fresh" {
		t.Errorf("stale session: %d %s", res.Status, res.Body)
	}
}
