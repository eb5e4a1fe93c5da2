package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/config"
)

// login signs the command line in with the device flow (RFC 8628): it asks the server for a
// code, prints the code and the link (it opens nothing), and polls at the server's interval,
// slowing down by 5 s whenever the server says slow_down, until the person approves or denies
// in a browser or the code expires. The token is kept in the user's config directory.
func loginCmd(_ *config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("login", flag.ContinueOnError)
	server := fs.String("server", "", "server URL, e.g. https://trends.example.com")
	// Polling faster than the server's interval is for tests of slow_down: a real client waits.
	every := fs.Duration("poll-every", 0, "poll this often instead of the server's interval (testing)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r, err := newRemote(*server)
	if err != nil {
		return err
	}
	var code struct {
		DeviceCode      string `json:"device_code"`
		UserCode        string `json:"user_code"`
		VerificationURI string `json:"verification_uri"`
		Complete        string `json:"verification_uri_complete"`
		ExpiresIn       int    `json:"expires_in"`
		Interval        int    `json:"interval"`
	}
	if err := r.call("POST", "/api/auth/device/code", map[string]string{"client_id": clientID}, &code); err != nil {
		return fmt.Errorf("asking %s for a code: %w", r.base, err)
	}
	fmt.Fprintf(out, "To sign in, open %s and enter the code %s\n", code.VerificationURI, readable(code.UserCode))
	fmt.Fprintf(out, "(or open %s)\n", code.Complete)
	fmt.Fprintf(out, "Waiting for approval (the code expires in %d minutes)...\n", max(code.ExpiresIn/60, 1))
	interval := time.Duration(code.Interval) * time.Second
	if *every > 0 {
		interval = *every
	}
	token, err := pollToken(r, code.DeviceCode, interval, out)
	if err != nil {
		return err
	}
	r.token = token
	var sess struct {
		User struct {
			Email string `json:"email"`
		} `json:"user"`
	}
	if err := r.call("GET", "/api/auth/get-session?disableCookieCache=true", nil, &sess); err != nil {
		return fmt.Errorf("reading the new session: %w", err)
	}
	creds, err := loadCredentials()
	if err != nil {
		return err
	}
	creds.Servers[r.base] = credential{Token: token, Email: sess.User.Email}
	if err := creds.save(); err != nil {
		return fmt.Errorf("keeping the sign-in: %w", err)
	}
	fmt.Fprintf(out, "Signed in to %s as %s\n", r.base, sess.User.Email)
	return nil
}

// readable shows an 8-letter user code as ABCD-EFGH (the server ignores the dash).
func readable(code string) string {
	if len(code) == 8 {
		return code[:4] + "-" + code[4:]
	}
	return code
}

// pollToken polls /device/token until it answers a token or a final error.
func pollToken(r *remote, deviceCode string, interval time.Duration, out io.Writer) (string, error) {
	body := map[string]string{"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": deviceCode, "client_id": clientID}
	for {
		time.Sleep(interval) // RFC 8628 §3.5: wait the interval before every request
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		err := r.call("POST", "/api/auth/device/token", body, &tok)
		var e *apiError
		switch {
		case err == nil:
			return tok.AccessToken, nil
		case errors.As(err, &e) && e.Status == http.StatusBadRequest && e.OAuth == "authorization_pending":
			continue
		case errors.As(err, &e) && e.Status == http.StatusBadRequest && e.OAuth == "slow_down":
			interval += 5 * time.Second
			fmt.Fprintf(out, "The server asked to slow down: polling every %s\n", interval)
		case errors.As(err, &e) && e.OAuth == "access_denied":
			return "", errors.New("the sign-in was denied in the browser")
		case errors.As(err, &e) && e.OAuth == "expired_token":
			return "", errors.New("the code expired before it was approved: run `sellertrends login` again")
		default:
			return "", fmt.Errorf("waiting for approval: %w", err)
		}
	}
}

// logout forgets the stored sign-in of a server (or of every server) and ends its session on
// the server.
func logoutCmd(_ *config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("logout", flag.ContinueOnError)
	server := fs.String("server", "", "server URL (default: every server signed in to)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	creds, err := loadCredentials()
	if err != nil {
		return err
	}
	bases := []string{}
	if *server != "" {
		r, err := newRemote(*server)
		if err != nil {
			return err
		}
		bases = append(bases, r.base)
	} else {
		for b := range creds.Servers {
			bases = append(bases, b)
		}
	}
	for _, b := range bases {
		c, ok := creds.Servers[b]
		if !ok {
			fmt.Fprintf(out, "Not signed in to %s\n", b)
			continue
		}
		if r, err := newRemote(b); err == nil {
			r.token = c.Token
			if err := r.call("POST", "/api/auth/sign-out", map[string]any{}, nil); err != nil {
				fmt.Fprintf(out, "%s: could not end the session on the server (%v); forgetting it here anyway\n", b, err)
			}
		}
		delete(creds.Servers, b)
		fmt.Fprintf(out, "Signed out of %s\n", b)
	}
	return creds.save()
}
