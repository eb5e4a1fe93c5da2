package trends

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
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
	if *b.Frequency != store.AlertsOff {
		if err := s.allowAlerts(r, cur.User.ID); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	p := store.AlertPreference{Frequency: *b.Frequency, Threshold: *b.Threshold}
	if err := s.store.SetAlertPreference(r.Context(), cur.User.ID, p, s.now()); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, alertSettingsJSON{AlertPreference: p, Email: cur.User.Email})
}

// allowAlerts refuses to switch digests on when no workspace of the user is on a plan with
// alerts (digests are per workspace and only sent for those: alerts.Notifier); the refusal
// names the plan that includes them.
func (s *Service) allowAlerts(r *http.Request, userID string) error {
	mine, err := s.store.WorkspacesOf(r.Context(), userID)
	if err != nil {
		return err
	}
	var refusal error
	for _, ws := range mine {
		p, err := s.plans(r.Context(), ws.ID)
		if err != nil {
			return err
		}
		if refusal = p.AllowFeature(plan.Alerts); refusal == nil {
			return nil
		}
	}
	if refusal == nil { // no workspace yet: the personal one is on Free until it subscribes
		refusal = plan.ByName(plan.Free).AllowFeature(plan.Alerts)
		if p, err := s.plans(r.Context(), store.PersonalWorkspaceID(userID)); err != nil || p.Limits.Alerts {
			return err
		}
	}
	return planError(refusal)
}
