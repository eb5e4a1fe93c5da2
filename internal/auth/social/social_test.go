package social_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/auth/social"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// implemented is every provider of spec §3.
var implemented = config.SocialProviderIDs

// env configures every implemented provider with "<id>-client" / "<id>-secret".
func env(extra map[string]string) map[string]string {
	m := map[string]string{"COGNITO_DOMAIN": "https://auth.example.com", "COGNITO_REGION": "eu-west-1", "COGNITO_USER_POOL_ID": "eu-west-1_AbCdEf"}
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
	cb := authorize(t, app, u)
	if provider == "apple" { // form_post: Apple POSTs the code, with the name on the first sign-in
		path, query, _ := strings.Cut(cb, "?")
		q, _ := url.ParseQuery(query)
		q.Set("user", `{"name":{"firstName":"Ada","lastName":"Apple"},"email":"ada@privaterelay.appleid.com"}`)
		res := c.Do("POST", path, q.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Origin", "https://appleid.apple.com")
		if res.Status != http.StatusFound {
			t.Fatalf("apple form post: %d %s", res.Status, res.Body)
		}
		cb = strings.TrimPrefix(res.Header.Get("Location"), app.URL)
	}
	res := c.Do("GET", cb, nil)
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
	newProfiles(d)
	return map[string]want{
		"apple":       {"ada@privaterelay.appleid.com", "Ada Apple", "", "001234.5e5d2c1f8b1c4a8e9d0f.1234", true},
		"atlassian":   {"atl@example.com", "At Lassian", "https://avatar-management.atl-paas.net/x.png", "5b10ac8d82e05b22cc7d4ef5", false},
		"cognito":     {"cog@example.com", "Cog", "", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", true},
		"facebook":    {"fay@example.com", "Fay Book", "https://platform-lookaside.fbsbx.com/x", "10158000000000001", false},
		"figma":       {"fig@example.com", "figgy", "https://s3-alpha.figma.com/profile/x", "1234567890", false},
		"twitch":      {"tw@example.com", "twitchy", "https://static-cdn.jtvnw.net/x.png", "713936733", true},
		"twitter":     {"x@example.com", "X Dev", "https://pbs.twimg.com/x_normal.jpg", "2244994945", true},
		"kick":        {"kick@example.com", "kicker", "https://files.kick.com/x.webp", "123456", false},
		"linear":      {"linear@example.com", "Lin Ear", "https://public.linear.app/x.png", "8f8990e2-6f3b-4a4c-9d1b-7c0f8c0e1a2b", false},
		"reddit":      {"abc123@reddit.placeholder.invalid", "redditor", "https://styles.redditmedia.com/x.png", "abc123", false},
		"roblox":      {"1234567@roblox.placeholder.invalid", "Robby", "https://tr.rbxcdn.com/x/150/150/AvatarHeadshot/Png", "1234567", false},
		"salesforce":  {"sf@example.com", "Sales Force", "https://c.salesforce.com/profilephoto/x/F", "005xx000001Sv6AAAS", true},
		"tiktok":      {"723f24d7-e717-40f8-a2b6-cb8464cd23b4@tiktok.placeholder.invalid", "Tik Tok", "https://p16.tiktokcdn.com/x.jpeg", "723f24d7-e717-40f8-a2b6-cb8464cd23b4", false},
		"vk":          {"ivan@example.com", "Ivan Ivanov", "https://sun1.userapi.com/x.jpg", "1234567890", false},
		"zoom":        {"zoom@example.com", "Zo Om", "https://lh4.googleusercontent.com/x", "KDcuGIm1QgePTO8WbOqwIQ", true},
		"notion":      {"nora@example.com", "Nora Notion", "https://s3-us-west-2.amazonaws.com/x.png", "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", false},
		"kakao":       {"kakao@example.com", "Kaka", "http://k.kakaocdn.net/dn/img_640x640.jpg", "3456789012", true},
		"naver":       {"naver@example.com", "Na Ver", "https://ssl.pstatic.net/static/pwe/address/x.gif", "32742776", false},
		"line":        {"line@example.com", "Li Ne", "https://profile.line-scdn.net/x", "U1234567890abcdef1234567890abcdef", false},
		"paypal":      {"pp@example.com", "Pay Pal", "", "https://www.paypal.com/webapps/auth/identity/user/mWq6_1sU85v5EG9yHdPxJRrhGHrnMJ-1PQKtX6pcsmA", true},
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
				// Refreshing uses the provider's token style too (Basic or body, tiktok's client_key).
				if res := c.Do("POST", "/api/auth/refresh-token", map[string]any{"providerId": id}); res.Status != http.StatusOK || res.JSON(t)["accessToken"] != "at-"+id {
					t.Errorf("refresh: %d %s", res.Status, res.Body)
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
	app := testkit.Server(t, st, env(map[string]string{"MICROSOFT_TENANT_ID": "contoso.onmicrosoft.com", "GITLAB_ISSUER": "https://git.example.com/",
		"SALESFORCE_ENVIRONMENT": "sandbox", "PAYPAL_ENVIRONMENT": "live"}))
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
		"apple":       {"https://appleid.apple.com/auth/authorize", "email name", true, map[string]string{"response_mode": "form_post", "response_type": "code id_token"}},
		"atlassian":   {"https://auth.atlassian.com/authorize", "read:jira-user offline_access", true, map[string]string{"audience": "api.atlassian.com"}},
		"cognito":     {"https://auth.example.com/oauth2/authorize", "openid profile email", true, nil},
		"facebook":    {"https://www.facebook.com/v24.0/dialog/oauth", "email public_profile", false, nil},
		"figma":       {"https://www.figma.com/oauth", "current_user:read", true, nil},
		"twitch": {"https://id.twitch.tv/oauth2/authorize", "user:read:email openid", false,
			map[string]string{"claims": `{"id_token":{"email":null,"email_verified":null,"preferred_username":null,"picture":null}}`}},
		"twitter":    {"https://x.com/i/oauth2/authorize", "users.read tweet.read offline.access users.email", true, nil},
		"kick":       {"https://id.kick.com/oauth/authorize", "user:read", true, nil},
		"linear":     {"https://linear.app/oauth/authorize", "read", false, nil},
		"reddit":     {"https://www.reddit.com/api/v1/authorize", "identity", false, nil},
		"roblox":     {"https://apis.roblox.com/oauth/v1/authorize", "openid profile", false, map[string]string{"prompt": "select_account consent"}},
		"salesforce": {"https://test.salesforce.com/services/oauth2/authorize", "openid email profile", true, nil},
		"tiktok":     {"https://www.tiktok.com/v2/auth/authorize", "user.info.profile,extra", false, map[string]string{"client_key": "tiktok-client"}},
		"vk":         {"https://id.vk.com/authorize", "email phone", true, nil},
		"zoom":       {"https://zoom.us/oauth/authorize", "", true, nil},
		"notion":     {"https://api.notion.com/v1/oauth/authorize", "", false, map[string]string{"owner": "user"}},
		"kakao":      {"https://kauth.kakao.com/oauth/authorize", "account_email profile_image profile_nickname", false, nil},
		"naver":      {"https://nid.naver.com/oauth2.0/authorize", "profile email", false, nil},
		"line":       {"https://access.line.me/oauth2/v2.1/authorize", "openid profile email", true, nil},
		"paypal":     {"https://www.paypal.com/signin/authorize", "", true, nil},
	}
	if len(cases) != len(config.SocialProviderIDs) {
		t.Fatalf("%d cases for %d providers", len(cases), len(config.SocialProviderIDs))
	}
	takesHint := map[string]bool{"github": true, "google": true, "microsoft": true, "gitlab": true, "linkedin": true,
		"facebook": true, "linear": true, "notion": true, "kakao": true, "line": true}
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
		checks := map[string]string{"response_type": "code", "client_id": id + "-client", "scope": strings.TrimSpace(tc.scope + " extra"),
			"redirect_uri": app.URL + "/api/auth/callback/" + id, "login_hint": "a@b.c"}
		switch id {
		case "zoom", "paypal": // no scope parameter at all: the app's settings hold them
			delete(checks, "scope")
		case "tiktok": // comma-joined, and the client id goes as client_key
			checks["scope"] = tc.scope
			delete(checks, "client_id")
		}
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
		for k := range q { // nothing beyond the expected parameters
			if _, ok := checks[k]; !ok && k != "state" && !(tc.pkce && k == "code_challenge") {
				t.Errorf("%s: unexpected parameter %s=%q", id, k, q.Get(k))
			}
		}
		if id == "cognito" && !strings.Contains(raw, "scope=openid%20profile%20email%20extra") {
			t.Errorf("cognito: scope spaces must be %%20: %s", raw)
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
	if res := c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "myspace"}); res.Status != 404 || !strings.Contains(string(res.Body), "Provider not found") {
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
	if res := c.Do("GET", "/api/auth/social-providers", nil); !strings.Contains(string(res.Body), `["apple","atlassian","cognito","discord","dropbox","facebook","figma","github","gitlab","google","huggingface","kakao","kick","line","linear","linkedin","microsoft","naver","notion","paypal","reddit","roblox","salesforce","slack","spotify","tiktok","twitch","twitter","vk","zoom"]`) {
		t.Errorf("social-providers: %s", res.Body)
	}
}
