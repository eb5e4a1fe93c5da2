package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// `sellertrends import` takes the only workspace without --workspace, asks when there are
// several, and takes an email for that user's personal workspace; `sellertrends workspaces`
// lists them. Each file is a recorded job of the runner, as an upload is.
func TestImportFindsTheWorkspace(t *testing.T) {
	cfg := testConfig(t)
	ctx := context.Background()
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out strings.Builder
	if err := importCmd(cfg, []string{sample}, &out); err == nil || !strings.Contains(err.Error(), "no workspace yet") {
		t.Fatalf("no workspace: %v", err)
	}
	now := time.Now().UTC()
	addUser := func(id, email string) {
		if err := st.CreateUser(ctx, &store.User{ID: id, Name: id, Email: email, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := st.EnsurePersonalWorkspace(ctx, id, id, now); err != nil {
			t.Fatal(err)
		}
	}
	addUser("ann", "ann@example.com")
	if err := importCmd(cfg, []string{sample}, &out); err != nil {
		t.Fatalf("the only workspace: %v\n%s", err, out.String())
	}
	addUser("bob", "bob@example.com")
	if err := importCmd(cfg, []string{sample}, &out); err == nil || !strings.Contains(err.Error(), "2 workspaces") {
		t.Fatalf("two workspaces and no --workspace: %v", err)
	}
	if err := importCmd(cfg, []string{"--workspace", "BOB@example.com", sample}, &out); err != nil {
		t.Fatalf("--workspace by email: %v\n%s", err, out.String())
	}
	if err := importCmd(cfg, []string{"--workspace", "nobody@example.com", sample}, &out); err == nil || !strings.Contains(err.Error(), "no user") {
		t.Fatalf("an unknown email: %v", err)
	}

	wh, err := warehouse.Open(ctx, cfg.DataDir, "256MB")
	if err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{"personal-ann", "personal-bob"} {
		if sets, err := wh.Datasets(ctx, ws); err != nil || len(sets) != 1 || sets[0].Periods != 1 {
			t.Errorf("%s: %+v %v", ws, sets, err)
		}
		jobs, err := st.ImportJobs(ctx, ws, 10)
		if err != nil || len(jobs) != 1 || jobs[0].Source != "cli" || jobs[0].State != "done" {
			t.Errorf("%s: recorded jobs %+v %v", ws, jobs, err)
		}
	}
	wh.Close()

	out.Reset()
	if err := workspacesCmd(cfg, nil, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"personal-ann", "ann@example.com", "personal-bob", "bob@example.com"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("workspaces lists no %q:\n%s", want, out.String())
		}
	}
}
