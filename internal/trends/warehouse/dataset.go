package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// Dataset is one marketplace and period kind of a workspace.
type Dataset struct {
	ID          int               `json:"id"`
	Workspace   string            `json:"workspace"`
	Marketplace string            `json:"marketplace"`
	Kind        report.PeriodKind `json:"kind"`
	Periods     int               `json:"periods"`
	Latest      *time.Time        `json:"latest"`
	// LowercaseTerms is true when every current term is lowercase (Amazon's files), so a
	// search can skip lowering 3M terms per query.
	LowercaseTerms bool `json:"-"`
}

// epochSunday anchors week numbers on a Sunday so Amazon's Sunday–Saturday weeks index cleanly.
var epochSunday = time.Date(1970, 1, 4, 0, 0, 0, 0, time.UTC)

// periodIndex numbers periods of one kind consecutively, so "4 periods ago" is idx-4 and a
// missing period is a missing index (a gap), never a zero.
func periodIndex(p report.Period) int {
	switch p.Kind {
	case report.Week:
		return int(p.Start.Sub(epochSunday).Hours() / (24 * 7))
	case report.Month:
		return p.Start.Year()*12 + int(p.Start.Month()) - 1
	case report.Quarter:
		return p.Start.Year()*4 + (int(p.Start.Month())-1)/3
	}
	return int(p.Start.Sub(epochSunday).Hours() / 24)
}

// PeriodIndex is periodIndex for loaders that write periods directly (the benchmark set).
func PeriodIndex(p report.Period) int { return periodIndex(p) }

// EnsureDataset returns a dataset's id, creating it on first use.
func (w *Warehouse) EnsureDataset(ctx context.Context, workspace, marketplace string, kind report.PeriodKind) (int, error) {
	return ensureDataset(ctx, w.db, workspace, marketplace, kind)
}

// periodFromIndex is periodIndex's inverse.
func periodFromIndex(kind report.PeriodKind, idx int) report.Period {
	switch kind {
	case report.Week:
		s := epochSunday.AddDate(0, 0, 7*idx)
		return report.Period{Kind: kind, Start: s, End: s.AddDate(0, 0, 6)}
	case report.Month:
		s := time.Date(idx/12, time.Month(idx%12+1), 1, 0, 0, 0, 0, time.UTC)
		return report.Period{Kind: kind, Start: s, End: s.AddDate(0, 1, -1)}
	case report.Quarter:
		s := time.Date(idx/4, time.Month(idx%4*3+1), 1, 0, 0, 0, 0, time.UTC)
		return report.Period{Kind: kind, Start: s, End: s.AddDate(0, 3, -1)}
	}
	s := epochSunday.AddDate(0, 0, idx)
	return report.Period{Kind: kind, Start: s, End: s}
}

type queryer interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// ensureDataset returns the dataset id, creating the dataset on first use.
func ensureDataset(ctx context.Context, q queryer, workspace, marketplace string, kind report.PeriodKind) (int, error) {
	if _, err := q.ExecContext(ctx, `insert into dataset (workspace, marketplace, kind) values (?, ?, ?) on conflict do nothing`, workspace, marketplace, string(kind)); err != nil {
		return 0, fmt.Errorf("dataset: create: %w", err)
	}
	var id int
	err := q.QueryRowContext(ctx, `select id from dataset where workspace = ? and marketplace = ? and kind = ?`, workspace, marketplace, string(kind)).Scan(&id)
	return id, err
}

// Datasets lists a workspace's datasets with their period count and latest period.
func (w *Warehouse) Datasets(ctx context.Context, workspace string) ([]Dataset, error) {
	rows, err := w.db.QueryContext(ctx, `select d.id, d.workspace, d.marketplace, d.kind, count(p.period_idx), max(p.start_date),
			coalesce(any_value(f.lowercase_terms), false)
		from dataset d left join period p on p.dataset_id = d.id left join dataset_flags f on f.dataset_id = d.id
		where d.workspace = ? group by d.id, d.workspace, d.marketplace, d.kind order by d.marketplace, d.kind`, workspace)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer rows.Close()
	out := []Dataset{}
	for rows.Next() {
		var d Dataset
		var kind string
		var latest sql.NullTime
		if err := rows.Scan(&d.ID, &d.Workspace, &d.Marketplace, &kind, &d.Periods, &latest, &d.LowercaseTerms); err != nil {
			return nil, err
		}
		d.Kind = report.PeriodKind(kind)
		if latest.Valid {
			d.Latest = &latest.Time
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// DatasetByID returns a dataset if it belongs to workspace (ErrNotFound otherwise).
func (w *Warehouse) DatasetByID(ctx context.Context, workspace string, id int) (*Dataset, error) {
	all, err := w.Datasets(ctx, workspace)
	if err != nil {
		return nil, err
	}
	for _, d := range all {
		if d.ID == id {
			return &d, nil
		}
	}
	return nil, ErrNotFound
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
