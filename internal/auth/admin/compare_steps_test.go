package admin_test

import "time"

type obj = map[string]any

const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

// compareSteps is the sequence both servers answer: the admin plugin's endpoints with their
// refusals, then the device flow approved and denied.
func compareSteps() []step {
	pw := "password123"
	steps := []step{
		{name: "sign-up admin", client: "admin", method: "POST", path: "/api/auth/sign-up/email", body: obj{"email": "admin@example.com", "password": pw, "name": "Admin"}, save: map[string]string{"admin": "user.id"}},
		{name: "sign-up user", client: "user", method: "POST", path: "/api/auth/sign-up/email", body: obj{"email": "user@example.com", "password": pw, "name": "User"}, save: map[string]string{"user": "user.id"}},
		{name: "make admin", sql: `update "user" set "role" = 'admin' where "id" = '{admin}'`},
		{name: "admin session", client: "admin", method: "GET", path: "/api/auth/get-session?disableCookieCache=true"},
		{name: "list-users anonymous", client: "anon", method: "GET", path: "/api/auth/admin/list-users"},
		{name: "list-users as user", client: "user", method: "GET", path: "/api/auth/admin/list-users"},
		{name: "has-permission user", client: "user", method: "POST", path: "/api/auth/admin/has-permission", body: obj{"permissions": obj{"user": []string{"list"}}}},
		{name: "has-permission admin", client: "admin", method: "POST", path: "/api/auth/admin/has-permission", body: obj{"permissions": obj{"user": []string{"list", "ban"}, "session": []string{"revoke"}}}},
		{name: "has-permission impersonate-admins", client: "admin", method: "POST", path: "/api/auth/admin/has-permission", body: obj{"permissions": obj{"user": []string{"impersonate-admins"}}}},
		{name: "has-permission singular", client: "admin", method: "POST", path: "/api/auth/admin/has-permission", body: obj{"permission": obj{"user": []string{"list"}}}},
		{name: "create-user", client: "admin", method: "POST", path: "/api/auth/admin/create-user", body: obj{"email": "Carol@Example.com", "password": pw, "name": "Carol", "data": obj{"banReason": "watch"}}, save: map[string]string{"carol": "user.id"}},
		{name: "create-user with role", client: "admin", method: "POST", path: "/api/auth/admin/create-user", body: obj{"email": "dave@example.com", "name": "Dave", "role": []string{"admin", "user"}}, save: map[string]string{"dave": "user.id"}},
		{name: "create-user duplicate", client: "admin", method: "POST", path: "/api/auth/admin/create-user", body: obj{"email": "carol@example.com", "name": "C"}},
		{name: "create-user bad email", client: "admin", method: "POST", path: "/api/auth/admin/create-user", body: obj{"email": "nope", "name": "C"}},
		{name: "create-user unknown role", client: "admin", method: "POST", path: "/api/auth/admin/create-user", body: obj{"email": "x@example.com", "name": "X", "role": "editor"}},
		{name: "create-user as user", client: "user", method: "POST", path: "/api/auth/admin/create-user", body: obj{"email": "y@example.com", "name": "Y"}},
		{name: "list-users", client: "admin", method: "GET", path: "/api/auth/admin/list-users?sortBy=createdAt"}, // unsorted, Better Auth answers in PostgreSQL's heap order
		{name: "list-users search", client: "admin", method: "GET", path: "/api/auth/admin/list-users?searchValue=example.com&searchOperator=ends_with&sortBy=email&sortDirection=desc"},
		{name: "list-users name", client: "admin", method: "GET", path: "/api/auth/admin/list-users?searchValue=Da&searchField=name&searchOperator=starts_with"},
		{name: "list-users filter", client: "admin", method: "GET", path: "/api/auth/admin/list-users?filterField=role&filterValue=admin"},
		{name: "list-users page", client: "admin", method: "GET", path: "/api/auth/admin/list-users?sortBy=name&limit=2&offset=1"},
		{name: "list-users unknown field", client: "admin", method: "GET", path: "/api/auth/admin/list-users?sortBy=nope"},
		{name: "list-users bad direction", client: "admin", method: "GET", path: "/api/auth/admin/list-users?sortDirection=up"},
		{name: "get-user", client: "admin", method: "GET", path: "/api/auth/admin/get-user?id={user}"},
		{name: "get-user unknown", client: "admin", method: "GET", path: "/api/auth/admin/get-user?id=nope"},
		{name: "get-user as user", client: "user", method: "GET", path: "/api/auth/admin/get-user?id={admin}"},
		{name: "update-user", client: "admin", method: "POST", path: "/api/auth/admin/update-user", body: obj{"userId": "{user}", "data": obj{"name": "User Two", "image": "https://example.com/u.png"}}},
		{name: "update-user no data", client: "admin", method: "POST", path: "/api/auth/admin/update-user", body: obj{"userId": "{user}", "data": obj{}}},
		{name: "update-user password", client: "admin", method: "POST", path: "/api/auth/admin/update-user", body: obj{"userId": "{user}", "data": obj{"password": "x"}}},
		{name: "update-user email taken", client: "admin", method: "POST", path: "/api/auth/admin/update-user", body: obj{"userId": "{user}", "data": obj{"email": "ADMIN@example.com"}}},
		{name: "update-user ban self", client: "admin", method: "POST", path: "/api/auth/admin/update-user", body: obj{"userId": "{admin}", "data": obj{"banned": true}}},
		{name: "update-user role type", client: "admin", method: "POST", path: "/api/auth/admin/update-user", body: obj{"userId": "{user}", "data": obj{"role": 5}}},
		{name: "set-role", client: "admin", method: "POST", path: "/api/auth/admin/set-role", body: obj{"userId": "{carol}", "role": []string{"user", "admin"}}},
		{name: "set-role back", client: "admin", method: "POST", path: "/api/auth/admin/set-role", body: obj{"userId": "{carol}", "role": "user"}},
		{name: "set-role unknown role", client: "admin", method: "POST", path: "/api/auth/admin/set-role", body: obj{"userId": "{carol}", "role": "editor"}},
		{name: "set-role unknown user", client: "admin", method: "POST", path: "/api/auth/admin/set-role", body: obj{"userId": "nope", "role": "user"}},
		{name: "set-user-password", client: "admin", method: "POST", path: "/api/auth/admin/set-user-password", body: obj{"userId": "{carol}", "newPassword": "password999"}},
		{name: "set-user-password short", client: "admin", method: "POST", path: "/api/auth/admin/set-user-password", body: obj{"userId": "{carol}", "newPassword": "short"}},
		{name: "carol signs in", client: "carol", method: "POST", path: "/api/auth/sign-in/email", body: obj{"email": "carol@example.com", "password": "password999"}},
		{name: "ban-user", client: "admin", method: "POST", path: "/api/auth/admin/ban-user", body: obj{"userId": "{carol}", "banReason": "spam", "banExpiresIn": 3600}},
		{name: "banned carol's session", client: "carol", method: "GET", path: "/api/auth/get-session?disableCookieCache=true"},
		{name: "banned sign-in", client: "carol", method: "POST", path: "/api/auth/sign-in/email", body: obj{"email": "carol@example.com", "password": "password999"}},
		{name: "ban yourself", client: "admin", method: "POST", path: "/api/auth/admin/ban-user", body: obj{"userId": "{admin}"}},
		{name: "ban unknown", client: "admin", method: "POST", path: "/api/auth/admin/ban-user", body: obj{"userId": "nope"}},
		{name: "unban-user", client: "admin", method: "POST", path: "/api/auth/admin/unban-user", body: obj{"userId": "{carol}"}},
		{name: "sign-in after unban", client: "carol", method: "POST", path: "/api/auth/sign-in/email", body: obj{"email": "carol@example.com", "password": "password999"}},
		// A ban with an expiry lifts itself at the next sign-in once the time has passed.
		{name: "ban with expiry", client: "admin", method: "POST", path: "/api/auth/admin/ban-user", body: obj{"userId": "{carol}", "banReason": "cool off", "banExpiresIn": 60}},
		{name: "sign-in while banned", client: "carol", method: "POST", path: "/api/auth/sign-in/email", body: obj{"email": "carol@example.com", "password": "password999"}},
		{name: "the ban runs out", sql: `update "user" set "banExpires" = now() - interval '1 minute' where "id" = '{carol}'`},
		{name: "sign-in after the ban ran out", client: "carol", method: "POST", path: "/api/auth/sign-in/email", body: obj{"email": "carol@example.com", "password": "password999"},
			accept: "Better Auth answers the user as read before it lifted the ban (banned: true, the old reason and expiry); ours as it now is; both databases agree (next step)"},
		{name: "get-user after the ban ran out", client: "admin", method: "GET", path: "/api/auth/admin/get-user?id={carol}"},
		{name: "user signs in again", client: "user2", method: "POST", path: "/api/auth/sign-in/email", body: obj{"email": "user@example.com", "password": pw}},
		{name: "list-user-sessions", client: "admin", method: "POST", path: "/api/auth/admin/list-user-sessions", body: obj{"userId": "{user}"}, save: map[string]string{"userSession": "sessions.0.token"}},
		{name: "revoke-user-session", client: "admin", method: "POST", path: "/api/auth/admin/revoke-user-session", body: obj{"sessionToken": "{userSession}"}},
		{name: "sessions after revoking one", client: "admin", method: "POST", path: "/api/auth/admin/list-user-sessions", body: obj{"userId": "{user}"}},
		{name: "impersonate-user", client: "admin", method: "POST", path: "/api/auth/admin/impersonate-user", body: obj{"userId": "{user}"}},
		{name: "session while impersonating", client: "admin", method: "GET", path: "/api/auth/get-session"},
		{name: "list-sessions while impersonating", client: "admin", method: "GET", path: "/api/auth/list-sessions"},
		{name: "list-users while impersonating", client: "admin", method: "GET", path: "/api/auth/admin/list-users"},
		{name: "stop-impersonating", client: "admin", method: "POST", path: "/api/auth/admin/stop-impersonating"},
		{name: "stop-impersonating again", client: "admin", method: "POST", path: "/api/auth/admin/stop-impersonating"},
		{name: "impersonate an admin", client: "admin", method: "POST", path: "/api/auth/admin/impersonate-user", body: obj{"userId": "{dave}"}},
		{name: "impersonate unknown", client: "admin", method: "POST", path: "/api/auth/admin/impersonate-user", body: obj{"userId": "nope"}},
		{name: "revoke-user-sessions", client: "admin", method: "POST", path: "/api/auth/admin/revoke-user-sessions", body: obj{"userId": "{user}"}},
		{name: "user signed out", client: "user2", method: "GET", path: "/api/auth/get-session?disableCookieCache=true"},
		{name: "remove yourself", client: "admin", method: "POST", path: "/api/auth/admin/remove-user", body: obj{"userId": "{admin}"}},
		{name: "remove-user", client: "admin", method: "POST", path: "/api/auth/admin/remove-user", body: obj{"userId": "{dave}"}},
		{name: "remove-user again", client: "admin", method: "POST", path: "/api/auth/admin/remove-user", body: obj{"userId": "{dave}"}},
		{name: "list-users at the end", client: "admin", method: "GET", path: "/api/auth/admin/list-users?sortBy=email"},
	}
	return append(steps, deviceSteps()...)
}

func deviceSteps() []step {
	token := func(name, clientID string, pause time.Duration) step {
		return step{name: name, client: "device", method: "POST", path: "/api/auth/device/token", pause: pause,
			body: obj{"grant_type": deviceGrant, "device_code": "{deviceCode}", "client_id": clientID}}
	}
	wait := 1100 * time.Millisecond // both servers poll at 1 s
	return []step{
		{name: "device/code", client: "device", method: "POST", path: "/api/auth/device/code", body: obj{"client_id": "sellertrends-cli", "scope": "openid profile"},
			save: map[string]string{"deviceCode": "device_code", "userCode": "user_code"}},
		{name: "device/code without client", client: "device", method: "POST", path: "/api/auth/device/code", body: obj{}},
		{name: "device/code empty client", client: "device", method: "POST", path: "/api/auth/device/code", body: obj{"client_id": ""}},
		token("token pending", "sellertrends-cli", 0),
		token("token too soon", "sellertrends-cli", 0),
		token("token other client", "other", wait),
		{name: "token wrong grant", client: "device", method: "POST", path: "/api/auth/device/token", body: obj{"grant_type": "password", "device_code": "{deviceCode}", "client_id": "sellertrends-cli"}},
		{name: "token unknown code", client: "device", method: "POST", path: "/api/auth/device/token", body: obj{"grant_type": deviceGrant, "device_code": "nope", "client_id": "sellertrends-cli"}},
		{name: "GET /device anonymous", client: "anon", method: "GET", path: "/api/auth/device?user_code={userCode}"},
		{name: "GET /device unknown", client: "anon", method: "GET", path: "/api/auth/device?user_code=ZZZZZZZZ"},
		{name: "approve signed out", client: "anon", method: "POST", path: "/api/auth/device/approve", body: obj{"userCode": "{userCode}"}},
		{name: "approve unclaimed", client: "carol", method: "POST", path: "/api/auth/device/approve", body: obj{"userCode": "{userCode}"}},
		{name: "GET /device claims", client: "carol", method: "GET", path: "/api/auth/device?user_code={userCode}"},
		{name: "GET /device by another", client: "admin", method: "GET", path: "/api/auth/device?user_code={userCode}"},
		{name: "approve by another", client: "admin", method: "POST", path: "/api/auth/device/approve", body: obj{"userCode": "{userCode}"}},
		{name: "approve", client: "carol", method: "POST", path: "/api/auth/device/approve", body: obj{"userCode": "{userCode}"}},
		{name: "deny after approval", client: "carol", method: "POST", path: "/api/auth/device/deny", body: obj{"userCode": "{userCode}"}},
		{name: "token approved", client: "device", method: "POST", path: "/api/auth/device/token", pause: wait,
			body: obj{"grant_type": deviceGrant, "device_code": "{deviceCode}", "client_id": "sellertrends-cli"}, save: map[string]string{"accessToken": "access_token"}},
		{name: "bearer session", client: "device", method: "GET", path: "/api/auth/get-session", header: []string{"Authorization", "Bearer {accessToken}"}},
		token("token consumed", "sellertrends-cli", wait),
		{name: "second device/code", client: "device", method: "POST", path: "/api/auth/device/code", body: obj{"client_id": "sellertrends-cli"},
			save: map[string]string{"deviceCode": "device_code", "userCode": "user_code"}},
		{name: "GET /device claims second", client: "carol", method: "GET", path: "/api/auth/device?user_code={userCode}"},
		{name: "deny", client: "carol", method: "POST", path: "/api/auth/device/deny", body: obj{"userCode": "{userCode}"}},
		token("token denied", "sellertrends-cli", 0),
		token("token after denial", "sellertrends-cli", wait),
		// A code whose time is up answers expired_token once, then is gone.
		{name: "third device/code", client: "device", method: "POST", path: "/api/auth/device/code", body: obj{"client_id": "sellertrends-cli"},
			save: map[string]string{"deviceCode": "device_code", "userCode": "user_code"}},
		{name: "the code runs out", sql: `update "deviceCode" set "expiresAt" = now() - interval '1 minute' where "deviceCode" = '{deviceCode}'`},
		token("token expired", "sellertrends-cli", 0),
		{name: "GET /device expired", client: "carol", method: "GET", path: "/api/auth/device?user_code={userCode}"},
		token("token after expiry", "sellertrends-cli", wait),
	}
}
