package warehouse

import (
	"context"
	"fmt"
	"strings"
)

// MaxNames is how many suggestions Names answers at most.
const MaxNames = 20

// Names suggests the brand or category names of a dataset's latest period that start with
// prefix (case-insensitive), most frequent first: brands as the terms' top clicked brand,
// categories as their top clicked category or, in older files, their department. Only names of
// this dataset are offered, never another workspace's.
func (w *Warehouse) Names(ctx context.Context, d *Dataset, kind, prefix string) ([]string, error) {
	prefix = strings.ToLower(prefix)
	var q string
	var args []any
	switch kind {
	case "brand":
		q = `select b.name from term_stats s join brand b on b.id = s.brand1
			where s.dataset_id = ? and starts_with(lower(b.name), ?)
			group by b.name order by count(*) desc, b.name limit ?`
		args = []any{d.ID, prefix, MaxNames}
	case "category":
		q = `select name from (
				select c.name, count(*) n from term_stats s join category c on c.id = s.cat1
				where s.dataset_id = ? and starts_with(lower(c.name), ?) group by c.name
				union all
				select department, count(*) from fact
				where dataset_id = ? and period_idx = (select max(period_idx) from period where dataset_id = ?)
					and department is not null and department <> '' and starts_with(lower(department), ?)
				group by department)
			group by name order by sum(n) desc, name limit ?`
		args = []any{d.ID, prefix, d.ID, d.ID, prefix, MaxNames}
	default:
		return nil, fmt.Errorf("names: unknown kind %q", kind)
	}
	names, err := queryColumn[string](ctx, w.db, q, args...)
	if err != nil {
		return nil, fmt.Errorf("names: %w", err)
	}
	if names == nil {
		names = []string{}
	}
	return names, nil
}
