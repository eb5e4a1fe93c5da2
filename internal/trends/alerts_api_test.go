package trends_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestAlertSettingsNeedASessionAndValidInput(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "seller@example.com", "password123")
		got := c.Do("GET", "/api/alerts/settings", nil).JSON(t)
		if got["frequency"] != "import" || got["threshold"] != float64(20) || got["email"] != "seller@example.com" {
			t.Errorf("defaults: %v", got)
		}
		if res := c.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "weekly", "threshold": 50}); res.Status != 200 || res.JSON(t)["frequency"] != "weekly" {
			t.Fatalf("put: %d %s", res.Status, res.Body)
		}
		if got := c.Do("GET", "/api/alerts/settings", nil).JSON(t); got["frequency"] != "weekly" || got["threshold"] != float64(50) {
			t.Errorf("after put: %v", got)
		}
		for _, body := range []any{
			map[string]any{"frequency": "daily", "threshold": 20},
			map[string]any{"frequency": "off"},
			map[string]any{"threshold": 20},
			map[string]any{"frequency": "import", "threshold": 0},
			map[string]any{"frequency": "import", "threshold": 501},
			map[string]any{"frequency": "import", "threshold": 12.5},
			map[string]any{"frequency": "import", "threshold": "20"},
			"[1, 2]",
			"{not json",
		} {
			res := c.Do("PUT", "/api/alerts/settings", body)
			if res.Status != http.StatusBadRequest || res.JSON(t)["message"] == "" {
				t.Errorf("PUT %v: %d %s, want a 400 naming the problem", body, res.Status, res.Body)
			}
		}
		// A cross-site PUT with the session cookie is refused; nothing changed.
		if res := c.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "off", "threshold": 20}, "Origin", "https://evil.example"); res.Status != http.StatusForbidden {
			t.Errorf("cross-site PUT: %d %s", res.Status, res.Body)
		}
		if got := c.Do("GET", "/api/alerts/settings", nil).JSON(t); got["frequency"] != "weekly" || got["threshold"] != float64(50) {
			t.Errorf("after refused requests: %v", got)
		}
		anon := app.Client(t)
		for _, m := range []string{"GET", "PUT"} {
			if res := anon.Do(m, "/api/alerts/settings", map[string]any{"frequency": "off", "threshold": 20}); res.Status != http.StatusUnauthorized {
				t.Errorf("%s without a session: %d", m, res.Status)
			}
		}
	})
}

func TestImportMailsADigestWithAWorkingUnsubscribeLink(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		other := app.SignUp(t, "other@example.com", "password123")
		app.Inbox.WaitLink(t, "other@example.com", "verify-email") // out of the inbox: only digests are left
		otherWS := personal(t, other)
		if res := other.Do("POST", "/api/workspaces/"+otherWS+"/watchlist", map[string]any{"kind": "term", "value": "yoga mat"}); res.Status != 201 {
			t.Fatalf("watch: %d %s", res.Status, res.Body)
		}
		c := app.SignUp(t, "seller@example.com", "password123")
		app.Inbox.WaitLink(t, "seller@example.com", "verify-email")
		ws := personal(t, c)
		if res := c.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "import", "threshold": 10}); res.Status != 200 {
			t.Fatalf("settings: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/workspaces/"+ws+"/watchlist", map[string]any{"kind": "term", "value": "yoga mat"}); res.Status != 201 {
			t.Fatalf("watch: %d %s", res.Status, res.Body)
		}
		ds := importSeries(t, c, app, ws) // two weeks; the second job's end sends the digest

		m := app.Inbox.Wait(t, "seller@example.com").Parse(t)
		link := app.URL + "/dashboard/term?" + url.Values{"ds": {ds}, "t": {"yoga mat"}, "ws": {ws}}.Encode()
		// 148 → 125 is a 15.5% move, beyond the 10% chosen above; (148/125)^0.85 = 1.154.
		for _, line := range []string{"- yoga mat: rank 148 → 125, +15% estimated searches (an estimate)\n  " + link + "\n", "Rank moves of 10% or more\n"} {
			if !strings.Contains(m.Text, line) {
				t.Errorf("digest lacks %q:\n%s", line, m.Text)
			}
		}
		if !strings.HasPrefix(m.Subject, "Your watchlist: ") || !strings.HasSuffix(m.Subject, " in Apr 12 – 18, 2026") {
			t.Errorf("subject %q", m.Subject)
		}
		if n := app.Inbox.Count("other@example.com"); n != 0 {
			t.Errorf("a user of another workspace got %d digests", n)
		}

		unsub := strings.TrimSuffix(strings.TrimPrefix(m.Header.Get("List-Unsubscribe"), "<"+app.URL), ">")
		if !strings.HasPrefix(unsub, "/api/alerts/unsubscribe?") || !strings.Contains(m.Text, "Unsubscribe: "+app.URL+unsub+"\n") {
			t.Fatalf("List-Unsubscribe %q, text:\n%s", m.Header.Get("List-Unsubscribe"), m.Text)
		}
		anon := app.Client(t) // the link works without a session
		page := anon.Do("GET", unsub, nil)
		if page.Status != 200 || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(string(page.Body), "Stop alert emails?") || !strings.Contains(string(page.Body), "seller@example.com") ||
			!strings.Contains(string(page.Body), `<form method="post"`) {
			t.Fatalf("GET unsubscribe: %d %s", page.Status, page.Body)
		}
		if got := c.Do("GET", "/api/alerts/settings", nil).JSON(t); got["frequency"] != "import" {
			t.Fatalf("opening the link (as a mail scanner does) unsubscribed: %v", got)
		}

		// Tampered links change nothing: another user's id with this token, a changed token.
		q, _ := url.ParseQuery(strings.TrimPrefix(unsub, "/api/alerts/unsubscribe?"))
		otherID := strings.TrimPrefix(otherWS, "personal-")
		for _, bad := range []url.Values{{"u": {otherID}, "t": q["t"]}, {"u": q["u"], "t": {tamper(q.Get("t"))}}, {"u": q["u"]}} {
			for _, method := range []string{"GET", "POST"} {
				if res := anon.Do(method, "/api/alerts/unsubscribe?"+bad.Encode(), "List-Unsubscribe=One-Click"); res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), "not valid") {
					t.Errorf("%s tampered link %v: %d %s", method, bad, res.Status, res.Body)
				}
			}
		}
		if got := other.Do("GET", "/api/alerts/settings", nil).JSON(t); got["frequency"] != "import" {
			t.Errorf("a tampered link unsubscribed another user: %v", got)
		}

		// RFC 8058: the mail provider POSTs List-Unsubscribe=One-Click, with no cookie and no Origin.
		res := anon.Do("POST", unsub, "List-Unsubscribe=One-Click", "Content-Type", "application/x-www-form-urlencoded", "Origin", "")
		if res.Status != 200 || !strings.Contains(string(res.Body), "Unsubscribed") {
			t.Fatalf("one-click POST: %d %s", res.Status, res.Body)
		}
		if got := c.Do("GET", "/api/alerts/settings", nil).JSON(t); got["frequency"] != "off" || got["threshold"] != float64(10) {
			t.Errorf("after unsubscribing: %v", got)
		}
	})
}

// tamper changes a token's first character (to another one, whatever it was).
func tamper(token string) string {
	if strings.HasPrefix(token, "x") {
		return "y" + token[1:]
	}
	return "x" + token[1:]
}
