package forward

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// A signed deletion reaches the owner's hook; a stale one, or one signed with another secret,
// does not.
func TestDeleteUserDataIsSignedAndFresh(t *testing.T) {
	var deleted []string
	owner := httptest.NewServer(DeleteHandler([]byte("secret-one"), func(_ context.Context, id string) error {
		deleted = append(deleted, id)
		return nil
	}))
	defer owner.Close()
	u, _ := url.Parse(owner.URL)
	if err := New(u, []byte("secret-one")).DeleteUserData(context.Background(), "user-1"); err != nil {
		t.Fatalf("signed deletion: %v", err)
	}
	if err := New(u, []byte("secret-two")).DeleteUserData(context.Background(), "user-2"); err == nil {
		t.Error("a deletion signed with another secret was taken")
	}
	stale := deleteRequest{UserID: "user-3", Timestamp: time.Now().Add(-10 * time.Minute).Unix()}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", DeletePath, bytes.NewReader(must(json.Marshal(stale))))
	req.Header.Set(signatureHeader, sign([]byte("secret-one"), stale))
	DeleteHandler([]byte("secret-one"), func(context.Context, string) error { t.Error("stale deletion ran"); return nil }).ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("stale deletion: %d, want 403", rec.Code)
	}
	if len(deleted) != 1 || deleted[0] != "user-1" {
		t.Errorf("deleted %v, want [user-1]", deleted)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
