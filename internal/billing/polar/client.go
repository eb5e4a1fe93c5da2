// Package polar is a small client for the Polar REST calls sellertrends makes (no Go SDK is
// reachable): typed requests and answers for those calls only, timeouts, retries with backoff
// on 429 and 5xx. The access token is sent, never logged.
package polar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client calls one Polar API (production, sandbox or a test stand-in).
type Client struct {
	base    *url.URL
	token   string
	http    *http.Client
	retries int
	backoff time.Duration
}

// New returns a client for the API at base authenticated with an organization access token.
func New(base *url.URL, token string) *Client {
	return &Client{base: base, token: token, http: &http.Client{Timeout: 15 * time.Second}, retries: 3, backoff: 200 * time.Millisecond}
}

// APIError is an answer outside 2xx.
type APIError struct {
	Status int
	Detail string
}

func (e *APIError) Error() string { return fmt.Sprintf("polar: %d %s", e.Status, e.Detail) }

// NotFound reports whether err is Polar's 404.
func NotFound(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

// do sends one call, retrying 429 and 5xx (and transport errors) with exponential backoff and
// jitter, honouring Retry-After. in is sent as JSON when not nil; out receives a 2xx JSON body.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, bearer string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	u := c.base.JoinPath(path)
	if strings.HasSuffix(path, "/") && !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawQuery = query.Encode()
	if bearer == "" {
		bearer = c.token
	}
	wait := c.backoff
	for attempt := 0; ; attempt++ {
		retry, after, err := c.once(ctx, method, u.String(), bearer, body, out)
		if err == nil || !retry || attempt >= c.retries {
			return err
		}
		if after > 0 {
			wait = after
		}
		t := time.NewTimer(wait + time.Duration(rand.Int64N(int64(wait)/2+1)))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait *= 2
	}
}

func (c *Client) once(ctx context.Context, method, u, bearer string, body []byte, out any) (retry bool, after time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return false, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return ctx.Err() == nil, 0, fmt.Errorf("polar: %s %s: %w", method, req.URL.Path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return true, 0, fmt.Errorf("polar: read answer: %w", err)
	}
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		if out == nil || len(raw) == 0 {
			return false, 0, nil
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return false, 0, fmt.Errorf("polar: %s %s: decode: %w", method, req.URL.Path, err)
		}
		return false, 0, nil
	}
	apiErr := &APIError{Status: res.StatusCode, Detail: detail(raw)}
	if secs, e := strconv.Atoi(res.Header.Get("Retry-After")); e == nil && secs > 0 && secs <= 30 {
		after = time.Duration(secs) * time.Second
	}
	return res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500, after, apiErr
}

// detail pulls Polar's error text out of an answer ({"detail": "..."} or a validation list).
func detail(raw []byte) string {
	var e struct {
		Detail any    `json:"detail"`
		Error  string `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil {
		switch d := e.Detail.(type) {
		case string:
			return d
		case []any:
			if len(d) > 0 {
				if m, ok := d[0].(map[string]any); ok {
					if msg, ok := m["msg"].(string); ok {
						return msg
					}
				}
			}
		}
		if e.Error != "" {
			return e.Error
		}
	}
	if len(raw) > 200 {
		raw = raw[:200]
	}
	return string(raw)
}
