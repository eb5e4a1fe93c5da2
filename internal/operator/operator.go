// Package operator answers the figures an operator watches on the admin page: users, active
// sessions, workspaces, datasets, imports in the last day and the stores' sizes. It reads the
// SQL store and the trends warehouse; who may ask is the admin plugin's business (cli wires
// its guard around the handler).
package operator

import (
	"context"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Path is where the figures are served.
const Path = "/api/admin/figures"

// Figures is the answer.
type Figures struct {
	Users          int                  `json:"users"`
	ActiveSessions int                  `json:"activeSessions"`
	Workspaces     int                  `json:"workspaces"`
	Datasets       int                  `json:"datasets"`
	ImportsLastDay int                  `json:"importsLastDay"` // periods imported in the last 24 hours
	Stores         Stores               `json:"stores"`
	DuckDBFiles    []warehouse.FileSize `json:"duckdbFiles"`
	At             time.Time            `json:"at"`
}

// Stores are the sizes on disk, in bytes.
type Stores struct {
	SQL     int64  `json:"sqlBytes"`
	SQLKind string `json:"sqlKind"` // sqlite or postgres
	DuckDB  int64  `json:"duckdbBytes"`
}

// Handler answers GET Path.
func Handler(st *store.Store, wh *warehouse.Warehouse) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+Path, func(w http.ResponseWriter, r *http.Request) {
		f, err := Gather(r.Context(), st, wh, time.Now().UTC())
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		httpx.WriteJSON(w, http.StatusOK, f)
	})
	mux.HandleFunc("/api/admin/", httpx.NotFound)
	return mux
}

// Gather reads every figure as of now.
func Gather(ctx context.Context, st *store.Store, wh *warehouse.Warehouse, now time.Time) (*Figures, error) {
	db, err := st.Figures(ctx, now)
	if err != nil {
		return nil, err
	}
	tr, err := wh.Figures(ctx, now.Add(-24*time.Hour))
	if err != nil {
		return nil, err
	}
	f := &Figures{Users: db.Users, ActiveSessions: db.ActiveSessions, Workspaces: db.Workspaces, Datasets: tr.Datasets,
		ImportsLastDay: tr.Imports, DuckDBFiles: tr.Files, At: now, Stores: Stores{SQL: db.DatabaseBytes, SQLKind: "sqlite"}}
	if st.Postgres() {
		f.Stores.SQLKind = "postgres"
	}
	for _, file := range tr.Files {
		f.Stores.DuckDB += file.Bytes
	}
	return f, nil
}
