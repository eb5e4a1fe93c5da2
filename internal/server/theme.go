package server

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// The theme is read and saved through two server-function endpoints, POST /_serverFn/{id} with
// the query marker ?createServerFn (the shape TanStack Start uses), and kept in a cookie so the
// server can render the class into the HTML before anything paints.
const (
	themeCookie   = "theme"
	getThemeFnID  = "getTheme"
	setThemeFnID  = "setTheme"
	serverFnQuery = "createServerFn"
)

func themeFrom(r *http.Request) string {
	if c, err := r.Cookie(themeCookie); err == nil && (c.Value == "dark" || c.Value == "light") {
		return c.Value
	}
	return "light"
}

func serverFn(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "server functions are called with POST", http.StatusMethodNotAllowed)
		return
	}
	if err := httpx.CheckContentType(r, httpx.JSONOnly); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if !r.URL.Query().Has(serverFnQuery) {
		http.Error(w, "missing the ?createServerFn marker", http.StatusBadRequest)
		return
	}
	switch r.PathValue("id") {
	case getThemeFnID:
		writeTheme(w, themeFrom(r))
	case setThemeFnID:
		setTheme(w, r)
	default:
		http.Error(w, "unknown server function", http.StatusNotFound)
	}
}

func setTheme(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Data string `json:"data"`
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1024))
	if err != nil || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "expected a JSON body {\"data\": \"light\" | \"dark\"}", http.StatusBadRequest)
		return
	}
	if body.Data != "light" && body.Data != "dark" {
		http.Error(w, "theme must be light or dark", http.StatusBadRequest)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: themeCookie, Value: body.Data, Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
	writeTheme(w, body.Data)
}

func writeTheme(w http.ResponseWriter, theme string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]string{"theme": theme})
}
