// Package plan holds the product's plans and their limits as data, and the checks the server
// runs before a request that touches a limit. No I/O: callers say which plan a workspace is on
// and how much it already uses.
package plan

import (
	"fmt"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Name is a plan's slug: the key of POLAR_PRODUCTS and what a subscription grants.
type Name string

const (
	Free Name = "free"
	Pro  Name = "pro"
	Team Name = "team"
)

// Unlimited marks a limit that does not apply.
const Unlimited = -1

// Limits are what a plan allows (../shared/product/trends.md, "Plans").
type Limits struct {
	Datasets       int  `json:"datasets"`       // datasets (marketplaces) in the workspace
	HistoryPeriods int  `json:"historyPeriods"` // most recent periods visible (Unlimited: all history)
	WatchlistItems int  `json:"watchlistItems"` // terms, products and brands watched, together
	Seats          int  `json:"seats"`          // members plus pending invitations
	Alerts         bool `json:"alerts"`         // email digests
	Exports        bool `json:"exports"`        // CSV exports
	API            bool `json:"api"`            // bearer-token access to the trends API (command line, scripts)
}

// Plan is a named set of limits.
type Plan struct {
	Name   Name   `json:"name"`
	Title  string `json:"title"`
	Limits Limits `json:"limits"`
}

// Catalogue lists the plans from the smallest up: an upgrade offers the first one that lifts a
// limit.
var Catalogue = []Plan{
	{Name: Free, Title: "Free", Limits: Limits{Datasets: 1, HistoryPeriods: 13, WatchlistItems: 10, Seats: 1}},
	{Name: Pro, Title: "Pro", Limits: Limits{Datasets: 1, HistoryPeriods: Unlimited, WatchlistItems: 500, Seats: 3, Alerts: true, Exports: true}},
	{Name: Team, Title: "Team", Limits: Limits{Datasets: Unlimited, HistoryPeriods: Unlimited, WatchlistItems: Unlimited, Seats: 10, Alerts: true, Exports: true, API: true}},
}

// Everything is what a workspace gets when plans are not enforced (PLANS_ENFORCED=false).
var Everything = Plan{Name: "unlimited", Title: "Unlimited", Limits: Limits{Datasets: Unlimited, HistoryPeriods: Unlimited,
	WatchlistItems: Unlimited, Seats: Unlimited, Alerts: true, Exports: true, API: true}}

// ByName returns a plan of the catalogue (Free for an unknown name).
func ByName(n Name) Plan {
	for _, p := range Catalogue {
		if p.Name == n {
			return p
		}
	}
	return Catalogue[0]
}

// Valid reports whether n names a plan of the catalogue.
func Valid(n Name) bool {
	for _, p := range Catalogue {
		if p.Name == n {
			return true
		}
	}
	return false
}

// Feature is a limit a request may run into.
type Feature string

const (
	Datasets  Feature = "datasets"
	History   Feature = "history" // periods older than the plan's latest HistoryPeriods
	Watchlist Feature = "watchlist"
	Seats     Feature = "seats"
	Alerts    Feature = "alerts"
	Exports   Feature = "exports"
	API       Feature = "api"
)

// LimitError is the 403 a request over its plan's limit answers. Its message names the plan that
// lifts the limit, so the screen can offer that upgrade.
type LimitError struct {
	Feature Feature
	Current Name
	Upgrade Name // "" when no plan lifts it
}

func (e *LimitError) Error() string { return e.HTTP().Message }

// HTTP is the error as the API answers it: 403 PLAN_LIMIT_REACHED.
func (e *LimitError) HTTP() *httpx.Error {
	what := map[Feature]string{
		Datasets: "More datasets", History: "Older periods", Watchlist: "More watchlist items", Seats: "More members",
		Alerts: "Email alerts", Exports: "Exports", API: "API access",
	}[e.Feature]
	msg := fmt.Sprintf("%s are not included in the %s plan.", what, ByName(e.Current).Title)
	if e.Upgrade != "" {
		msg += fmt.Sprintf(" Upgrade to %s to get them.", ByName(e.Upgrade).Title)
	}
	return httpx.NewError(http.StatusForbidden, "PLAN_LIMIT_REACHED", msg)
}

// Allow checks one more use of a counted feature (datasets, history periods, watchlist items,
// seats): used is what the workspace has now, adding how many the request adds.
func (p Plan) Allow(f Feature, used, adding int) error {
	limit := p.count(f)
	if limit == Unlimited || used+adding <= limit {
		return nil
	}
	return p.refuse(f, used+adding)
}

// AllowFeature checks an on/off feature (alerts, exports, API access).
func (p Plan) AllowFeature(f Feature) error {
	if p.has(f) {
		return nil
	}
	return p.refuse(f, 0)
}

// VisiblePeriods is how many of the latest periods the plan shows (Unlimited: all).
func (p Plan) VisiblePeriods() int { return p.Limits.HistoryPeriods }

func (p Plan) count(f Feature) int {
	switch f {
	case Datasets:
		return p.Limits.Datasets
	case History:
		return p.Limits.HistoryPeriods
	case Watchlist:
		return p.Limits.WatchlistItems
	case Seats:
		return p.Limits.Seats
	}
	return Unlimited
}

func (p Plan) has(f Feature) bool {
	switch f {
	case Alerts:
		return p.Limits.Alerts
	case Exports:
		return p.Limits.Exports
	case API:
		return p.Limits.API
	}
	return true
}

// refuse names the first larger plan that would allow the request.
func (p Plan) refuse(f Feature, need int) error {
	e := &LimitError{Feature: f, Current: p.Name}
	for _, q := range Catalogue[rank(p.Name)+1:] {
		if q.lifts(f, need) {
			e.Upgrade = q.Name
			break
		}
	}
	return e
}

// lifts reports whether the plan allows need uses of a counted feature, or has an on/off one.
func (p Plan) lifts(f Feature, need int) bool {
	switch f {
	case Datasets, History, Watchlist, Seats:
		limit := p.count(f)
		return limit == Unlimited || need <= limit
	}
	return p.has(f)
}

func rank(n Name) int {
	for i, p := range Catalogue {
		if p.Name == n {
			return i
		}
	}
	return -1
}
