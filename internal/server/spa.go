package server

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/config"
)

// newSPA serves the embedded React app. Placeholder until the web app lands.
func newSPA(cfg *config.Config) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Not Found", http.StatusNotFound)
	})
}
