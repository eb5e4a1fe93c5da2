package auth_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// What a Better Auth 1.7.25 app (better-sqlite3, secret "x"*32) wrote when "a@b.com" signed up
// with password "password123": its DDL, its rows in its own formats, and the cookies it set.
const (
	baSecret = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	baDDL    = `create table "user" ("id" text not null primary key, "name" text not null, "email" text not null unique, "emailVerified" integer not null, "image" text, "createdAt" date not null, "updatedAt" date not null);
create table "session" ("id" text not null primary key, "expiresAt" date not null, "token" text not null unique, "createdAt" date not null, "updatedAt" date not null, "ipAddress" text, "userAgent" text, "userId" text not null references "user" ("id") on delete cascade);
create table "account" ("id" text not null primary key, "accountId" text not null, "providerId" text not null, "userId" text not null references "user" ("id") on delete cascade, "accessToken" text, "refreshToken" text, "idToken" text, "accessTokenExpiresAt" date, "refreshTokenExpiresAt" date, "scope" text, "password" text, "createdAt" date not null, "updatedAt" date not null);
create table "verification" ("id" text not null primary key, "identifier" text not null, "value" text not null, "expiresAt" date not null, "createdAt" date not null, "updatedAt" date not null);
create table "rateLimit" ("id" text not null primary key, "key" text not null unique, "count" integer not null, "lastRequest" bigint not null);`
	baRows = `insert into "user" values ('zUR2jTI2HvnDaN4QXcHMDRTweo6tWkft','A','a@b.com',0,NULL,'2026-11-22T16:51:52.085Z','2026-11-22T16:51:52.085Z');
insert into "session" values ('0JasHnW6Ny5wCBhw6ZB3gWsJnargi0oK','2026-11-29T16:51:52.088Z','sPEU3Tl7i4QSq2VrFWGMiKgUd07Qd1yh','2026-11-22T16:51:52.088Z','2026-11-22T16:51:52.088Z','','','zUR2jTI2HvnDaN4QXcHMDRTweo6tWkft');
insert into "account" values ('dAiNhuRhig6Yx5yP7CR5cMhctqq5m358','zUR2jTI2HvnDaN4QXcHMDRTweo6tWkft','credential','zUR2jTI2HvnDaN4QXcHMDRTweo6tWkft',NULL,NULL,NULL,NULL,NULL,NULL,'2abe8002a4151d212b8989fe209d02fd:f863ccc8f21eaabad6e4b59d54248462fb585e2578921f9fda06b746a611ef9909e80629d6492ac424a9481861be5864c8a1020f79b2741f840336f7823aef2a','2026-11-22T16:51:52.088Z','2026-11-22T16:51:52.088Z');`
	baTokenCookie = "better-auth.session_token=sPEU3Tl7i4QSq2VrFWGMiKgUd07Qd1yh.f16UhzyllgEuEyoO%2BFxPO7zAwHBdVK72UNNuk5UTrvE%3D"
	baDataCookie  = "better-auth.session_data=eyJzZXNzaW9uIjp7InNlc3Npb24iOnsiZXhwaXJlc0F0IjoiMjAyNi0xMS0yOVQxNjo1MTo1Mi4wODhaIiwidG9rZW4iOiJzUEVVM1RsN2k0UVNxMlZyRldHTWlLZ1VkMDdRZDF5aCIsImNyZWF0ZWRBdCI6IjIwMjYtMTEtMjJUMTY6NTE6NTIuMDg4WiIsInVwZGF0ZWRBdCI6IjIwMjYtMTEtMjJUMTY6NTE6NTIuMDg4WiIsImlwQWRkcmVzcyI6IiIsInVzZXJBZ2VudCI6IiIsInVzZXJJZCI6InpVUjJqVEkySHZuRGFONFFYY0hNRFJUd2VvNnRXa2Z0IiwiaWQiOiIwSmFzSG5XNk55NXdDQmh3NlpCM2dXc0puYXJnaTBvSyJ9LCJ1c2VyIjp7Im5hbWUiOiJBIiwiZW1haWwiOiJhQGIuY29tIiwiZW1haWxWZXJpZmllZCI6ZmFsc2UsImltYWdlIjpudWxsLCJjcmVhdGVkQXQiOiIyMDI2LTExLTIyVDE2OjUxOjUyLjA4NVoiLCJ1cGRhdGVkQXQiOiIyMDI2LTExLTIyVDE2OjUxOjUyLjA4NVoiLCJpZCI6InpVUjJqVEkySHZuRGFONFFYY0hNRFJUd2VvNnRXa2Z0In0sInVwZGF0ZWRBdCI6MTc5NTM2NjMxMjA5MSwidmVyc2lvbiI6IjEifSwiZXhwaXJlc0F0IjoxNzk1MzY2NjEyMDkxLCJzaWduYXR1cmUiOiJPY19PYTVPWlhCbUx3MzZTWS10Ym8wOWdNaEM0REQwdWZjTG9vaW5SUEZFIn0"
)

// A database written by Better Auth is adopted as is: its users sign in with their passwords and
// the session cookies it issued stay valid, from the database and from its cookie cache.
func TestAdoptsBetterAuthDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "better-auth.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range strings.Split(baDDL+"\n"+baRows, ";\n") {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	st, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatalf("opening Better Auth's database: %v", err)
	}
	defer st.Close()
	app := testkit.Server(t, st, map[string]string{"AUTH_SECRET": baSecret})
	now := time.Date(2026, 11, 22, 16, 53, 0, 0, time.UTC) // inside the data cookie's 5 minutes
	app.Auth.SetClock(func() time.Time { return now })

	c := app.Client(t)
	if s := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil, "Cookie", baTokenCookie+"; "+baDataCookie)); s == nil || s["user"].(map[string]any)["email"] != "a@b.com" {
		t.Fatalf("Better Auth's cached session was not accepted: %v", s)
	}
	if s := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil, "Cookie", baTokenCookie)); s == nil || s["session"].(map[string]any)["id"] != "0JasHnW6Ny5wCBhw6ZB3gWsJnargi0oK" {
		t.Fatalf("Better Auth's session cookie was not accepted: %v", s)
	}
	if res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "a@b.com", "password": "password123"}); res.Status != 200 {
		t.Fatalf("Better Auth's user could not sign in: %d %s", res.Status, res.Body)
	}
	// Rows we write keep Better Auth's formats: ISO dates with milliseconds and integer booleans.
	raw, _ = sql.Open("sqlite3", path)
	defer raw.Close()
	var created string
	var verified int
	if err := raw.QueryRow(`select cast(s."createdAt" as text), u."emailVerified" from "session" s join "user" u on u."id" = s."userId" order by s."createdAt" desc limit 1`).Scan(&created, &verified); err != nil {
		t.Fatal(err)
	}
	if _, err := time.Parse("2006-01-02T15:04:05.000Z", created); err != nil {
		t.Errorf("our session's createdAt %q is not in Better Auth's format", created)
	}
}
