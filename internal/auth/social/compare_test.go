package social_test

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

type (
	obj  = map[string]any
	step = authcompare.Step
)

// compareProviders are the providers both servers run in the compare tests.
var compareProviders = []string{"github", "google", "discord"}

func compareEnv() map[string]string {
	m := map[string]string{}
	for _, id := range compareProviders {
		up := strings.ToUpper(id)
		m[up+"_CLIENT_ID"], m[up+"_CLIENT_SECRET"] = id+"-client", id+"-secret"
	}
	return m
}

// compareOptions normalise what each server makes up: the state and PKCE challenge of an
// authorization URL (their lengths are kept), and the URL's parameters in order, unescaped, so
// the redirect_uri compares as <base>/api/auth/callback/{id}.
func compareOptions() authcompare.Options {
	return authcompare.Options{
		Ignore:  map[string]bool{"activeOrganizationId": true, "activeTeamId": true, "impersonatedBy": true, "role": true, "banned": true, "banReason": true, "banExpires": true},
		Rewrite: authorizationURL,
	}
}

func authorizationURL(_, v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return v
	}
	q := u.Query()
	if !q.Has("state") && !q.Has("code_challenge") {
		return v
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{u.Scheme + "://" + u.Host + u.Path}
	for _, k := range keys {
		val := q.Get(k)
		switch k {
		case "state":
			val = fmt.Sprintf("<state %d>", len(val))
		case "code_challenge":
			val = fmt.Sprintf("<challenge %d>", len(val))
		}
		parts = append(parts, k+"="+val)
	}
	return strings.Join(parts, " ")
}

// Sign-in starts, callback refusals and the account endpoints' refusals go to a Better Auth
// 1.7 server from the npm package (testdata/betterauth.mjs: github, google, discord) and to
// ours with the same providers; authcompare reports every answer that differs.
func TestCompareSocialRefusals(t *testing.T) {
	script, _ := filepath.Abs("testdata/betterauth.mjs")
	ref := authcompare.StartBetterAuth(t, script)
	ours := authcompare.Ours(testkit.Server(t, testkit.Postgres(t), compareEnv()))
	authcompare.Run(t, ref, ours, refusalSteps(), compareOptions())
}

// Differences we keep, each listed in docs/social-sign-in.md. The installed Better Auth 1.7.25
// selects the account of unlink-account, get-access-token, refresh-token and account-info by its
// Better Auth account id (or, for the token routes, a signed account cookie) and serves
// account-info as a GET; spec §5 and §7 name the earlier shape our clients use: providerId
// required (accountId optional) and POST /account-info with accountId.
const (
	acceptRestart     = "spec §8: a state with no stored record (unknown, used or expired) is please_restart_the_process; Better Auth 1.7.25 folds it into state_mismatch"
	acceptUnlink      = "spec §5: unlink-account takes providerId (accountId optional); Better Auth 1.7.25 requires its own account id, accountId"
	acceptSelection   = "spec §5: get-access-token and refresh-token take providerId (accountId, userId optional) and answer a caller without a session 401; Better Auth 1.7.25 takes accountId or useAccountCookie and refuses {providerId} as invalid"
	acceptAccountInfo = "spec §7: POST /account-info {accountId}; Better Auth 1.7.25 serves GET /account-info?accountId= (its POST is a 404)"
)

func refusalSteps() []authcompare.Step {
	api := func(p string) string { return "/api/auth" + p }
	signIn := func(name string, body obj) authcompare.Step {
		return authcompare.Step{Name: name, Client: "anon", Method: "POST", Path: api("/sign-in/social"), Body: body}
	}
	steps := []authcompare.Step{}
	for _, id := range compareProviders {
		steps = append(steps,
			signIn("sign-in "+id, obj{"provider": id}),
			signIn("sign-in "+id+" with callbacks", obj{"provider": id, "callbackURL": "/dashboard", "errorCallbackURL": "/sign-in", "newUserCallbackURL": "/welcome"}),
			signIn("sign-in "+id+" with scopes and login hint", obj{"provider": id, "scopes": []string{"extra.scope", "other"}, "loginHint": "ann@example.com"}),
			signIn("sign-in "+id+" disableRedirect", obj{"provider": id, "disableRedirect": true}),
		)
	}
	steps = append(steps,
		signIn("sign-in unknown provider", obj{"provider": "gitlab"}),
		signIn("sign-in unheard-of provider", obj{"provider": "nope"}),
		signIn("sign-in without provider", obj{"callbackURL": "/dashboard"}),
		signIn("sign-in absolute foreign callbackURL", obj{"provider": "github", "callbackURL": "https://evil.example/x"}),
		signIn("sign-in foreign errorCallbackURL", obj{"provider": "github", "errorCallbackURL": "https://evil.example/x"}),
		signIn("sign-in foreign newUserCallbackURL", obj{"provider": "github", "newUserCallbackURL": "https://evil.example/x"}),
		signIn("sign-in encoded callbackURL", obj{"provider": "github", "callbackURL": "/%2F%2Fevil.example.com"}),
		signIn("sign-in own absolute callbackURL", obj{"provider": "github", "callbackURL": "{base}/dashboard"}),

		// the callback without a flow of this browser's
		step{Name: "callback without state", Client: "anon", Method: "GET", Path: api("/callback/github?code=abc")},
		step{Name: "callback with unknown state", Client: "anon", Method: "GET", Path: api("/callback/github?code=abc&state=abcdefghijklmnopqrstuvwxyz012345"), Accept: acceptRestart},
		step{Name: "callback with provider error", Client: "anon", Method: "GET", Path: api("/callback/github?error=access_denied&error_description=The+user+said+no&state=abcdefghijklmnopqrstuvwxyz012345"), Accept: acceptRestart},
		step{Name: "callback of unknown provider", Client: "anon", Method: "GET", Path: api("/callback/nope?code=abc&state=abcdefghijklmnopqrstuvwxyz012345"), Accept: acceptRestart},
		// a flow this browser started, then the provider's error
		step{Name: "start for error", Client: "eve", Method: "POST", Path: api("/sign-in/social"), Body: obj{"provider": "github", "errorCallbackURL": "/sign-in", "callbackURL": "/dashboard"}, Save: map[string]string{"eveState": "url?state"}},
		step{Name: "callback with provider error in a flow", Client: "eve", Method: "GET", Path: api("/callback/github?error=access_denied&error_description=The+user+said+no&state={eveState}")},
		step{Name: "start for missing code", Client: "eve", Method: "POST", Path: api("/sign-in/social"), Body: obj{"provider": "github", "errorCallbackURL": "/sign-in"}, Save: map[string]string{"eveState2": "url?state"}},
		step{Name: "callback without code in a flow", Client: "eve", Method: "GET", Path: api("/callback/github?state={eveState2}")},

		// account endpoints without a session
		step{Name: "list-accounts anonymous", Client: "anon", Method: "GET", Path: api("/list-accounts")},
		step{Name: "unlink-account anonymous", Client: "anon", Method: "POST", Path: api("/unlink-account"), Body: obj{"providerId": "github"}, Accept: acceptUnlink},
		step{Name: "get-access-token anonymous", Client: "anon", Method: "POST", Path: api("/get-access-token"), Body: obj{"providerId": "github"}, Accept: acceptSelection},
		step{Name: "refresh-token anonymous", Client: "anon", Method: "POST", Path: api("/refresh-token"), Body: obj{"providerId": "github"}, Accept: acceptSelection},
		step{Name: "account-info anonymous", Client: "anon", Method: "POST", Path: api("/account-info"), Body: obj{"accountId": "x"}, Accept: acceptAccountInfo},

		// and with a password user's session
		step{Name: "sign-up", Client: "ann", Method: "POST", Path: api("/sign-up/email"), Body: obj{"email": "ann@example.com", "password": "password123", "name": "Ann"}, Save: map[string]string{"ann": "user.id"}},
		step{Name: "list-accounts", Client: "ann", Method: "GET", Path: api("/list-accounts")},
		step{Name: "unlink-account not linked", Client: "ann", Method: "POST", Path: api("/unlink-account"), Body: obj{"providerId": "github"}, Accept: acceptUnlink},
		step{Name: "unlink-account last", Client: "ann", Method: "POST", Path: api("/unlink-account"), Body: obj{"providerId": "credential"}, Accept: acceptUnlink},
		step{Name: "unlink-account without providerId", Client: "ann", Method: "POST", Path: api("/unlink-account"), Body: obj{}, Accept: acceptUnlink},
		step{Name: "get-access-token unknown provider", Client: "ann", Method: "POST", Path: api("/get-access-token"), Body: obj{"providerId": "nope"}, Accept: acceptSelection},
		step{Name: "get-access-token no account", Client: "ann", Method: "POST", Path: api("/get-access-token"), Body: obj{"providerId": "github"}, Accept: acceptSelection},
		step{Name: "get-access-token credential", Client: "ann", Method: "POST", Path: api("/get-access-token"), Body: obj{"providerId": "credential"}, Accept: acceptSelection},
		step{Name: "refresh-token unknown provider", Client: "ann", Method: "POST", Path: api("/refresh-token"), Body: obj{"providerId": "nope"}, Accept: acceptSelection},
		step{Name: "refresh-token no account", Client: "ann", Method: "POST", Path: api("/refresh-token"), Body: obj{"providerId": "github"}, Accept: acceptSelection},
		step{Name: "account-info unknown account", Client: "ann", Method: "POST", Path: api("/account-info"), Body: obj{"accountId": "nope"}, Accept: acceptAccountInfo},
		step{Name: "account-info of the credential account", Client: "ann", Method: "POST", Path: api("/account-info"), Body: obj{"accountId": "{ann}"}, Accept: acceptAccountInfo},
		step{Name: "link-social unknown provider", Client: "ann", Method: "POST", Path: api("/link-social"), Body: obj{"provider": "gitlab"}},
		step{Name: "link-social github", Client: "ann", Method: "POST", Path: api("/link-social"), Body: obj{"provider": "github", "callbackURL": "/settings"}},
		step{Name: "link-social anonymous", Client: "anon", Method: "POST", Path: api("/link-social"), Body: obj{"provider": "github"}},
	)
	return steps
}
