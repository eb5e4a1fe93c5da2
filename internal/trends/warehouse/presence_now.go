package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// PresenceNow is where a product or brand stands in a dataset's latest period: in how many
// terms' top 3 clicked it is, and its best-ranked such term (the watchlist's latest numbers).
type PresenceNow struct {
	Terms      int      `json:"terms"`
	BestTerm   string   `json:"bestTerm,omitempty"`
	BestRank   int      `json:"bestRank,omitempty"`
	Slot       int      `json:"slot,omitempty"` // 1..3 among the top clicked of BestTerm
	ClickShare *float64 `json:"clickShare,omitempty"`
	Title      string   `json:"title,omitempty"` // a product's title
}

// ProductNow answers PresenceNow for an ASIN (found as a product page finds it: asinOf); an
// ASIN the warehouse has never seen is in no term.
func (w *Warehouse) ProductNow(ctx context.Context, d *Dataset, asin string) (*PresenceNow, error) {
	id, title, err := w.asinOf(ctx, strings.ToUpper(asin))
	if errors.Is(err, sql.ErrNoRows) {
		return &PresenceNow{}, nil
	} else if err != nil {
		return nil, fmt.Errorf("product now: %w", err)
	}
	p, err := w.presenceNow(ctx, d, "asin", id)
	if p != nil {
		p.Title = title.String
	}
	return p, err
}

// BrandNow answers PresenceNow for a brand (matched without regard to case, as BrandTerms does).
func (w *Warehouse) BrandNow(ctx context.Context, d *Dataset, brand string) (*PresenceNow, error) {
	var id int
	err := w.db.QueryRowContext(ctx, `select id from brand where lower(name) = lower(?) order by id limit 1`, brand).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return &PresenceNow{}, nil
	} else if err != nil {
		return nil, fmt.Errorf("brand now: %w", err)
	}
	return w.presenceNow(ctx, d, "brand", id)
}

// presenceNow reads the latest period's rows where one of the three slot columns holds id: one
// period is a single scan of at most a few million narrow rows. Only the best-ranked row's term
// is read from the dictionary: joining every matching row to it (370k terms for a common brand
// on the 3M x 156 set) cost 275-480 ms a brand. column is "asin" or "brand", never user input.
func (w *Warehouse) presenceNow(ctx context.Context, d *Dataset, column string, id int) (*PresenceNow, error) {
	q := fmt.Sprintf(`with m as (
			select f.term_id, f.rank,
				case when f.%[1]s1 = ? then 1 when f.%[1]s2 = ? then 2 else 3 end as slot,
				case when f.%[1]s1 = ? then f.click1 when f.%[1]s2 = ? then f.click2 else f.click3 end as click
			from fact f
			where f.dataset_id = ? and f.period_idx = (select max(period_idx) from period where dataset_id = ?)
				and (f.%[1]s1 = ? or f.%[1]s2 = ? or f.%[1]s3 = ?)),
		best as (select * from m order by rank, term_id limit 1)
		select (select count(*) from m), t.term, b.rank, b.slot, b.click
		from best b join term t on t.dataset_id = ? and t.id = b.term_id`, column)
	var p PresenceNow
	var click sql.NullInt64
	err := w.db.QueryRowContext(ctx, q, id, id, id, id, d.ID, d.ID, id, id, id, d.ID).Scan(&p.Terms, &p.BestTerm, &p.BestRank, &p.Slot, &click)
	if errors.Is(err, sql.ErrNoRows) {
		return &PresenceNow{}, nil
	} else if err != nil {
		return nil, fmt.Errorf("presence now: %w", err)
	}
	p.ClickShare = share(click)
	return &p, nil
}
