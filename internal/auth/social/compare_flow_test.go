package social_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/auth/social"
	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

// flowIDP plays github, google and discord for both servers at once: our providers reach it
// through PointAt, Better Auth's through the fetch the script reroutes (IDP_URL). The code the
// callback carries picks the person, so one step sequence signs in several; the access token
// names the code, and the user endpoints answer that person.
func flowIDP(t *testing.T) *httptest.Server {
	people := map[string]map[string]map[string]any{
		"github": {
			"octo": {"id": 1001, "login": "octo", "name": "Octo Cat", "email": nil, "avatar_url": "https://avatars.example/octo.png"},
			"gina": {"id": 1009, "login": "gina", "name": nil, "email": "gina@example.com", "avatar_url": "https://avatars.example/gina.png"},
		},
		"discord": {"octo": {"id": "2002", "username": "octo", "global_name": "Octo", "email": "octo@example.com", "verified": true,
			"avatar": "a1b2", "discriminator": "0"}},
		"google": {
			"gina":       {"sub": "3003", "email": "gina@example.com", "email_verified": true, "name": "Gina", "picture": "https://lh3.example/g.png", "iss": "https://accounts.google.com", "aud": "google-client"},
			"octo-unver": {"sub": "3004", "email": "octo@example.com", "email_verified": false, "name": "Octo G", "iss": "https://accounts.google.com", "aud": "google-client"},
		},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, what, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch what {
		case "token":
			code := r.PostFormValue("code")
			if r.PostFormValue("grant_type") != "authorization_code" || people[id][code] == nil {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
				return
			}
			ans := map[string]any{"access_token": "at-" + id + "-" + code, "token_type": "Bearer", "expires_in": 3600,
				"refresh_token": "rt-" + id + "-" + code, "scope": "a b"}
			if id == "google" {
				ans["id_token"] = jwt(people[id][code])
			}
			writeJSON(w, ans)
		case "user", "emails":
			code, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer at-"+id+"-")
			p := people[id][code]
			if !ok || p == nil {
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			if what == "emails" { // github's list; the profile itself keeps the email private
				writeJSON(w, []map[string]any{{"email": "other@example.com", "primary": false, "verified": false},
					{"email": code + "@example.com", "primary": true, "verified": true}})
				return
			}
			writeJSON(w, p)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Both servers complete the code flow against the same stand-in: new users, a returning user,
// an account linked by a verified email and one refused for an unverified email, link-social
// with the same email and refused with another, a forged code; the sessions, users and
// accounts they end up with are compared.
func TestCompareSocialCodeFlow(t *testing.T) {
	d := flowIDP(t)
	script, _ := filepath.Abs("testdata/betterauth.mjs")
	ref := authcompare.StartBetterAuth(t, script, "IDP_URL="+d.URL)
	restore := social.PointAt(d.URL)
	env := compareEnv()
	env["AUTH_TRUSTED_PROVIDERS"] = "" // Better Auth's default: no provider trusted without a verified email
	app := testkit.Server(t, testkit.Postgres(t), env)
	restore()
	authcompare.Run(t, ref, authcompare.Ours(app), flowSteps(), compareOptions())
}

// acceptEmailCode: spec §8 names the link refusal email_doesn't_match; Better Auth 1.7.25 sends
// email_does_not_match.
const acceptEmailCode = "spec §8: a link-social callback with another email is email_doesn't_match; Better Auth 1.7.25 says email_does_not_match"

func withAccept(s step, why string) step { s.Accept = why; return s }

func flowSteps() []authcompare.Step {
	api := func(p string) string { return "/api/auth" + p }
	cbs := obj{"callbackURL": "/dashboard", "newUserCallbackURL": "/welcome", "errorCallbackURL": "/sign-in"}
	start := func(client, provider, save string) step {
		body := obj{"provider": provider}
		for k, v := range cbs {
			body[k] = v
		}
		return step{Name: client + " starts " + provider, Client: client, Method: "POST", Path: api("/sign-in/social"), Body: body, Save: map[string]string{save: "url?state"},
			Accept: "our providers point at the stand-in here; TestCompareSocialRefusals compares the real authorization URLs"}
	}
	link := func(client, provider, save string) step {
		return step{Name: client + " links " + provider, Client: client, Method: "POST", Path: api("/link-social"),
			Body: obj{"provider": provider, "callbackURL": "/settings", "errorCallbackURL": "/settings"}, Save: map[string]string{save: "url?state"},
			Accept: "our providers point at the stand-in here; TestCompareSocialRefusals compares the real authorization URLs"}
	}
	back := func(client, provider, code, state string) step {
		return step{Name: client + " back from " + provider, Client: client, Method: "GET", Path: api("/callback/" + provider + "?code=" + code + "&state={" + state + "}")}
	}
	// signedIn also makes sure the sign-in happened on both sides (a missing user stops the test).
	signedIn := func(client string) step {
		return step{Name: client + "'s session", Client: client, Method: "GET", Path: api("/get-session?disableCookieCache=true"),
			Save: map[string]string{client + "User": "user.id"}}
	}
	accounts := func(client string) step {
		return step{Name: client + "'s accounts", Client: client, Method: "GET", Path: api("/list-accounts")}
	}
	return []authcompare.Step{
		// a new user by github (its email from the emails list), to the newUserCallbackURL
		start("octo", "github", "s1"), back("octo", "github", "octo", "s1"), signedIn("octo"), accounts("octo"),
		{Name: "octo's state used again", Client: "octo", Method: "GET", Path: api("/callback/github?code=octo&state={s1}"), Accept: acceptRestart},
		// returning: to the callbackURL
		start("octo2", "github", "s2"), back("octo2", "github", "octo", "s2"), signedIn("octo2"),
		// discord with the same verified email links to that user
		start("disco", "discord", "s3"), back("disco", "discord", "octo", "s3"), signedIn("disco"), accounts("disco"),
		// google: a new user; then the same email unverified is not linked
		start("gina", "google", "s4"), back("gina", "google", "gina", "s4"), signedIn("gina"), accounts("gina"),
		start("unver", "google", "s5"), back("unver", "google", "octo-unver", "s5"),
		{Name: "unver has no session", Client: "unver", Method: "GET", Path: api("/get-session?disableCookieCache=true")},
		// gina links github (same email), not discord (octo's email)
		link("gina", "github", "s7"), back("gina", "github", "gina", "s7"),
		link("gina", "discord", "s8"), withAccept(back("gina", "discord", "octo", "s8"), acceptEmailCode),
		accounts("gina"), signedIn("gina"),
		// a code the provider refuses
		start("bad", "github", "s6"), back("bad", "github", "forged", "s6"),
		accounts("octo"),
	}
}
