package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// The alert digests' questions (internal/trends/alerts): what changed between two periods for a
// workspace's watched terms, products and brands, and which breakouts contain a watched term.
// Each reads only the two periods' rows of fact (zone maps on period_idx), for every watched
// item at once: asking the product page's and the term page's questions item by item took
// about a minute for 128 items on a 1M-term set.

// TermPair is a term in two periods: Rank 0 means not ranked then; Products are the top 3
// clicked (ASIN and title only).
type TermPair struct {
	Term     string
	Rank     [2]int // previous, latest
	Products [2][]ProductShare
}

// TermPairs reads the terms' ranks and top-3 products in the periods starting at prev and cur.
// Terms the dataset never had are left out.
func (w *Warehouse) TermPairs(ctx context.Context, d *Dataset, terms []string, prev, cur time.Time) ([]TermPair, error) {
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	_, names, err := periodStatesAndTermIDs(ctx, tx, d.ID, terms)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	ids := make([]string, 0, len(names))
	for id := range names {
		ids = append(ids, strconv.FormatInt(id, 10))
	}
	idx := twoPeriods(d.Kind, prev, cur)
	// Every value inlined is an integer of ours.
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`select term_id, period_idx, rank, asin1, asin2, asin3 from fact
		where dataset_id = %d and period_idx in (%d, %d) and term_id in (%s)`, d.ID, idx[0], idx[1], strings.Join(ids, ",")))
	if err != nil {
		return nil, fmt.Errorf("term pairs: %w", err)
	}
	defer rows.Close()
	pairs := map[string]*TermPair{}
	asins := map[int64]bool{}
	var slots []struct {
		p    *TermPair
		at   int
		asin [3]sql.NullInt64
	}
	for rows.Next() {
		var termID int64
		var period, rank int
		var a [3]sql.NullInt64
		if err := rows.Scan(&termID, &period, &rank, &a[0], &a[1], &a[2]); err != nil {
			return nil, err
		}
		term := names[termID]
		p := pairs[term]
		if p == nil {
			p = &TermPair{Term: term}
			pairs[term] = p
		}
		at := 0
		if period == idx[1] {
			at = 1
		}
		p.Rank[at] = rank
		for _, v := range a {
			if v.Valid {
				asins[v.Int64] = true
			}
		}
		slots = append(slots, struct {
			p    *TermPair
			at   int
			asin [3]sql.NullInt64
		}{p, at, a})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	dict, err := w.dictionaryNames(ctx, map[string]map[int64]bool{"asin": asins})
	if err != nil {
		return nil, err
	}
	for _, s := range slots {
		for _, v := range s.asin {
			if v.Valid {
				n := dict["asin"][v.Int64]
				s.p.Products[s.at] = append(s.p.Products[s.at], ProductShare{ASIN: n[0], Title: n[1]})
			}
		}
	}
	out := make([]TermPair, 0, len(pairs))
	for _, t := range terms { // the caller's order
		if p, ok := pairs[t]; ok {
			out = append(out, *p)
			delete(pairs, t)
		}
	}
	return out, nil
}

// twoPeriods is the index of the periods starting at prev and cur.
func twoPeriods(kind report.PeriodKind, prev, cur time.Time) [2]int {
	return [2]int{periodIndex(report.Period{Kind: kind, Start: prev}), periodIndex(report.Period{Kind: kind, Start: cur})}
}

// SlotChange is a product or brand entering or leaving a term's top 3 between two periods.
type SlotChange struct {
	Term    string
	Key     string // the ASIN or brand name
	Title   string // the product's title
	Entered bool   // false: it left
}

// SlotChanges lists the terms whose top 3 clicked products (column "asin", keys are ASINs) or
// brands ("brand", keys are names, any case) one of keys entered or left between the periods
// starting at prev and cur: at most limit, best-ranked first.
func (w *Warehouse) SlotChanges(ctx context.Context, d *Dataset, column string, keys []string, prev, cur time.Time, limit int) ([]SlotChange, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	named, ids, err := w.slotKeys(ctx, column, keys)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	idx := twoPeriods(d.Kind, prev, cur)
	list := strings.Join(ids, ",")
	// Every value inlined is an integer of ours; column is "asin" or "brand".
	c := "asin"
	if column == "brand" {
		c = "brand"
	}
	q := fmt.Sprintf(`with hits as (
			select term_id, period_idx, rank, unnest([%[1]s1, %[1]s2, %[1]s3]) as id from fact
			where dataset_id = %[2]d and period_idx in (%[3]d, %[4]d) and (%[1]s1 in (%[5]s) or %[1]s2 in (%[5]s) or %[1]s3 in (%[5]s))),
		changed as (
			select term_id, id, bool_or(period_idx = %[4]d) as now, min(rank) as best from hits where id in (%[5]s)
			group by term_id, id having bool_or(period_idx = %[3]d) <> bool_or(period_idx = %[4]d)
			order by best, term_id, id limit %[6]d)
		select t.term, c.id, c.now from changed c join term t on t.dataset_id = %[2]d and t.id = c.term_id
		order by c.best, c.term_id, c.id`, c, d.ID, idx[0], idx[1], list, limit)
	rows, err := w.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("slot changes: %w", err)
	}
	defer rows.Close()
	var out []SlotChange
	for rows.Next() {
		var s SlotChange
		var id int64
		if err := rows.Scan(&s.Term, &id, &s.Entered); err != nil {
			return nil, err
		}
		s.Key, s.Title = named[id][0], named[id][1]
		out = append(out, s)
	}
	return out, rows.Err()
}

// slotKeys finds SlotChanges' keys in their dictionary: each id with its key and, for a
// product, its title. Products are found through the ASIN index (asinOf): matching the codes in
// SQL scanned the 15M-code dictionary, 0.6-1.6 s of a digest's 2-ASIN query on the 3M x 156 set.
func (w *Warehouse) slotKeys(ctx context.Context, column string, keys []string) (map[int64][2]string, []string, error) {
	named := map[int64][2]string{}
	var ids []string
	found := func(id int64, key, title string) {
		if _, dup := named[id]; !dup {
			named[id] = [2]string{key, title}
			ids = append(ids, strconv.FormatInt(id, 10))
		}
	}
	if column != "brand" {
		for _, k := range keys {
			code := strings.ToUpper(k)
			id, title, err := w.asinOf(ctx, code)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			} else if err != nil {
				return nil, nil, fmt.Errorf("slot changes: %w", err)
			}
			found(int64(id), code, title.String)
		}
		return named, ids, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = strings.ToLower(k)
	}
	rows, err := w.db.QueryContext(ctx, `select id, name from brand where lower(name) in (`+placeholders(len(keys))+`)`, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("slot changes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, nil, err
		}
		found(id, name, "")
	}
	return named, ids, rows.Err()
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// PhraseBreakout is a breakout of the latest period whose term contains Phrase.
type PhraseBreakout struct {
	Phrase  string
	Term    string
	Rank    int
	RankAgo *int // 4 periods ago
	New     bool
	Spark   []*int // the last 13 ranks, oldest first (TermRow.Spark)
}

// BreakoutsContaining lists, per phrase, the best-ranked perPhrase breakouts of the latest
// period whose term contains it (case-insensitive), in one scan of the measures.
func (w *Warehouse) BreakoutsContaining(ctx context.Context, d *Dataset, phrases []string, perPhrase int) ([]PhraseBreakout, error) {
	if len(phrases) == 0 {
		return nil, nil
	}
	term := "lower(s.term)"
	if d.LowercaseTerms {
		term = "s.term"
	}
	values := strings.TrimSuffix(strings.Repeat("(?), ", len(phrases)), ", ")
	args := make([]any, 0, len(phrases)+1)
	for _, p := range phrases {
		args = append(args, strings.ToLower(p))
	}
	args = append(args, d.ID)
	q := fmt.Sprintf(`select p.phrase, s.term, s.rank, s.rank_4, s.is_new, s.spark
		from term_stats s join (values %s) p(phrase) on contains(%s, p.phrase)
		where s.dataset_id = ? and s.breakout
		qualify row_number() over (partition by p.phrase order by s.rank, s.term_id) <= %d
		order by p.phrase, s.rank, s.term_id`, values, term, perPhrase)
	rows, err := w.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("breakouts containing: %w", err)
	}
	defer rows.Close()
	var out []PhraseBreakout
	for rows.Next() {
		var b PhraseBreakout
		var ago sql.NullInt64
		var spark []any
		if err := rows.Scan(&b.Phrase, &b.Term, &b.Rank, &ago, &b.New, &spark); err != nil {
			return nil, err
		}
		if ago.Valid {
			v := int(ago.Int64)
			b.RankAgo = &v
		}
		b.Spark = make([]*int, len(spark))
		for i, v := range spark {
			if n, ok := v.(int32); ok {
				x := int(n)
				b.Spark[i] = &x
			}
		}
		out = append(out, b)
	}
	return out, rows.Err()
}
