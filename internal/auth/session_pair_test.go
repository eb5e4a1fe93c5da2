package auth

import (
	"bytes"
	"testing"
	"time"
)

// get-session builds its answer and the session-data cookie from one encoding of the session
// and user (sessionPair); the bytes must be those of encoding the structs, or cookies signed
// over them would stop verifying and answers would drift from the other endpoints'.
func TestSessionPairEncodesAsTheStructsDo(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	agent := `Mozilla <5.0> & "quotes"`
	sess := SessionJSON{ExpiresAt: isoTime(now.Add(time.Hour)), Token: "tok", CreatedAt: isoTime(now), UpdatedAt: isoTime(now),
		UserAgent: &agent, UserID: "u1", ID: "s1", Extra: map[string]any{"activeOrganizationId": nil, "impersonatedBy": "admin<1>"}}
	user := UserJSON{Name: "Ann & <Bob>", Email: "ann@example.com", CreatedAt: isoTime(now), UpdatedAt: isoTime(now), ID: "u1",
		Extra: map[string]any{"role": "user", "banned": false}}
	pair := encodePair(sess, user)
	if got, want := pair.object(""), compactJSON(SessionResponse{Session: sess, User: user}); !bytes.Equal(got, want) {
		t.Errorf("answer:\n got %s\nwant %s", got, want)
	}
	payload := pair.object(`,"updatedAt":1,"version":"1"`)
	if want := compactJSON(cachePayload{Session: sess, User: user, UpdatedAt: 1, Version: "1"}); !bytes.Equal(payload, want) {
		t.Errorf("cookie payload:\n got %s\nwant %s", payload, want)
	}
	s := &Service{secret: []byte("0123456789abcdef0123456789abcdef")}
	v := s.encodeCookieCache(sess, user, now)
	p, _, ok := s.decodeCookieCache(v, now)
	if !ok || p.User.Name != user.Name || p.Session.Extra["impersonatedBy"] != "admin<1>" || p.User.Extra["role"] != "user" {
		t.Fatalf("the cookie does not verify or read back: %v %+v", ok, p)
	}
}
