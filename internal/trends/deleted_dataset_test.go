package trends

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// A question that fails on a dataset whose workspace is being deleted answers 404, not a
// server error (the warehouse's TestAPageOfAWorkspaceDeletedMeanwhileFindsItMarked sets up the
// race that makes it fail); a failure on any other dataset stays a server error.
func TestAQuestionOnADeletedDatasetAnswers404(t *testing.T) {
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, t.TempDir(), "256MB")
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	size := demo.Size{Terms: 40, Weeks: 2, Seed: 3, End: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)}
	for _, ws := range []string{"gone", "kept"} {
		if err := demo.Build(ctx, wh, ws, size, nil); err != nil {
			t.Fatal(err)
		}
	}
	dataset := func(ws string) *warehouse.Dataset {
		sets, err := wh.Datasets(ctx, ws)
		if err != nil || len(sets) != 1 {
			t.Fatalf("%s: %v %v", ws, sets, err)
		}
		return &sets[0]
	}
	gone, kept := dataset("gone"), dataset("kept")
	if err := wh.DeleteWorkspace(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	s := &Service{wh: wh}
	failed := errors.New("Catalog Error: Table with name term_items_1 does not exist")
	for _, c := range []struct {
		d      *warehouse.Dataset
		status int
	}{{gone, http.StatusNotFound}, {kept, http.StatusInternalServerError}} {
		w, r := httptest.NewRecorder(), httptest.NewRequest("GET", "/api/trends/products/B000000001", nil)
		httpx.WriteError(w, r, s.datasetQuestionError(w, r, c.d, failed))
		if w.Code != c.status {
			t.Errorf("dataset %d: %d %s, want %d", c.d.ID, w.Code, w.Body, c.status)
		}
	}
}
