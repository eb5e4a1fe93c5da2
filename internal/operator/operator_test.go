package operator_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The figures are the admins': 401 without a session, 403 for a plain user (whatever their
// permissions elsewhere), and for an admin every count as the stores hold it.
func TestFiguresAreAdminsOnly(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		admin := app.SignUp(t, "admin@example.com", "password123")
		user := app.SignUp(t, "user@example.com", "password123")
		app.Client(t).Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "user@example.com", "password": "password123"}) // a second session
		if _, err := st.DB().Exec(st.Rebind(`update "user" set "role" = 'admin' where "email" = ?`), "admin@example.com"); err != nil {
			t.Fatal(err)
		}
		if res := app.Client(t).Do("GET", "/api/admin/figures", nil); res.Status != http.StatusUnauthorized {
			t.Errorf("anonymous: %d %s", res.Status, res.Body)
		}
		if res := user.Do("GET", "/api/admin/figures", nil); res.Status != http.StatusForbidden || res.JSON(t)["code"] != "FORBIDDEN" {
			t.Errorf("user: %d %s", res.Status, res.Body)
		}

		ws := user.Do("GET", "/api/workspaces", nil)
		var list []map[string]any
		if err := json.Unmarshal(ws.Body, &list); err != nil || len(list) == 0 {
			t.Fatalf("workspaces: %s", ws.Body)
		}
		importFile(t, user, app.URL, list[0]["id"].(string), "../trends/testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")

		res := admin.Do("GET", "/api/admin/figures", nil)
		if res.Status != http.StatusOK {
			t.Fatalf("admin: %d %s", res.Status, res.Body)
		}
		f := res.JSON(t)
		want := map[string]float64{"users": 2, "activeSessions": 3, "workspaces": 2, "datasets": 1, "importsLastDay": 1}
		for k, v := range want {
			if f[k] != v {
				t.Errorf("%s = %v, want %v (%s)", k, f[k], v, res.Body)
			}
		}
		stores := f["stores"].(map[string]any)
		kind := "sqlite"
		if st.Postgres() {
			kind = "postgres"
		}
		if stores["sqlBytes"].(float64) <= 0 || stores["duckdbBytes"].(float64) <= 0 || stores["sqlKind"] != kind {
			t.Errorf("stores %v", stores)
		}
		files := f["duckdbFiles"].([]any)
		if len(files) == 0 || files[0].(map[string]any)["name"] == "" {
			t.Errorf("files %v", files)
		}
		// Sessions that ended do not count.
		if _, err := st.DB().Exec(st.Rebind(`update "session" set "expiresAt" = ? where "userId" = (select "id" from "user" where "email" = ?)`),
			st.Time(time.Now().Add(-time.Hour).UTC()), "user@example.com"); err != nil {
			t.Fatal(err)
		}
		if n := admin.Do("GET", "/api/admin/figures", nil).JSON(t)["activeSessions"]; n != float64(1) {
			t.Errorf("after the user's sessions expired: %v active", n)
		}
	})
}

// importFile uploads a report and waits for its job.
func importFile(t *testing.T, c *testkit.Client, base, ws, path string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("files", "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/trends/"+ws+"/imports", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", base)
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Jobs []struct{ ID string } `json:"jobs"`
	}
	err = json.NewDecoder(res.Body).Decode(&out)
	res.Body.Close()
	if err != nil || len(out.Jobs) != 1 {
		t.Fatalf("upload: %d %v", res.StatusCode, err)
	}
	if job := c.Do("GET", "/api/trends/"+ws+"/imports/"+out.Jobs[0].ID+"?wait=true", nil).JSON(t); job["state"] != "done" {
		t.Fatalf("job %v", job)
	}
}
