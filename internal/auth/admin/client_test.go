package admin_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

// The official better-auth client, with adminClient and deviceAuthorizationClient, manages a
// user and approves a device against the Go server.
func TestOfficialAdminAndDeviceClients(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, map[string]string{"AUTH_DEVICE_INTERVAL": "1s"})
		script, _ := filepath.Abs("testdata/client.mjs")
		cmd := exec.CommandContext(t.Context(), "node", authcompare.Script(t, script), w.app.URL, w.adminMail, pw)
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
		want := map[string]map[string]any{
			"sign-in":               {"error": nil},
			"create-user":           {"error": nil, "role": "user"},
			"list-users":            {"error": nil, "total": 1.0, "email": "client-made@example.com", "limit": 10.0},
			"get-user":              {"error": nil, "email": "client-made@example.com"},
			"update-user":           {"error": nil, "name": "Renamed"},
			"set-role":              {"error": nil, "role": "user,admin"},
			"set-user-password":     {"error": nil, "status": true},
			"ban-user":              {"error": nil, "banned": true, "reason": "spam"},
			"unban-user":            {"error": nil, "banned": false},
			"has-permission":        {"error": nil, "success": true},
			"impersonate-user":      {"error": nil, "user": "client-made@example.com"},
			"session-impersonating": {"email": "client-made@example.com", "impersonatedBy": true},
			"stop-impersonating":    {"error": nil, "user": w.adminMail},
			"list-user-sessions":    {"error": nil, "count": 0.0},
			"revoke-user-sessions":  {"error": nil, "success": true},
			"device-code":           {"error": nil, "hasCode": true, "interval": 1.0},
			"device-token-pending":  {"error": map[string]any{"status": 400.0, "code": "authorization_pending"}},
			"device-verify":         {"error": nil, "status": "pending", "client": "sellertrends-cli"},
			"device-approve":        {"error": nil, "success": true},
			"device-token":          {"error": nil, "type": "Bearer", "hasToken": true},
			"bearer-session":        {"email": w.adminMail},
			"remove-user":           {"error": nil, "success": true},
		}
		for step, fields := range want {
			for k, v := range fields {
				if got := steps[step][k]; !reflect.DeepEqual(got, v) {
					t.Errorf("%s: %s = %v, want %v (all: %v)", step, k, got, v, steps[step])
				}
			}
		}
	})
}
