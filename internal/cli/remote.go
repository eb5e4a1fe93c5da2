package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The remote commands (login, logout, workspaces, import --server) talk to a sellertrends server
// over HTTP(S) with the session token the device flow gave (a bearer token).

// clientID names the command line to the device-authorization endpoints.
const clientID = "sellertrends-cli"

// remote is a server and, once signed in, its token.
type remote struct {
	base  string // scheme://host[:port], no trailing slash
	token string
	http  *http.Client
}

// newRemote checks the server URL: HTTPS, or plain HTTP to this machine only (a token must not
// cross a network in the clear).
func newRemote(server string) (*remote, error) {
	if server == "" {
		return nil, errors.New("--server URL is required (e.g. --server https://trends.example.com)")
	}
	u, err := url.Parse(strings.TrimRight(server, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("--server %q is not an http(s) URL", server)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return nil, fmt.Errorf("--server %q: use https (plain http is allowed only for localhost)", server)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = 2 * time.Minute
	return &remote{base: u.Scheme + "://" + u.Host, http: &http.Client{Transport: tr}}, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// signedIn loads the stored token for the server, or says how to get one.
func signedIn(server string) (*remote, error) {
	r, err := newRemote(server)
	if err != nil {
		return nil, err
	}
	creds, err := loadCredentials()
	if err != nil {
		return nil, err
	}
	c, ok := creds.Servers[r.base]
	if !ok || c.Token == "" {
		return nil, fmt.Errorf("not signed in to %s: run `sellertrends login --server %s`", r.base, r.base)
	}
	r.token = c.Token
	return r, nil
}

// apiError is a server's error answer.
type apiError struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"message"`
	OAuth   string `json:"error"`
	Detail  string `json:"error_description"`
}

func (e *apiError) Error() string {
	switch {
	case e.Status == http.StatusUnauthorized:
		return "the server does not know this sign-in any more: run `sellertrends login` again"
	case e.Message != "":
		return fmt.Sprintf("%s (%d %s)", e.Message, e.Status, e.Code)
	case e.OAuth != "":
		return fmt.Sprintf("%s: %s", e.OAuth, e.Detail)
	}
	return fmt.Sprintf("the server answered %d", e.Status)
}

// call sends a JSON request (body may be nil) and decodes a 2xx answer into out (may be nil).
func (r *remote) call(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, r.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return r.do(req, out)
}

func (r *remote) do(req *http.Request, out any) error {
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	res, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		e := &apiError{Status: res.StatusCode}
		_ = json.Unmarshal(raw, e)
		return e
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// credentials are the stored tokens, one per server, in the user's config directory
// (os.UserConfigDir()/sellertrends/credentials.json, mode 0600).
type credentials struct {
	Servers map[string]credential `json:"servers"`
}

type credential struct {
	Token string `json:"token"`
	Email string `json:"email,omitempty"`
}

func credentialsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory to keep the sign-in in: %w", err)
	}
	return filepath.Join(dir, "sellertrends", "credentials.json"), nil
}

func loadCredentials() (*credentials, error) {
	c := &credentials{Servers: map[string]credential{}}
	path, err := credentialsPath()
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, c); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v): delete it and sign in again", path, err)
	}
	if c.Servers == nil {
		c.Servers = map[string]credential{}
	}
	return c, nil
}

// save writes the file atomically with mode 0600 (its directory 0700): it holds session tokens.
func (c *credentials) save() error {
	path, err := credentialsPath()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".credentials-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
