package trends

import (
	"errors"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/plan"
)

// allow checks an on/off feature of the workspace's plan (exports, alerts, API access).
func (s *Service) allow(r *http.Request, workspace string, f plan.Feature) error {
	if workspace == DemoWorkspace {
		return nil // the demo is a showcase: everything on it is open
	}
	p, err := s.plans(r.Context(), workspace)
	if err != nil {
		return err
	}
	return planError(p.AllowFeature(f))
}

// planError turns a plan refusal into its 403 (PLAN_LIMIT_REACHED, naming the plan that lifts
// it); other errors pass through.
func planError(err error) error {
	var le *plan.LimitError
	if errors.As(err, &le) {
		return le.HTTP()
	}
	return err
}
