// Package jwks keeps a provider's JSON Web Key Set: fetched on first use, kept 10 minutes,
// fetched again for an unknown key id at most every 30 seconds (so a flood of tokens with made-up
// key ids cannot make us hammer the provider), each fetch bounded by 5 seconds.
package jwks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// The key-set constants of the issue: fetch timeout, cooldown between fetches, cache lifetime.
const (
	FetchTimeout = 5 * time.Second
	Cooldown     = 30 * time.Second
	CacheFor     = 10 * time.Minute
	maxBody      = 1 << 20
)

// ErrUnknownKey is answered for a key id the set does not hold (after a refetch when allowed).
var ErrUnknownKey = errors.New("jwks: unknown key id")

// Set is one provider's key set.
type Set struct {
	url    string
	client *http.Client
	now    func() time.Time

	mu      sync.Mutex
	keys    []jose.JSONWebKey
	fetched time.Time // when keys were last fetched successfully
	tried   time.Time // when a fetch was last attempted
}

// New returns the key set served at url, fetched with client (its own timeout is capped at
// FetchTimeout per fetch); now is the clock (time.Now when nil).
func New(url string, client *http.Client, now func() time.Time) *Set {
	if now == nil {
		now = time.Now
	}
	return &Set{url: url, client: client, now: now}
}

// Key returns the public key with id kid.
func (s *Set) Key(ctx context.Context, kid string) (*jose.JSONWebKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	fresh := !s.fetched.IsZero() && now.Sub(s.fetched) < CacheFor
	if k := s.find(kid); k != nil && fresh {
		return k, nil
	}
	// Stale, empty, or the key is unknown: fetch again unless one was tried within the cooldown.
	if !s.tried.IsZero() && now.Sub(s.tried) < Cooldown {
		if fresh {
			return nil, fmt.Errorf("%w %q", ErrUnknownKey, kid)
		}
		return nil, errors.New("jwks: key set unavailable (last fetch failed moments ago)")
	}
	s.tried = now
	keys, err := s.fetch(ctx)
	if err != nil {
		return nil, err
	}
	s.keys, s.fetched = keys, now
	if k := s.find(kid); k != nil {
		return k, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownKey, kid)
}

func (s *Set) find(kid string) *jose.JSONWebKey {
	for i := range s.keys {
		if s.keys[i].KeyID == kid && s.keys[i].IsPublic() {
			return &s.keys[i]
		}
	}
	return nil
}

func (s *Set) fetch(ctx context.Context) ([]jose.JSONWebKey, error) {
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("jwks: %s answered %d", s.url, res.StatusCode)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(res.Body, maxBody)).Decode(&set); err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	if len(set.Keys) == 0 {
		return nil, errors.New("jwks: no keys")
	}
	return set.Keys, nil
}
