package warehouse

import (
	"context"
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
		s.Periods = append(s.Periods, p)
	}
	if len(s.Periods) > 0 {
		s.Latest = &s.Periods[len(s.Periods)-1]
	}
	return s, rows.Err()
}
