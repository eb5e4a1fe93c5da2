package social_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/auth/social"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

var implemented = []string{"github", "google", "discord", "microsoft", "gitlab", "huggingface", "linkedin", "slack", "dropbox", "spotify"}

// env configures every implemented provider with "<id>-client" / "<id>-secret".
func env(extra map[string]string) map[string]string {
	m := map[string]string{}
	for _, id := range implemented {
		up := strings.ToUpper(id)
		m[up+"_CLIENT_ID"], m[up+"_CLIENT_SECRET"] = id+"-client", id+"-secret"
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// server starts the app with its providers pointed at a fresh stand-in.
func server(t *testing.T, st *store.Store, extra map[string]string) (*testkit.App, *idp) {
	d := newIDP(t)
	restore := social.PointAt(d.srv.URL)
	defer restore()
	return testkit.Server(t, st, env(extra)), d
}

// start posts to path (sign-in/social or link-social) and returns the authorization URL.
func start(t *testing.T, c *testkit.Client, path string, body map[string]any) string {
	t.Helper()
	res := c.Do("POST", "/api/auth/"+path, body)
	if res.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", path, res.Status, res.Body)
	}
	j := res.JSON(t)
	if j["redirect"] != true {
		t.Errorf("%s: redirect %v", path, j["redirect"])
	}
	return j["url"].(string)
}

// authorize follows the authorization URL at the stand-in and returns the callback path+query.
func authorize(t *testing.T, app *testkit.App, authURL string) string {
	t.Helper()
	nr := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := nr.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, app.URL+"/api/auth/callback/") {
		t.Fatalf("stand-in redirected to %q", loc)
	}
	return strings.TrimPrefix(loc, app.URL)
}

// login runs the whole code flow and returns where the callback sent the browser.
func login(t *testing.T, app *testkit.App, c *testkit.Client, provider string) string {
	t.Helper()
	u := start(t, c, "sign-in/social", map[string]any{"provider": provider, "callbackURL": "/dashboard",
		"newUserCallbackURL": "/welcome", "errorCallbackURL": "/sign-in"})
	res := c.Do("GET", authorize(t, app, u), nil)
	if res.Status != http.StatusFound {
		t.Fatalf("callback: %d %s", res.Status, res.Body)
	}
	return res.Header.Get("Location")
}

type want struct {
	email, name, image, accountID string
	verified                      bool
}

// profiles sets each provider's answer in its real shape and returns the user it must map to.
func profiles(d *idp) map[string]want {
	d.profiles["github"] = map[string]any{"id": 5830215, "login": "octocat", "name": nil, "email": nil,
		"avatar_url": "https://avatars.githubusercontent.com/u/5830215?v=4"}
	d.emails = []map[string]any{{"email": "old@example.com", "primary": false, "verified": false},
		{"email": "Octo@Example.com", "primary": true, "verified": true}}
	d.profiles["google:id_token"] = map[string]any{"iss": "https://accounts.google.com", "sub": "109876543210987654321", "aud": "google-client",
		"email": "gina@example.com", "email_verified": true, "name": "Gina Google", "picture": "https://lh3.googleusercontent.com/a/x"}
	d.profiles["discord"] = map[string]any{"id": "80351110224678912", "username": "nelly", "global_name": "Nelly",
		"discriminator": "0", "avatar": nil, "email": "nelly@example.com", "verified": true}
	d.profiles["microsoft:id_token"] = map[string]any{"sub": "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", "oid": "00000000-0000-0000-66f3-3332eca7ea81",
		"name": "Megan Bowen", "email": "megan@contoso.com", "preferred_username": "megan@contoso.com", "verified_primary_email": []string{"megan@contoso.com"}}
	d.photo = []byte("\x89PNG fake")
	d.profiles["gitlab"] = map[string]any{"id": 42, "username": "gitty", "name": "Git Lab", "email": "gitty@example.com",
		"avatar_url": "https://gitlab.com/uploads/-/avatar.png", "state": "active", "locked": false, "email_verified": true}
	d.profiles["huggingface"] = map[string]any{"sub": "6543a1b2c3", "name": "", "preferred_username": "hugger",
		"picture": "https://cdn-avatars.huggingface.co/x.png", "email": "hug@example.com", "email_verified": true}
	d.profiles["linkedin"] = map[string]any{"sub": "782bbtaQ", "name": "Lin Ked", "given_name": "Lin", "family_name": "Ked",
		"picture": "https://media.licdn.com/x.jpg", "email": "lin@example.com", "email_verified": true, "locale": "en-US"}
	d.profiles["slack"] = map[string]any{"ok": true, "sub": "U0R7JM", "https://slack.com/user_id": "U0R7JM", "https://slack.com/team_id": "T0R7GR",
		"email": "sla@example.com", "email_verified": true, "name": "Sla Ck", "picture": "",
		"https://slack.com/user_image_512": "https://secure.gravatar.com/512.png"}
	d.profiles["dropbox"] = map[string]any{"account_id": "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", "name": map[string]any{"given_name": "Franz",
		"surname": "Ferdinand", "display_name": "Franz Ferdinand (Personal)"}, "email": "franz@example.com", "email_verified": true,
		"profile_photo_url": "https://dl-web.dropbox.com/account_photo/get/x"}
	d.profiles["spotify"] = map[string]any{"id": "wizzler", "display_name": "JM Wizzler", "email": "wiz@example.com",
		"images": []map[string]any{{"url": "https://i.scdn.co/image/ab67", "height": 300, "width": 300}}}
	return map[string]want{
		"huggingface": {"hug@example.com", "hugger", "https://cdn-avatars.huggingface.co/x.png", "6543a1b2c3", true},
		"linkedin":    {"lin@example.com", "Lin Ked", "https://media.licdn.com/x.jpg", "782bbtaQ", true},
		"slack":       {"sla@example.com", "Sla Ck", "https://secure.gravatar.com/512.png", "U0R7JM", true},
		"dropbox":     {"franz@example.com", "Franz Ferdinand (Personal)", "https://dl-web.dropbox.com/account_photo/get/x", "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", true},
		"spotify":     {"wiz@example.com", "JM Wizzler", "https://i.scdn.co/image/ab67", "wizzler", false},
		"github":      {"octo@example.com", "octocat", "https://avatars.githubusercontent.com/u/5830215?v=4", "5830215", true},
		"google":      {"gina@example.com", "Gina Google", "https://lh3.googleusercontent.com/a/x", "109876543210987654321", true},
		"discord":     {"nelly@example.com", "Nelly", "https://cdn.discordapp.com/embed/avatars/5.png", "80351110224678912", true},
		"microsoft":   {"megan@contoso.com", "Megan Bowen", "data:image/jpeg;base64, " + base64.StdEncoding.EncodeToString(d.photo), "00000000-0000-0000-66f3-3332eca7ea81", true},
		"gitlab":      {"gitty@example.com", "Git Lab", "https://gitlab.com/uploads/-/avatar.png", "42", true},
	}
}

// Every implemented provider goes through the whole code flow against the stand-in: a new user
// lands on newUserCallbackURL with a session, the user and account are stored as mapped; a
// second sign-in lands on callbackURL with the same user.
func TestCodeFlowPerProvider(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app, d := server(t, st, nil)
		wants := profiles(d)
		for _, id := range implemented {
			t.Run(id, func(t *testing.T) {
				w := wants[id]
				c := app.Client(t)
				if to := login(t, app, c, id); to != "/welcome" {
					t.Fatalf("new user sent to %q", to)
				}
				got := c.Do("GET", "/api/auth/get-session", nil).JSON(t)["user"].(map[string]any)
				img, _ := got["image"].(string)
				if got["email"] != w.email || got["name"] != w.name || img != w.image || got["emailVerified"] != w.verified {
					t.Errorf("user %v, want %+v", got, w)
				}
				accs, err := st.AccountsByUser(context.Background(), got["id"].(string))
				if err != nil || len(accs) != 1 {
					t.Fatalf("accounts %v %v", accs, err)
				}
				a := accs[0]
				if a.ProviderID != id || a.AccountID != w.accountID || a.AccessToken == nil || *a.AccessToken != "at-"+id ||
					a.RefreshToken == nil || *a.RefreshToken != "rt-"+id || a.Scope == nil || *a.Scope != "a,b" || a.AccessTokenExpiresAt == nil {
					t.Errorf("account %+v", a)
				}
				again := app.Client(t)
				if to := login(t, app, again, id); to != "/dashboard" {
					t.Errorf("returning user sent to %q", to)
				}
				if u := again.Do("GET", "/api/auth/get-session", nil).JSON(t)["user"].(map[string]any); u["id"] != got["id"] {
					t.Errorf("second sign-in is user %v, want %v", u["id"], got["id"])
				}
			})
		}
	})
}

// The authorization URL of each provider: real host and path, the standard parameters, PKCE
// where the provider takes it, and the provider's extras.
func TestAuthorizationURLs(t *testing.T) {
	st := testkit.SQLite(t)
	app := testkit.Server(t, st, env(map[string]string{"MICROSOFT_TENANT_ID": "contoso.onmicrosoft.com", "GITLAB_ISSUER": "https://git.example.com/"}))
	cases := map[string]struct {
		base, scope string
		pkce        bool
		extra       map[string]string
	}{
		"github":      {"https://github.com/login/oauth/authorize", "read:user user:email", true, nil},
		"google":      {"https://accounts.google.com/o/oauth2/v2/auth", "email profile openid", true, map[string]string{"include_granted_scopes": "true"}},
		"discord":     {"https://discord.com/api/oauth2/authorize", "identify email", false, map[string]string{"prompt": "none"}},
		"microsoft":   {"https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize", "openid profile email User.Read offline_access", true, nil},
		"gitlab":      {"https://git.example.com/oauth/authorize", "read_user", true, nil},
		"huggingface": {"https://huggingface.co/oauth/authorize", "openid profile email", true, nil},
		"linkedin":    {"https://www.linkedin.com/oauth/v2/authorization", "profile email openid", false, nil},
		"slack":       {"https://slack.com/openid/connect/authorize", "openid profile email", false, nil},
		"dropbox":     {"https://www.dropbox.com/oauth2/authorize", "account_info.read", true, nil},
		"spotify":     {"https://accounts.spotify.com/authorize", "user-read-email", true, nil},
	}
	takesHint := map[string]bool{"github": true, "google": true, "microsoft": true, "gitlab": true, "linkedin": true}
	for id, tc := range cases {
		c := app.Client(t)
		raw := start(t, c, "sign-in/social", map[string]any{"provider": id, "loginHint": "a@b.c", "scopes": []string{"extra"}})
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if got := u.Scheme + "://" + u.Host + u.Path; got != tc.base {
			t.Errorf("%s: endpoint %s, want %s", id, got, tc.base)
		}
		checks := map[string]string{"response_type": "code", "client_id": id + "-client", "scope": tc.scope + " extra",
			"redirect_uri": app.URL + "/api/auth/callback/" + id, "login_hint": "a@b.c"}
		for k, v := range tc.extra {
			checks[k] = v
		}
		if tc.pkce {
			checks["code_challenge_method"] = "S256"
		}
		if !takesHint[id] { // Better Auth passes the login hint only to some providers
			delete(checks, "login_hint")
			if q.Has("login_hint") {
				t.Errorf("%s: login_hint %q", id, q.Get("login_hint"))
			}
		}
		for k, v := range checks {
			if q.Get(k) != v {
				t.Errorf("%s: %s=%q, want %q", id, k, q.Get(k), v)
			}
		}
		if len(q.Get("state")) != 32 {
			t.Errorf("%s: state %q is not 32 characters", id, q.Get("state"))
		}
		if tc.pkce != (len(q.Get("code_challenge")) == 43) {
			t.Errorf("%s: code_challenge %q with pkce=%v", id, q.Get("code_challenge"), tc.pkce)
		}
		if !strings.Contains(c.Cookie("better-auth.state"), url.QueryEscape(q.Get("state")+".")) {
			t.Errorf("%s: state cookie %q does not carry the signed state", id, c.Cookie("better-auth.state"))
		}
	}
	c := app.Client(t)
	if res := c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "twitter"}); res.Status != 404 || !strings.Contains(string(res.Body), "Provider not found") {
		t.Errorf("unknown provider: %d %s", res.Status, res.Body)
	}
	for _, field := range []string{"callbackURL", "newUserCallbackURL", "errorCallbackURL"} {
		res := c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "github", field: "https://evil.example.com/x"})
		if res.Status != 403 || !strings.Contains(string(res.Body), "Invalid "+field) {
			t.Errorf("%s: %d %s", field, res.Status, res.Body)
		}
	}
	if res := c.Do("POST", "/api/auth/sign-in/social", map[string]any{}); res.Status != 400 {
		t.Errorf("no provider: %d %s", res.Status, res.Body)
	}
	if res := c.Do("GET", "/api/auth/social-providers", nil); !strings.Contains(string(res.Body), `["discord","dropbox","github","gitlab","google","huggingface","linkedin","microsoft","slack","spotify"]`) {
		t.Errorf("social-providers: %s", res.Body)
	}
}
