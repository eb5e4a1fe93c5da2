package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// PeriodCoverage is one loaded period and how much of the term space it covered.
type PeriodCoverage struct {
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Rows        int       `json:"rows"`
	DeepestRank int       `json:"deepestRank"`
	Layout      string    `json:"layout"`
	SourceName  string    `json:"sourceName"`
	SHA256      string    `json:"sha256"`
	TermsWith   [4]int    `json:"termsWithProducts"`
	Rolling     bool      `json:"rolling"`
	ImportedAt  time.Time `json:"importedAt"`
	ImportedBy  string    `json:"importedBy"`
}

// Summary is what a dataset holds: its periods, the latest, and the gaps between them.
type Summary struct {
	Dataset Dataset          `json:"dataset"`
	Periods []PeriodCoverage `json:"periods"`
	Latest  *PeriodCoverage  `json:"latest"`
	Gaps    []report.Period  `json:"gaps"`
	// NewCompared is how many earlier periods "new" compares the latest with: the loaded ones
	// of the NewLookback before it (0 with a single period: nothing is new yet).
	NewCompared int `json:"newComparedPeriods"`
	// HiddenPeriods is how many older periods the workspace's plan leaves out (the API fills it).
	HiddenPeriods int `json:"hiddenPeriods,omitempty"`
}

// DatasetSummary lists a dataset's periods with their coverage, and the missing periods.
func (w *Warehouse) DatasetSummary(ctx context.Context, d *Dataset) (*Summary, error) {
	rows, err := w.db.QueryContext(ctx, `select period_idx, start_date, end_date, rows, deepest_rank, layout, source_name, source_sha256,
		terms_0, terms_1, terms_2, terms_3, rolling, imported_at, imported_by from period where dataset_id = ? order by period_idx`, d.ID)
	if err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	defer rows.Close()
	s := &Summary{Dataset: *d, Periods: []PeriodCoverage{}, Gaps: []report.Period{}}
	prev := -1
	var idxs []int
	for rows.Next() {
		var p PeriodCoverage
		var idx int
		if err := rows.Scan(&idx, &p.Start, &p.End, &p.Rows, &p.DeepestRank, &p.Layout, &p.SourceName, &p.SHA256,
			&p.TermsWith[0], &p.TermsWith[1], &p.TermsWith[2], &p.TermsWith[3], &p.Rolling, &p.ImportedAt, &p.ImportedBy); err != nil {
			return nil, err
		}
		for gap := prev + 1; prev >= 0 && gap < idx; gap++ {
			s.Gaps = append(s.Gaps, periodFromIndex(d.Kind, gap))
		}
		prev = idx
		s.Periods, idxs = append(s.Periods, p), append(idxs, idx)
	}
	if len(s.Periods) > 0 {
		s.Latest = &s.Periods[len(s.Periods)-1]
		s.NewCompared = comparedBefore(idxs, idxs[len(idxs)-1])
	}
	return s, rows.Err()
}

// comparedBefore counts the periods of loaded (period indexes) among the NewLookback before at.
func comparedBefore(loaded []int, at int) int {
	n := 0
	for _, idx := range loaded {
		if idx < at && idx >= at-NewLookback {
			n++
		}
	}
	return n
}

// newCompared is comparedBefore for a dataset's period at (-1: the latest).
func newCompared(ctx context.Context, db interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, ds, at int) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `with l as (select coalesce(nullif(?, -1), max(period_idx)) as at from period where dataset_id = ?)
		select count(*) from period, l where dataset_id = ? and period_idx < l.at and period_idx >= l.at - ?`, at, ds, ds, NewLookback).Scan(&n)
	return n, err
}
