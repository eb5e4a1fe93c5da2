package jwks

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// The set is fetched once and kept 10 minutes; an unknown key id refetches at most every 30 s;
// a failed fetch is not retried within the cooldown either.
func TestCacheCooldownAndExpiry(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	var fetches atomic.Int32
	var fail atomic.Bool
	kids := []string{"k1"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetches.Add(1)
		if fail.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		var set jose.JSONWebKeySet
		for _, kid := range kids {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &priv.PublicKey, KeyID: kid, Algorithm: "ES256", Use: "sig"})
		}
		_ = json.NewEncoder(w).Encode(set)
	}))
	defer srv.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(srv.URL, srv.Client(), func() time.Time { return now })
	ctx := context.Background()
	step := func(name, kid string, wantErr bool, wantFetches int32) {
		t.Helper()
		k, err := s.Key(ctx, kid)
		if (err != nil) != wantErr || (err == nil && k.KeyID != kid) {
			t.Errorf("%s: key %v err %v", name, k, err)
		}
		if got := fetches.Load(); got != wantFetches {
			t.Errorf("%s: %d fetches, want %d", name, got, wantFetches)
		}
	}
	step("first use fetches", "k1", false, 1)
	step("cached", "k1", false, 1)
	kids = []string{"k1", "k2"}
	_, err := s.Key(ctx, "k2")
	if !errors.Is(err, ErrUnknownKey) || fetches.Load() != 1 {
		t.Errorf("unknown key within the cooldown: %v after %d fetches", err, fetches.Load())
	}
	now = now.Add(Cooldown)
	step("unknown key after the cooldown refetches", "k2", false, 2)
	now = now.Add(CacheFor - time.Second)
	step("still cached just before 10 minutes", "k1", false, 2)
	now = now.Add(time.Second)
	step("refetched at 10 minutes", "k1", false, 3)
	fail.Store(true)
	now = now.Add(CacheFor)
	step("stale and the provider down", "k1", true, 4)
	step("no refetch within the cooldown after a failure", "k1", true, 4)
	fail.Store(false)
	now = now.Add(Cooldown)
	step("back after the cooldown", "k1", false, 5)
}

// A provider that does not answer within FetchTimeout fails the lookup instead of holding it.
func TestFetchTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	s := New(srv.URL, srv.Client(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), FetchTimeout+5*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := s.Key(ctx, "k1"); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow provider: %v", err)
	}
	if d := time.Since(start); d < FetchTimeout || d > FetchTimeout+3*time.Second {
		t.Errorf("gave up after %v, want about %v", d, FetchTimeout)
	}
}
