package social_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// callbackTo runs a callback request and returns where it redirected.
func callbackTo(t *testing.T, c *testkit.Client, path string) string {
	t.Helper()
	res := c.Do("GET", path, nil)
	if res.Status != http.StatusFound {
		t.Fatalf("%s: %d %s", path, res.Status, res.Body)
	}
	return res.Header.Get("Location")
}

// begin starts a sign-in (or, with link, a link-social) and returns the state and the callback
// path the stand-in would send the browser to.
func begin(t *testing.T, app *testkit.App, c *testkit.Client, provider, path string) (state, cb string) {
	t.Helper()
	u := start(t, c, path, map[string]any{"provider": provider, "callbackURL": "/dashboard", "errorCallbackURL": "/sign-in?from=oauth"})
	pu, _ := url.Parse(u)
	cb = authorize(t, app, u)
	return pu.Query().Get("state"), cb
}

// Every callback error code of spec §8 is reached and sent to the error URL (the default
// {base}/api/auth/error before the state is known, the errorCallbackURL after; a state cookie of
// another browser is refused to the errorCallbackURL too, as Better Auth does).
func TestCallbackErrorCodes(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app, d := server(t, st, map[string]string{"AUTH_TRUSTED_PROVIDERS": ""})
		profiles(d)
		const errURL = "/sign-in?from=oauth&error="
		check := func(name, got, want string) {
			t.Helper()
			if got != want {
				t.Errorf("%s: redirected to %q, want %q", name, got, want)
			}
		}
		c := app.Client(t)
		check("duplicate state", callbackTo(t, c, "/api/auth/callback/github?state=a&state=b"), app.URL+"/api/auth/error?error=invalid_callback_request")
		check("no state", callbackTo(t, c, "/api/auth/callback/github?code=x"), app.URL+"/api/auth/error?error=state_not_found")
		check("unknown state", callbackTo(t, c, "/api/auth/callback/github?code=x&state=nope"), app.URL+"/api/auth/error?error=please_restart_the_process")

		_, cb := begin(t, app, c, "github", "sign-in/social")
		check("other browser", callbackTo(t, app.Client(t), cb), errURL+"state_mismatch")

		state, _ := begin(t, app, c, "github", "sign-in/social")
		check("provider error", callbackTo(t, c, "/api/auth/callback/github?state="+state+"&error=access_denied&error_description=The+user+said+no"),
			errURL+"access_denied&error_description=The+user+said+no")
		check("state used once", callbackTo(t, c, "/api/auth/callback/github?state="+state+"&code=x"), app.URL+"/api/auth/error?error=please_restart_the_process")

		state, _ = begin(t, app, c, "github", "sign-in/social")
		check("no code", callbackTo(t, c, "/api/auth/callback/github?state="+state), errURL+"no_code")
		state, _ = begin(t, app, c, "github", "sign-in/social")
		check("unknown provider", callbackTo(t, c, "/api/auth/callback/myspace?code=x&state="+state), errURL+"oauth_provider_not_found")
		state, _ = begin(t, app, c, "github", "sign-in/social")
		check("bad code", callbackTo(t, c, "/api/auth/callback/github?code=forged&state="+state), errURL+"invalid_code")

		_, cb = begin(t, app, c, "gitlab", "sign-in/social")
		d.failUser = true
		check("user info down", callbackTo(t, c, cb), errURL+"unable_to_get_user_info")
		d.failUser = false
		d.profiles["gitlab"]["state"] = "blocked"
		_, cb = begin(t, app, c, "gitlab", "sign-in/social")
		check("blocked gitlab user", callbackTo(t, c, cb), errURL+"unable_to_get_user_info")
		d.profiles["gitlab"]["state"] = "active"

		d.profiles["gitlab"]["email"] = ""
		_, cb = begin(t, app, c, "gitlab", "sign-in/social")
		check("no email", callbackTo(t, c, cb), errURL+"email_not_found")
		d.profiles["gitlab"]["email"] = "gitty@example.com"

		// A state record without a callback URL (as another server could write it).
		forgeState(t, app, c, "st8-no-callback", `{"callbackURL":"","codeVerifier":"`+strings.Repeat("v", 128)+`","errorURL":"/oops","expiresAt":`+ms(time.Now().Add(time.Minute))+`}`)
		_, cb = begin(t, app, app.Client(t), "discord", "sign-in/social") // discord takes no PKCE: the forged verifier is not checked
		code := strings.Split(strings.Split(cb, "code=")[1], "&")[0]
		check("no callback URL", callbackTo(t, c, "/api/auth/callback/discord?code="+code+"&state=st8-no-callback"), "/oops?error=no_callback_url")

		// An existing email/password user and a provider saying the email is not verified.
		app.SignUp(t, "gitty@example.com", "password123")
		d.profiles["gitlab"]["email_verified"] = false
		_, cb = begin(t, app, c, "gitlab", "sign-in/social")
		check("unverified email on existing user", callbackTo(t, c, cb), errURL+"account_not_linked")

		// Link flows: the signed-in user is signed up with link@example.com.
		linker := app.SignUp(t, "link@example.com", "password123")
		_, cb = begin(t, app, linker, "gitlab", "link-social")
		check("link unverified", callbackTo(t, linker, cb), errURL+"unable_to_link_account")
		d.profiles["gitlab"]["email_verified"] = true
		_, cb = begin(t, app, linker, "gitlab", "link-social")
		check("link other email", callbackTo(t, linker, cb), errURL+"email_doesn't_match")
		// github's account 5830215 belongs to octo@example.com once they sign in.
		if to := login(t, app, app.Client(t), "github"); to != "/welcome" {
			t.Fatalf("github sign-in: %q", to)
		}
		d.emails = append(d.emails, map[string]any{"email": "link@example.com", "primary": false, "verified": true})
		d.profiles["github"]["email"] = "link@example.com"
		_, cb = begin(t, app, linker, "github", "link-social")
		check("link taken account", callbackTo(t, linker, cb), errURL+"account_already_linked_to_different_user")

		// A refused session (a banned user, as the admin plugin refuses them).
		app.Auth.BeforeSession(func(_ context.Context, u *store.User) error {
			if u.Email == "nelly@example.com" {
				return errors.New("banned")
			}
			return nil
		})
		_, cb = begin(t, app, c, "discord", "sign-in/social")
		check("session refused", callbackTo(t, c, cb), errURL+"unable_to_create_session")
	})
}

// Sign-up can be switched off: an unknown user gets signup_disabled, unless the implicit-only
// switch is on and the client asked for sign-up.
func TestSignUpDisabled(t *testing.T) {
	st := testkit.SQLite(t)
	app, d := server(t, st, map[string]string{"AUTH_SOCIAL_DISABLE_SIGN_UP": "true"})
	profiles(d)
	c := app.Client(t)
	_, cb := begin(t, app, c, "google", "sign-in/social")
	if to := callbackTo(t, c, cb); to != "/sign-in?from=oauth&error=signup_disabled" {
		t.Errorf("sign-up disabled: %q", to)
	}
	if _, err := st.UserByEmail(context.Background(), "gina@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("user created anyway: %v", err)
	}

	app2, d2 := server(t, testkit.SQLite(t), map[string]string{"AUTH_SOCIAL_DISABLE_IMPLICIT_SIGN_UP": "true"})
	profiles(d2)
	c2 := app2.Client(t)
	_, cb = begin(t, app2, c2, "google", "sign-in/social")
	if to := callbackTo(t, c2, cb); !strings.HasSuffix(to, "error=signup_disabled") {
		t.Errorf("implicit sign-up: %q", to)
	}
	u := start(t, c2, "sign-in/social", map[string]any{"provider": "google", "callbackURL": "/dashboard", "requestSignUp": true})
	if to := callbackTo(t, c2, authorize(t, app2, u)); to != "/dashboard" {
		t.Errorf("requested sign-up: %q", to)
	}
}

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// forgeState stores a state record and the matching signed cookie, as Better Auth would.
func forgeState(t *testing.T, app *testkit.App, c *testkit.Client, state, value string) {
	t.Helper()
	now := time.Now()
	err := app.Store.CreateVerification(context.Background(), &store.Verification{ID: state, Identifier: state, Value: value,
		ExpiresAt: now.Add(time.Minute), CreatedAt: now, UpdatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, []byte(testkit.Secret))
	mac.Write([]byte(state))
	u, _ := url.Parse(app.URL)
	c.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: "better-auth.state", Value: url.QueryEscape(state + "." + base64.StdEncoding.EncodeToString(mac.Sum(nil))), Path: "/"}})
}

// A form_post provider POSTs the callback: it is answered with a redirect to the GET callback
// carrying the posted fields (the query wins), which then finishes the flow as usual.
func TestCallbackFormPost(t *testing.T) {
	st := testkit.SQLite(t)
	app, d := server(t, st, nil)
	profiles(d)
	c := app.Client(t)
	_, cb := begin(t, app, c, "gitlab", "sign-in/social")
	q, _ := url.ParseQuery(strings.SplitN(cb, "?", 2)[1])
	res := c.Do("POST", "/api/auth/callback/gitlab?device_id=dev1", "code="+q.Get("code")+"&state="+q.Get("state")+"&device_id=posted&junk=1",
		"Content-Type", "application/x-www-form-urlencoded", "Origin", "https://appleid.apple.com", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate")
	loc := res.Header.Get("Location")
	want := app.URL + "/api/auth/callback/gitlab?code=" + q.Get("code") + "&device_id=dev1&state=" + q.Get("state")
	if res.Status != http.StatusFound || loc != want {
		t.Fatalf("form post: %d %q, want %q", res.Status, loc, want)
	}
	if to := callbackTo(t, c, strings.TrimPrefix(loc, app.URL)); to != "/dashboard" {
		t.Errorf("after form post: %q", to)
	}
}

// The two database-failure codes: a user row the database refuses is unable_to_create_user; a
// failing account lookup is internal_server_error. SQLite triggers and a renamed table make the
// database fail on cue.
func TestCallbackDatabaseFailures(t *testing.T) {
	st := testkit.SQLite(t)
	app, d := server(t, st, nil)
	profiles(d)
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := st.DB().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	exec(`create trigger refuse_users before insert on "user" begin select raise(abort, 'refused'); end`)
	c := app.Client(t)
	_, cb := begin(t, app, c, "github", "sign-in/social")
	if to := callbackTo(t, c, cb); to != "/sign-in?from=oauth&error=unable_to_create_user" {
		t.Errorf("user insert refused: %q", to)
	}
	exec(`drop trigger refuse_users`)
	exec(`alter table "account" rename to "account_away"`)
	_, cb = begin(t, app, c, "github", "sign-in/social")
	to := callbackTo(t, c, cb)
	exec(`alter table "account_away" rename to "account"`)
	if to != "/sign-in?from=oauth&error=internal_server_error" {
		t.Errorf("account lookup failing: %q", to)
	}
}
