package trends

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

// MaxAlertThreshold caps the rank-move threshold: a move of 500% (rank 100 → 600) or more.
const MaxAlertThreshold = 500

type alertSettingsJSON struct {
	store.AlertPreference
	Email string `json:"email"` // where the digests go
}

// alertSettings answers the caller's alert preference (the default until they choose).
func (s *Service) alertSettings(w http.ResponseWriter, r *http.Request) {
	cur, _ := auth.SessionFrom(r.Context())
	p, err := s.store.AlertPreference(r.Context(), cur.User.ID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, alertSettingsJSON{AlertPreference: p, Email: cur.User.Email})
}

type alertSettingsBody struct {
	Frequency *string `json:"frequency"`
	Threshold *int    `json:"threshold"`
}

// putAlertSettings stores the caller's preference; both fields are required.
func (s *Service) putAlertSettings(w http.ResponseWriter, r *http.Request) {
	cur, _ := auth.SessionFrom(r.Context())
	var b alertSettingsBody
	if err := httpx.DecodeJSON(w, r, &b, 1024); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	switch {
	case b.Frequency == nil || (*b.Frequency != store.AlertsAfterImport && *b.Frequency != store.AlertsWeekly && *b.Frequency != store.AlertsOff):
		httpx.WriteError(w, r, httpx.BadRequest("frequency: must be import, weekly or off"))
		return
	case b.Threshold == nil || *b.Threshold < 1 || *b.Threshold > MaxAlertThreshold:
		httpx.WriteError(w, r, httpx.BadRequest("threshold: must be a whole percent from 1 to 500"))
		return
	}
	p := store.AlertPreference{Frequency: *b.Frequency, Threshold: *b.Threshold}
	if err := s.store.SetAlertPreference(r.Context(), cur.User.ID, p, s.now()); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, alertSettingsJSON{AlertPreference: p, Email: cur.User.Email})
}
