package plan

import (
	"errors"
	"strings"
	"testing"
)

func TestLimitsPerPlan(t *testing.T) {
	cases := []struct {
		plan    Name
		feature Feature
		used    int
		adding  int
		upgrade Name // "" allowed; "-" refused with no larger plan
	}{
		{Free, Watchlist, 9, 1, ""},
		{Free, Watchlist, 10, 1, Pro},
		{Free, Watchlist, 0, 501, Team}, // Pro's 500 would not be enough
		{Pro, Watchlist, 500, 1, Team},
		{Team, Watchlist, 100000, 1, ""},
		{Free, Datasets, 0, 1, ""},
		{Free, Datasets, 1, 1, Team},
		{Pro, Datasets, 1, 1, Team},
		{Team, Datasets, 40, 1, ""},
		{Free, Seats, 1, 1, Pro},
		{Pro, Seats, 3, 1, Team},
		{Team, Seats, 10, 1, "-"},
		{Free, History, 13, 0, ""},
		{Free, History, 14, 0, Pro}, // a 13-period change needs 14 periods
		{Pro, History, 1000, 0, ""},
		{Team, History, 1000, 0, ""},
	}
	for _, c := range cases {
		err := ByName(c.plan).Allow(c.feature, c.used, c.adding)
		checkRefusal(t, string(c.plan)+"/"+string(c.feature), err, c.upgrade)
	}
	for _, c := range []struct {
		plan    Name
		feature Feature
		upgrade Name
	}{
		{Free, Alerts, Pro}, {Free, Exports, Pro}, {Free, API, Team}, {Pro, API, Team},
		{Pro, Alerts, ""}, {Pro, Exports, ""}, {Team, API, ""},
	} {
		checkRefusal(t, string(c.plan)+"/"+string(c.feature), ByName(c.plan).AllowFeature(c.feature), c.upgrade)
	}
	if ByName(Free).VisiblePeriods() != 13 || ByName(Pro).VisiblePeriods() != Unlimited {
		t.Errorf("history depth: free %d, pro %d", ByName(Free).VisiblePeriods(), ByName(Pro).VisiblePeriods())
	}
	if err := Everything.Allow(Seats, 1e6, 1); err != nil || Everything.AllowFeature(API) != nil {
		t.Errorf("unenforced plan refused: %v", err)
	}
}

func checkRefusal(t *testing.T, name string, err error, upgrade Name) {
	t.Helper()
	if upgrade == "" {
		if err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
		return
	}
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("%s: allowed, want a refusal", name)
	}
	h := le.HTTP()
	if h.Status != 403 || h.Code != "PLAN_LIMIT_REACHED" {
		t.Errorf("%s: %d %s", name, h.Status, h.Code)
	}
	if upgrade == "-" {
		if le.Upgrade != "" || strings.Contains(h.Message, "Upgrade") {
			t.Errorf("%s: offers %q: %s", name, le.Upgrade, h.Message)
		}
		return
	}
	if le.Upgrade != upgrade || !strings.Contains(h.Message, "Upgrade to "+ByName(upgrade).Title) {
		t.Errorf("%s: upgrade %q, message %q; want %s", name, le.Upgrade, h.Message, upgrade)
	}
}
