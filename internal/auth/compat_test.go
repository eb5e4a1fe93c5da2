package auth_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The official better-auth client (web/node_modules, installed by `make test`) signs up, signs
// in, reads the session and signs out against the Go server.
func TestBetterAuthClientCompatibility(t *testing.T) {
	modules, _ := filepath.Abs("../../web/node_modules")
	if _, err := os.Stat(filepath.Join(modules, "better-auth")); err != nil {
		t.Fatalf("better-auth is not installed in web/node_modules (run `cd web && npm ci`): %v", err)
	}
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		script, _ := filepath.Abs("testdata/compat.mjs")
		// Node resolves bare imports from the script's directory upwards: run a copy inside web/.
		copied := copyInto(t, script, filepath.Dir(modules))
		cmd := exec.CommandContext(t.Context(), "node", copied, app.URL)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v\n%s\n%s", err, out, stderr.String())
		}
		steps := map[string]map[string]any{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				steps[m["step"].(string)] = m
			}
		}
		want := func(step, key string, value any) {
			t.Helper()
			if got := steps[step][key]; got != value {
				t.Errorf("%s: %s = %v, want %v (all: %v)", step, key, got, value, steps[step])
			}
		}
		for _, s := range []string{"sign-up", "session-after-sign-up", "sign-out", "sign-in", "session-after-sign-in", "request-password-reset"} {
			if e := steps[s]["error"]; e != nil {
				t.Errorf("%s failed: %v", s, e)
			}
		}
		want("sign-up", "token", true)
		want("session-after-sign-up", "error", nil)
		want("sign-out", "success", true)
		want("session-after-sign-out", "data", nil)
		want("sign-in-wrong", "status", float64(401))
		want("sign-in-wrong", "code", "INVALID_EMAIL_OR_PASSWORD")
		want("sign-in", "redirect", false)
		want("session-after-sign-in", "hasToken", true)
		want("request-password-reset", "message", "If this email exists in our system, check your email for the reset link")
		for _, s := range []string{"update-user", "change-password", "list-sessions", "revoke-other-sessions", "list-accounts", "change-email", "delete-user"} {
			if e := steps[s]["error"]; e != nil {
				t.Errorf("%s failed: %v", s, e)
			}
		}
		want("session-after-update", "name", "Compat Renamed")
		want("change-password", "hasToken", true)
		want("list-sessions", "count", float64(1))
		want("revoke-other-sessions", "status", true)
		want("list-accounts", "provider", "credential")
		want("list-accounts", "scopes", true)
		want("unlink-last-account", "code", "FAILED_TO_UNLINK_LAST_ACCOUNT")
		want("change-email", "status", true)
		want("revoke-foreign-session", "status", true)
		want("delete-user", "message", "User deleted")
		want("session-after-delete", "data", nil)
		if steps["session-after-sign-up"]["email"] == nil || steps["session-after-sign-in"]["email"] != steps["sign-up"]["email"] {
			t.Errorf("sessions do not carry the user: %v", steps)
		}
	})
}

// copyInto copies a file into dir under a unique name, removed when the test ends.
func copyInto(t *testing.T, from, dir string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, ".compat-*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return f.Name()
}
