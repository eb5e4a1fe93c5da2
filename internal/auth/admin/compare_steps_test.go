package admin_test

import (
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

type obj = map[string]any

const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

// compareSteps is the sequence both servers answer: the admin plugin's endpoints with their
// refusals, then the device flow approved and denied.
func compareSteps() []authcompare.Step {
	pw := "password123"
	steps := []authcompare.Step{
		{Name: "sign-up admin", Client: "admin", Method: "POST", Path: "/api/auth/sign-up/email", Body: obj{"email": "admin@example.com", "password": pw, "name": "Admin"}, Save: map[string]string{"admin": "user.id"}},
		{Name: "sign-up user", Client: "user", Method: "POST", Path: "/api/auth/sign-up/email", Body: obj{"email": "user@example.com", "password": pw, "name": "User"}, Save: map[string]string{"user": "user.id"}},
		{Name: "make admin", SQL: `update "user" set "role" = 'admin' where "id" = '{admin}'`},
		{Name: "admin session", Client: "admin", Method: "GET", Path: "/api/auth/get-session?disableCookieCache=true"},
		{Name: "list-users anonymous", Client: "anon", Method: "GET", Path: "/api/auth/admin/list-users"},
		{Name: "list-users as user", Client: "user", Method: "GET", Path: "/api/auth/admin/list-users"},
		{Name: "has-permission user", Client: "user", Method: "POST", Path: "/api/auth/admin/has-permission", Body: obj{"permissions": obj{"user": []string{"list"}}}},
		{Name: "has-permission admin", Client: "admin", Method: "POST", Path: "/api/auth/admin/has-permission", Body: obj{"permissions": obj{"user": []string{"list", "ban"}, "session": []string{"revoke"}}}},
		{Name: "has-permission impersonate-admins", Client: "admin", Method: "POST", Path: "/api/auth/admin/has-permission", Body: obj{"permissions": obj{"user": []string{"impersonate-admins"}}}},
		{Name: "has-permission singular", Client: "admin", Method: "POST", Path: "/api/auth/admin/has-permission", Body: obj{"permission": obj{"user": []string{"list"}}}},
		{Name: "create-user", Client: "admin", Method: "POST", Path: "/api/auth/admin/create-user", Body: obj{"email": "Carol@Example.com", "password": pw, "name": "Carol", "data": obj{"banReason": "watch"}}, Save: map[string]string{"carol": "user.id"}},
		{Name: "create-user with role", Client: "admin", Method: "POST", Path: "/api/auth/admin/create-user", Body: obj{"email": "dave@example.com", "name": "Dave", "role": []string{"admin", "user"}}, Save: map[string]string{"dave": "user.id"}},
		{Name: "create-user duplicate", Client: "admin", Method: "POST", Path: "/api/auth/admin/create-user", Body: obj{"email": "carol@example.com", "name": "C"}},
		{Name: "create-user bad email", Client: "admin", Method: "POST", Path: "/api/auth/admin/create-user", Body: obj{"email": "nope", "name": "C"}},
		{Name: "create-user unknown role", Client: "admin", Method: "POST", Path: "/api/auth/admin/create-user", Body: obj{"email": "x@example.com", "name": "X", "role": "editor"}},
		{Name: "create-user as user", Client: "user", Method: "POST", Path: "/api/auth/admin/create-user", Body: obj{"email": "y@example.com", "name": "Y"}},
		{Name: "list-users", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?sortBy=createdAt"}, // unsorted, Better Auth answers in PostgreSQL's heap order
		{Name: "list-users search", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?searchValue=example.com&searchOperator=ends_with&sortBy=email&sortDirection=desc"},
		{Name: "list-users name", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?searchValue=Da&searchField=name&searchOperator=starts_with"},
		{Name: "list-users filter", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?filterField=role&filterValue=admin"},
		{Name: "list-users page", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?sortBy=name&limit=2&offset=1"},
		{Name: "list-users unknown field", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?sortBy=nope"},
		{Name: "list-users bad direction", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?sortDirection=up"},
		{Name: "get-user", Client: "admin", Method: "GET", Path: "/api/auth/admin/get-user?id={user}"},
		{Name: "get-user unknown", Client: "admin", Method: "GET", Path: "/api/auth/admin/get-user?id=nope"},
		{Name: "get-user as user", Client: "user", Method: "GET", Path: "/api/auth/admin/get-user?id={admin}"},
		{Name: "update-user", Client: "admin", Method: "POST", Path: "/api/auth/admin/update-user", Body: obj{"userId": "{user}", "data": obj{"name": "User Two", "image": "https://example.com/u.png"}}},
		{Name: "update-user no data", Client: "admin", Method: "POST", Path: "/api/auth/admin/update-user", Body: obj{"userId": "{user}", "data": obj{}}},
		{Name: "update-user password", Client: "admin", Method: "POST", Path: "/api/auth/admin/update-user", Body: obj{"userId": "{user}", "data": obj{"password": "x"}}},
		{Name: "update-user email taken", Client: "admin", Method: "POST", Path: "/api/auth/admin/update-user", Body: obj{"userId": "{user}", "data": obj{"email": "ADMIN@example.com"}}},
		{Name: "update-user ban self", Client: "admin", Method: "POST", Path: "/api/auth/admin/update-user", Body: obj{"userId": "{admin}", "data": obj{"banned": true}}},
		{Name: "update-user role type", Client: "admin", Method: "POST", Path: "/api/auth/admin/update-user", Body: obj{"userId": "{user}", "data": obj{"role": 5}}},
		{Name: "set-role", Client: "admin", Method: "POST", Path: "/api/auth/admin/set-role", Body: obj{"userId": "{carol}", "role": []string{"user", "admin"}}},
		{Name: "set-role back", Client: "admin", Method: "POST", Path: "/api/auth/admin/set-role", Body: obj{"userId": "{carol}", "role": "user"}},
		{Name: "set-role unknown role", Client: "admin", Method: "POST", Path: "/api/auth/admin/set-role", Body: obj{"userId": "{carol}", "role": "editor"}},
		{Name: "set-role unknown user", Client: "admin", Method: "POST", Path: "/api/auth/admin/set-role", Body: obj{"userId": "nope", "role": "user"}},
		{Name: "set-user-password", Client: "admin", Method: "POST", Path: "/api/auth/admin/set-user-password", Body: obj{"userId": "{carol}", "newPassword": "password999"}},
		{Name: "set-user-password short", Client: "admin", Method: "POST", Path: "/api/auth/admin/set-user-password", Body: obj{"userId": "{carol}", "newPassword": "short"}},
		{Name: "carol signs in", Client: "carol", Method: "POST", Path: "/api/auth/sign-in/email", Body: obj{"email": "carol@example.com", "password": "password999"}},
		{Name: "ban-user", Client: "admin", Method: "POST", Path: "/api/auth/admin/ban-user", Body: obj{"userId": "{carol}", "banReason": "spam", "banExpiresIn": 3600}},
		{Name: "banned carol's session", Client: "carol", Method: "GET", Path: "/api/auth/get-session?disableCookieCache=true"},
		{Name: "banned sign-in", Client: "carol", Method: "POST", Path: "/api/auth/sign-in/email", Body: obj{"email": "carol@example.com", "password": "password999"}},
		{Name: "ban yourself", Client: "admin", Method: "POST", Path: "/api/auth/admin/ban-user", Body: obj{"userId": "{admin}"}},
		{Name: "ban unknown", Client: "admin", Method: "POST", Path: "/api/auth/admin/ban-user", Body: obj{"userId": "nope"}},
		{Name: "unban-user", Client: "admin", Method: "POST", Path: "/api/auth/admin/unban-user", Body: obj{"userId": "{carol}"}},
		{Name: "sign-in after unban", Client: "carol", Method: "POST", Path: "/api/auth/sign-in/email", Body: obj{"email": "carol@example.com", "password": "password999"}},
		// A ban with an expiry lifts itself at the next sign-in once the time has passed.
		{Name: "ban with expiry", Client: "admin", Method: "POST", Path: "/api/auth/admin/ban-user", Body: obj{"userId": "{carol}", "banReason": "cool off", "banExpiresIn": 60}},
		{Name: "sign-in while banned", Client: "carol", Method: "POST", Path: "/api/auth/sign-in/email", Body: obj{"email": "carol@example.com", "password": "password999"}},
		{Name: "the ban runs out", SQL: `update "user" set "banExpires" = now() - interval '1 minute' where "id" = '{carol}'`},
		{Name: "sign-in after the ban ran out", Client: "carol", Method: "POST", Path: "/api/auth/sign-in/email", Body: obj{"email": "carol@example.com", "password": "password999"},
			Accept: "Better Auth answers the user as read before it lifted the ban (banned: true, the old reason and expiry); ours as it now is; both databases agree (next step)"},
		{Name: "get-user after the ban ran out", Client: "admin", Method: "GET", Path: "/api/auth/admin/get-user?id={carol}"},
		{Name: "user signs in again", Client: "user2", Method: "POST", Path: "/api/auth/sign-in/email", Body: obj{"email": "user@example.com", "password": pw}},
		{Name: "list-user-sessions", Client: "admin", Method: "POST", Path: "/api/auth/admin/list-user-sessions", Body: obj{"userId": "{user}"}, Save: map[string]string{"userSession": "sessions.0.token"}},
		{Name: "revoke-user-session", Client: "admin", Method: "POST", Path: "/api/auth/admin/revoke-user-session", Body: obj{"sessionToken": "{userSession}"}},
		{Name: "sessions after revoking one", Client: "admin", Method: "POST", Path: "/api/auth/admin/list-user-sessions", Body: obj{"userId": "{user}"}},
		{Name: "impersonate-user", Client: "admin", Method: "POST", Path: "/api/auth/admin/impersonate-user", Body: obj{"userId": "{user}"},
			Accept: "Better Auth expires the cookie cache here; ours writes a fresh one for the impersonation session (the answer's body is the same)"},
		{Name: "session while impersonating", Client: "admin", Method: "GET", Path: "/api/auth/get-session"},
		{Name: "list-sessions while impersonating", Client: "admin", Method: "GET", Path: "/api/auth/list-sessions"},
		{Name: "list-users while impersonating", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users"},
		{Name: "stop-impersonating", Client: "admin", Method: "POST", Path: "/api/auth/admin/stop-impersonating"},
		{Name: "stop-impersonating again", Client: "admin", Method: "POST", Path: "/api/auth/admin/stop-impersonating"},
		{Name: "impersonate an admin", Client: "admin", Method: "POST", Path: "/api/auth/admin/impersonate-user", Body: obj{"userId": "{dave}"}},
		{Name: "impersonate unknown", Client: "admin", Method: "POST", Path: "/api/auth/admin/impersonate-user", Body: obj{"userId": "nope"}},
		{Name: "revoke-user-sessions", Client: "admin", Method: "POST", Path: "/api/auth/admin/revoke-user-sessions", Body: obj{"userId": "{user}"}},
		{Name: "user signed out", Client: "user2", Method: "GET", Path: "/api/auth/get-session?disableCookieCache=true"},
		{Name: "remove yourself", Client: "admin", Method: "POST", Path: "/api/auth/admin/remove-user", Body: obj{"userId": "{admin}"}},
		{Name: "remove-user", Client: "admin", Method: "POST", Path: "/api/auth/admin/remove-user", Body: obj{"userId": "{dave}"}},
		{Name: "remove-user again", Client: "admin", Method: "POST", Path: "/api/auth/admin/remove-user", Body: obj{"userId": "{dave}"}},
		{Name: "list-users at the end", Client: "admin", Method: "GET", Path: "/api/auth/admin/list-users?sortBy=email"},
	}
	return append(steps, deviceSteps()...)
}

func deviceSteps() []authcompare.Step {
	token := func(name, clientID string, pause time.Duration) authcompare.Step {
		return authcompare.Step{Name: name, Client: "device", Method: "POST", Path: "/api/auth/device/token", Pause: pause,
			Body: obj{"grant_type": deviceGrant, "device_code": "{deviceCode}", "client_id": clientID}}
	}
	wait := 1100 * time.Millisecond // both servers poll at 1 s
	return []authcompare.Step{
		{Name: "device/code", Client: "device", Method: "POST", Path: "/api/auth/device/code", Body: obj{"client_id": "sellertrends-cli", "scope": "openid profile"},
			Save: map[string]string{"deviceCode": "device_code", "userCode": "user_code"}},
		{Name: "device/code malformed JSON", Client: "device", Method: "POST", Path: "/api/auth/device/code", Raw: `{"client_id":`},
		{Name: "device/code array", Client: "device", Method: "POST", Path: "/api/auth/device/code", Raw: `["sellertrends-cli"]`},
		{Name: "device/code text/plain", Client: "device", Method: "POST", Path: "/api/auth/device/code", Raw: `{"client_id":"x"}`, ContentType: "text/plain"},
		{Name: "device/token as a form", Client: "device", Method: "POST", Path: "/api/auth/device/token", Raw: "grant_type=x&device_code=y&client_id=z", ContentType: "application/x-www-form-urlencoded",
			Accept: "RFC 8628's token endpoint takes forms; Better Auth 1.7.25's takes JSON only (415)"},
		{Name: "device/code without client", Client: "device", Method: "POST", Path: "/api/auth/device/code", Body: obj{}},
		{Name: "device/code empty client", Client: "device", Method: "POST", Path: "/api/auth/device/code", Body: obj{"client_id": ""}},
		token("token pending", "sellertrends-cli", 0),
		token("token too soon", "sellertrends-cli", 0),
		token("token other client", "other", wait),
		{Name: "token wrong grant", Client: "device", Method: "POST", Path: "/api/auth/device/token", Body: obj{"grant_type": "password", "device_code": "{deviceCode}", "client_id": "sellertrends-cli"}},
		{Name: "token unknown code", Client: "device", Method: "POST", Path: "/api/auth/device/token", Body: obj{"grant_type": deviceGrant, "device_code": "nope", "client_id": "sellertrends-cli"}},
		{Name: "GET /device anonymous", Client: "anon", Method: "GET", Path: "/api/auth/device?user_code={userCode}"},
		{Name: "GET /device unknown", Client: "anon", Method: "GET", Path: "/api/auth/device?user_code=ZZZZZZZZ"},
		{Name: "approve signed out", Client: "anon", Method: "POST", Path: "/api/auth/device/approve", Body: obj{"userCode": "{userCode}"}},
		{Name: "approve unclaimed", Client: "carol", Method: "POST", Path: "/api/auth/device/approve", Body: obj{"userCode": "{userCode}"}},
		{Name: "GET /device claims", Client: "carol", Method: "GET", Path: "/api/auth/device?user_code={userCode}"},
		{Name: "GET /device by another", Client: "admin", Method: "GET", Path: "/api/auth/device?user_code={userCode}"},
		{Name: "approve by another", Client: "admin", Method: "POST", Path: "/api/auth/device/approve", Body: obj{"userCode": "{userCode}"}},
		{Name: "approve", Client: "carol", Method: "POST", Path: "/api/auth/device/approve", Body: obj{"userCode": "{userCode}"}},
		{Name: "deny after approval", Client: "carol", Method: "POST", Path: "/api/auth/device/deny", Body: obj{"userCode": "{userCode}"}},
		{Name: "token approved", Client: "device", Method: "POST", Path: "/api/auth/device/token", Pause: wait,
			Body: obj{"grant_type": deviceGrant, "device_code": "{deviceCode}", "client_id": "sellertrends-cli"}, Save: map[string]string{"accessToken": "access_token"}},
		{Name: "bearer session", Client: "device", Method: "GET", Path: "/api/auth/get-session", Header: []string{"Authorization", "Bearer {accessToken}"}},
		token("token consumed", "sellertrends-cli", wait),
		{Name: "second device/code", Client: "device", Method: "POST", Path: "/api/auth/device/code", Body: obj{"client_id": "sellertrends-cli"},
			Save: map[string]string{"deviceCode": "device_code", "userCode": "user_code"}},
		{Name: "GET /device claims second", Client: "carol", Method: "GET", Path: "/api/auth/device?user_code={userCode}"},
		{Name: "deny", Client: "carol", Method: "POST", Path: "/api/auth/device/deny", Body: obj{"userCode": "{userCode}"}},
		token("token denied", "sellertrends-cli", 0),
		token("token after denial", "sellertrends-cli", wait),
		// A code whose time is up answers expired_token once, then is gone.
		{Name: "third device/code", Client: "device", Method: "POST", Path: "/api/auth/device/code", Body: obj{"client_id": "sellertrends-cli"},
			Save: map[string]string{"deviceCode": "device_code", "userCode": "user_code"}},
		{Name: "the code runs out", SQL: `update "deviceCode" set "expiresAt" = now() - interval '1 minute' where "deviceCode" = '{deviceCode}'`},
		token("token expired", "sellertrends-cli", 0),
		{Name: "GET /device expired", Client: "carol", Method: "GET", Path: "/api/auth/device?user_code={userCode}"},
		token("token after expiry", "sellertrends-cli", wait),
	}
}
