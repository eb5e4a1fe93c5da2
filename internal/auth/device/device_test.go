package device_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

const grant = "urn:ietf:params:oauth:grant-type:device_code"

// clock is a settable clock for the auth service.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func newClock(app *testkit.App) *clock {
	c := &clock{t: time.Now().UTC()}
	app.Auth.SetClock(c.now)
	return c
}

func requestCode(t *testing.T, c *testkit.Client, body any) map[string]any {
	t.Helper()
	res := c.Do("POST", "/api/auth/device/code", body)
	if res.Status != http.StatusOK || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("device/code: %d %s %v", res.Status, res.Body, res.Header)
	}
	return res.JSON(t)
}

func poll(c *testkit.Client, deviceCode, clientID string) testkit.Response {
	return c.Do("POST", "/api/auth/device/token", map[string]any{"grant_type": grant, "device_code": deviceCode, "client_id": clientID})
}

func wantOAuth(t *testing.T, what string, res testkit.Response, status int, code, description string) {
	t.Helper()
	m := res.JSON(t)
	if res.Status != status || m["error"] != code || (description != "" && m["error_description"] != description) {
		t.Errorf("%s: %d %s, want %d %s %q", what, res.Status, res.Body, status, code, description)
	}
}

// The whole flow: a code, pending polls (slow_down when too early), the user opens the link
// (case and dashes do not matter), sees the client and approves; the next poll answers a
// session token that works as a bearer token, once.
func TestDeviceFlowApproved(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		clk := newClock(app)
		device := app.Client(t)
		dc := requestCode(t, device, map[string]any{"client_id": "sellertrends-cli", "scope": "openid profile"})
		deviceCode, userCode := dc["device_code"].(string), dc["user_code"].(string)
		if !regexp.MustCompile(`^[A-Za-z0-9]{40}$`).MatchString(deviceCode) || !regexp.MustCompile(`^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$`).MatchString(userCode) {
			t.Errorf("codes %q / %q", deviceCode, userCode)
		}
		if dc["verification_uri"] != app.URL+"/device" || dc["verification_uri_complete"] != app.URL+"/device?user_code="+userCode ||
			dc["expires_in"] != float64(1800) || dc["interval"] != float64(5) {
			t.Errorf("device/code answer: %v", dc)
		}
		wantOAuth(t, "first poll", poll(device, deviceCode, "sellertrends-cli"), 400, "authorization_pending", "Authorization pending")
		clk.add(time.Second)
		wantOAuth(t, "early poll", poll(device, deviceCode, "sellertrends-cli"), 400, "slow_down", "Polling too frequently")
		clk.add(5 * time.Second)
		wantOAuth(t, "poll after the interval", poll(device, deviceCode, "sellertrends-cli"), 400, "authorization_pending", "")

		typed := strings.ToLower(userCode[:4] + "-" + userCode[4:])
		anon := app.Client(t).Do("GET", "/api/auth/device?user_code="+typed, nil).JSON(t)
		if anon["status"] != "pending" || anon["client_id"] != nil || anon["user_code"] != typed {
			t.Errorf("anonymous GET /device shows %v", anon)
		}
		user := app.SignUp(t, "cli@example.com", "password123")
		wantOAuth(t, "approve before opening", user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": userCode}), 400, "invalid_request",
			"Device code has not been claimed by a verifying session; call `GET /device` with the `user_code` while signed in before approving or denying")
		seen := user.Do("GET", "/api/auth/device?user_code="+typed, nil).JSON(t)
		if seen["status"] != "pending" || seen["client_id"] != "sellertrends-cli" || seen["scope"] != "openid profile" {
			t.Errorf("signed-in GET /device shows %v", seen)
		}
		intruder := app.SignUp(t, "other@example.com", "password123")
		if got := intruder.Do("GET", "/api/auth/device?user_code="+userCode, nil).JSON(t); got["client_id"] != nil {
			t.Errorf("another user sees the request: %v", got)
		}
		wantOAuth(t, "another user approves", intruder.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": userCode}), 403, "access_denied",
			"You are not authorized to approve this device authorization")
		if res := user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": typed}); res.Status != 200 || res.JSON(t)["success"] != true {
			t.Fatalf("approve: %d %s", res.Status, res.Body)
		}
		wantOAuth(t, "approve twice", user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": userCode}), 400, "invalid_request", "Device code already processed")
		wantOAuth(t, "deny after approval", user.Do("POST", "/api/auth/device/deny", map[string]any{"userCode": userCode}), 400, "invalid_request", "Device code already processed")

		wantOAuth(t, "another client", func() testkit.Response { clk.add(6 * time.Second); return poll(device, deviceCode, "other-client") }(), 400, "invalid_grant", "Client ID mismatch")
		res := poll(device, deviceCode, "sellertrends-cli")
		tok := res.JSON(t)
		if res.Status != 200 || tok["token_type"] != "Bearer" || tok["scope"] != "openid profile" || tok["expires_in"].(float64) < 604000 || res.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("token: %d %s", res.Status, res.Body)
		}
		bearer := "Bearer " + tok["access_token"].(string)
		if got := app.Client(t).Do("GET", "/api/auth/get-session", nil, "Authorization", bearer); !strings.Contains(string(got.Body), "cli@example.com") {
			t.Errorf("the access token is not the user's session: %s", got.Body)
		}
		if got := app.Client(t).Do("GET", "/api/workspaces", nil, "Authorization", bearer); got.Status != 200 {
			t.Errorf("bearer on the product API: %d", got.Status)
		}
		clk.add(6 * time.Second)
		wantOAuth(t, "poll after the token", poll(device, deviceCode, "sellertrends-cli"), 400, "invalid_grant", "Invalid device code")
	})
}

// Denied codes answer access_denied once, then invalid_grant; expired codes answer
// expired_token to the device and to the person.
func TestDeviceDeniedAndExpired(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		clk := newClock(app)
		device := app.Client(t)
		user := app.SignUp(t, "cli@example.com", "password123")

		dc := requestCode(t, device, map[string]any{"client_id": "cli"})
		user.Do("GET", "/api/auth/device?user_code="+dc["user_code"].(string), nil)
		if res := user.Do("POST", "/api/auth/device/deny", map[string]any{"userCode": dc["user_code"]}); res.Status != 200 {
			t.Fatalf("deny: %d %s", res.Status, res.Body)
		}
		wantOAuth(t, "denied", poll(device, dc["device_code"].(string), "cli"), 400, "access_denied", "Access denied")
		clk.add(6 * time.Second)
		wantOAuth(t, "after denial", poll(device, dc["device_code"].(string), "cli"), 400, "invalid_grant", "Invalid device code")

		dc = requestCode(t, device, map[string]any{"client_id": "cli"})
		code := dc["user_code"].(string)
		user.Do("GET", "/api/auth/device?user_code="+code, nil)
		clk.add(31 * time.Minute)
		wantOAuth(t, "GET expired", user.Do("GET", "/api/auth/device?user_code="+code, nil), 400, "expired_token", "User code has expired")
		wantOAuth(t, "approve expired", user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": code}), 400, "expired_token", "User code has expired")
		wantOAuth(t, "poll expired", poll(device, dc["device_code"].(string), "cli"), 400, "expired_token", "Device code has expired")
		clk.add(6 * time.Second)
		wantOAuth(t, "poll expired again", poll(device, dc["device_code"].(string), "cli"), 400, "invalid_grant", "Invalid device code")
	})
}

// Bad requests get the plugin's 400s and 401s, never a 500; the form encoding of RFC 8628 works.
func TestDeviceBadRequests(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.Client(t)
		wantOAuth(t, "no client_id", c.Do("POST", "/api/auth/device/code", map[string]any{}), 400, "invalid_request",
			"[body.client_id] Invalid input: expected string, received undefined")
		wantOAuth(t, "empty client_id", c.Do("POST", "/api/auth/device/code", map[string]any{"client_id": ""}), 400, "invalid_request", "client_id is required")
		wantOAuth(t, "numeric client_id", c.Do("POST", "/api/auth/device/code", map[string]any{"client_id": 5}), 400, "invalid_request", "")
		wantOAuth(t, "huge client_id", c.Do("POST", "/api/auth/device/code", map[string]any{"client_id": strings.Repeat("x", 5000)}), 400, "invalid_request", "")
		form := "application/x-www-form-urlencoded"
		wantOAuth(t, "repeated", c.Do("POST", "/api/auth/device/code", "client_id=a&client_id=b", "Content-Type", form), 400, "invalid_request", "client_id must not be repeated")
		res := c.Do("POST", "/api/auth/device/code", "client_id=cli&scope=x", "Content-Type", form)
		if res.Status != 200 {
			t.Fatalf("form device/code: %d %s", res.Status, res.Body)
		}
		dc := res.JSON(t)
		res = c.Do("POST", "/api/auth/device/token", "grant_type="+grant+"&device_code="+dc["device_code"].(string)+"&client_id=cli", "Content-Type", form)
		wantOAuth(t, "form token", res, 400, "authorization_pending", "")

		for name, body := range map[string]any{"wrong grant": map[string]any{"grant_type": "password", "device_code": "x", "client_id": "cli"}, "empty": map[string]any{}} {
			res := c.Do("POST", "/api/auth/device/token", body)
			if res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" {
				t.Errorf("token %s: %d %s", name, res.Status, res.Body)
			}
		}
		wantOAuth(t, "unknown device code", poll(c, "nope", "cli"), 400, "invalid_grant", "Invalid device code")
		wantOAuth(t, "unknown user code", c.Do("GET", "/api/auth/device?user_code=ZZZZZZZZ", nil), 400, "invalid_request", "Invalid user code")
		if res := c.Do("GET", "/api/auth/device", nil); res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" {
			t.Errorf("GET /device without a code: %d %s", res.Status, res.Body)
		}
		wantOAuth(t, "approve signed out", c.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": dc["user_code"]}), 401, "unauthorized", "Authentication required")
		wantOAuth(t, "deny signed out", c.Do("POST", "/api/auth/device/deny", map[string]any{"userCode": dc["user_code"]}), 401, "unauthorized", "Authentication required")
		user := app.SignUp(t, "u@example.com", "password123")
		wantOAuth(t, "approve unknown", user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": "nope"}), 400, "invalid_request", "Invalid user code")
		if res := user.Do("POST", "/api/auth/device/approve", map[string]any{}); res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" {
			t.Errorf("approve without a code: %d %s", res.Status, res.Body)
		}
	})
}

// Codes come from crypto/rand: distinct, of the configured lengths, readable; the lifetime
// and interval follow AUTH_DEVICE_CODE_EXPIRES_IN and AUTH_DEVICE_INTERVAL.
func TestDeviceCodeSettings(t *testing.T) {
	st := testkit.SQLite(t)
	app := testkit.Server(t, st, map[string]string{"AUTH_DEVICE_CODE_EXPIRES_IN": "10m", "AUTH_DEVICE_INTERVAL": "2s",
		"AUTH_DEVICE_CODE_LENGTH": "64", "AUTH_DEVICE_USER_CODE_LENGTH": "10"})
	c := app.Client(t)
	seen := map[string]bool{}
	for range 50 {
		dc := requestCode(t, c, map[string]any{"client_id": "cli"})
		d, u := dc["device_code"].(string), dc["user_code"].(string)
		if len(d) != 64 || len(u) != 10 || strings.ContainsAny(u, "01IO") || seen[d] || seen[u] {
			t.Fatalf("codes %q %q (seen before: %v)", d, u, seen[d] || seen[u])
		}
		seen[d], seen[u] = true, true
		if dc["expires_in"] != float64(600) || dc["interval"] != float64(2) {
			t.Fatalf("expires_in/interval: %v", dc)
		}
	}
}

// A banned user's approval gives the device nothing: the session is refused with BANNED_USER.
func TestDeviceBannedUser(t *testing.T) {
	st := testkit.SQLite(t)
	app := testkit.Server(t, st, nil)
	user := app.SignUp(t, "u@example.com", "password123")
	dc := requestCode(t, app.Client(t), map[string]any{"client_id": "cli"})
	user.Do("GET", "/api/auth/device?user_code="+dc["user_code"].(string), nil)
	user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": dc["user_code"]})
	if _, err := st.DB().Exec(`update "user" set "banned" = 1 where "email" = 'u@example.com'`); err != nil {
		t.Fatal(err)
	}
	res := poll(app.Client(t), dc["device_code"].(string), "cli")
	if res.Status != 403 || res.JSON(t)["code"] != "BANNED_USER" {
		t.Errorf("banned user's device got %d %s", res.Status, res.Body)
	}
}

// GET /device is limited as Better Auth limits it (5 per code lifetime and address): user codes
// are short, so guessing them must be slow.
func TestDeviceVerifyRateLimit(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_RATE_LIMIT_ENABLED": "true", "AUTH_RATE_LIMIT_STORAGE": "memory"})
	c := app.Client(t)
	for i := range 5 {
		if res := c.Do("GET", "/api/auth/device?user_code=ABCDEFGH", nil); res.Status != 400 {
			t.Fatalf("guess %d: %d %s", i, res.Status, res.Body)
		}
	}
	if res := c.Do("GET", "/api/auth/device?user_code=ABCDEFGH", nil); res.Status != http.StatusTooManyRequests {
		t.Errorf("sixth guess: %d %s", res.Status, res.Body)
	}
}

// A deviceCode table Better Auth created (with its rows) is adopted as is.
func TestDeviceAdoptsBetterAuthTable(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		ddl := `create table "deviceCode" ("id" text not null primary key, "deviceCode" text not null, "userCode" text not null, "userId" text, "expiresAt" date not null, "status" text not null, "lastPolledAt" date, "pollingInterval" integer, "clientId" text, "scope" text)`
		exp := any("2999-01-01T00:00:00.000Z")
		if st.Postgres() {
			ddl = strings.ReplaceAll(ddl, " date", " timestamptz")
			exp = time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		if _, err := st.DB().Exec(ddl); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DB().Exec(st.Rebind(`insert into "deviceCode" values ('id1', 'devcode', 'WXYZ2345', null, ?, 'pending', null, 5000, 'cli', null)`), exp); err != nil {
			t.Fatal(err)
		}
		app := testkit.Server(t, st, nil)
		wantOAuth(t, "adopted code", poll(app.Client(t), "devcode", "cli"), 400, "authorization_pending", "")
		if got := app.Client(t).Do("GET", "/api/auth/device?user_code=wxyz-2345", nil).JSON(t); got["status"] != "pending" {
			t.Errorf("adopted user code: %v", got)
		}
	})
}
