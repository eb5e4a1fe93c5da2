package trends

import "github.com/sellertrends/sellertrends/internal/trends/warehouse"

// The answers of the routes that are not a warehouse or store type themselves. They are types,
// not maps, so the OpenAPI document describes them from the same definitions the handlers fill.

type datasetsAnswer struct {
	Workspace string              `json:"workspace"`
	Demo      bool                `json:"demo"`
	Datasets  []warehouse.Dataset `json:"datasets"`
}

type overviewAnswer struct {
	Summary   *warehouse.Summary `json:"summary"`
	Window    int                `json:"window"` // periods the changes compare over: 4, or 1 until 5 are loaded
	Demo      bool               `json:"demo"`
	Risers    *warehouse.Page    `json:"risers"`
	Fallers   *warehouse.Page    `json:"fallers"`
	New       *warehouse.Page    `json:"new"`
	Breakouts *warehouse.Page    `json:"breakouts"`
	ComingUp  *warehouse.Page    `json:"comingUp"`
}

// estimate travels with every estimated number so the UI can state its assumptions.
type estimate struct {
	Label       string `json:"label"`
	Assumptions string `json:"assumptions"`
}

type historyAnswer struct {
	Terms    []warehouse.TermHistory `json:"terms"`
	Estimate estimate                `json:"estimate"`
}

type rootWordsAnswer struct {
	RootWord *warehouse.RootWord `json:"rootWord"`
	Estimate estimate            `json:"estimate"`
}

type jobsAnswer struct {
	Jobs []Job `json:"jobs"`
}

type watchlistAnswer struct {
	Items []watchItemJSON `json:"items"`
	Limit int             `json:"limit"` // the plan's most items
}

// csvText stands for a CSV download in the document.
type csvText string

// namesAnswer is the explore filters' suggestions.
type namesAnswer struct {
	Names []string `json:"names"`
}
