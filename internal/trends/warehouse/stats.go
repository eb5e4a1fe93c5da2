package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// Measures, defined once (trends.md) and computed here at import:
//
//	ch_w        log2(rank w periods ago / rank now): positive = rising; NULL when either is missing
//	            (a gap or a term absent then is not rank 0). Computed from the stored ranks
//	            where it is read (explore.go: changeSQL), not stored.
//	is_new      present now and absent from every loaded period of the previous 4 (the window:
//	            the last 4 periods before now, or as many of them as are loaded, at least 1), and
//	            ranked above (better than) the deepest rank those periods covered — so a term that
//	            only looks new because an older file held fewer terms is not called new.
//	            NewCompared says how many periods a dataset's "new" compared with.
//	breakout    new, or risen at least 2x over 4 periods (ch_4 >= 1) and better in each of the
//	            last 3 periods.
//	click_conc  sum of the top-3 click shares (0..1) over the slots holding a product; NULL when
//	            none does or one of them has a blank share (blank is not zero: the sum is
//	            unknown). conv_conc likewise for conversion shares.
//	seasonality correlation of log rank with the same period a year earlier over the last year
//	            (needs >= 8 pairs); near 1 = the term repeats its yearly pattern.
//	coming_up   log2(rank a year ago / best rank 4–8 periods after that): how much it rose in the
//	            coming weeks last year (weekly datasets).
//	spark       the last 13 periods' ranks, NULL for periods where the term is absent or missing.
const (
	NewLookback    = 4
	BreakoutRise   = 1.0 // log2 units: a doubling
	BreakoutStreak = 3
	SparkPeriods   = 13
	MinSeasonPairs = 8
	ComingUpFrom   = 4
	ComingUpTo     = 8
	yearOfPeriods  = 52
)

// statsChunk is how many term ids one measures statement covers: the work is split by term
// range so memory stays bounded at 3M terms (one statement over everything ran out of memory at
// 3 GB), and fact, ordered by term within each period, is read only where a chunk's terms are.
const statsChunk = 1_000_000

// preparedStatsChunk is the same for measures from the prepared table (next_stats.go), which
// joins instead of grouping and needs less memory per term: over 3M terms, two statements
// took 2.7-2.8 s where four took 3.2 s on their own, 3.0-3.1 s against 3.2-3.3 s in imports.
const preparedStatsChunk = 1_600_000

// termRanges cuts the term ids 0..maxID into as few ranges of at most most ids as will do, of
// equal size: a range per started million left a last statement of a few thousand terms,
// which cost as much fixed work as the others.
func termRanges(maxID, most int64) [][2]int64 {
	n := maxID/most + 1
	size := (maxID + n) / n // ceil((maxID+1)/n)
	var out [][2]int64
	for lo := int64(0); lo <= maxID; lo += size {
		out = append(out, [2]int64{lo, min(lo+size-1, maxID)})
	}
	return out
}

// rebuildStats recomputes term_stats for the dataset's latest period. It reads only the periods
// the measures name (the latest, the 13 before it, 52 and 44–48 ago) plus two per-dataset
// tables kept up to date elsewhere: presence (periods each term appears in, maintained at
// import) and season (year-over-year correlation, refreshed in the background: season.go).
//
// prev is the period the stored term_stats were computed at when an import of the newest
// period may build on them (-1 otherwise): their sparks then already hold the last 13 periods'
// ranks of most terms, and only terms absent from them are looked up in those periods — the
// grouping over every period the measures name was most of an import's measures time.
//
// next says that stats_next_<ds> was prepared for the latest period (next_stats.go): the
// measures then join it instead.
//
// staged names the import's table of the latest period's rows (load), which also holds each
// row's term and top ASIN code; with "" the rows are read from fact, their terms from the
// term dictionary and their codes from the ASIN dictionary, which costs seconds at 3M terms
// (joining the dictionary inside the measures doubled an import's measures time).
func rebuildStats(ctx context.Context, tx *sql.Tx, ds, prev int, next bool, staged string) error {
	var latest, maxID sql.NullInt64
	if err := tx.QueryRowContext(ctx, `select max(period_idx) from period where dataset_id = ?`, ds).Scan(&latest); err != nil {
		return err
	}
	L := int(latest.Int64)
	if prev < 0 || (prev != L-1 && prev != L) {
		prev = -1
	}
	old := fmt.Sprintf("prev_stats_%d", ds)
	keep := "true"
	if prev < 0 || !latest.Valid || next {
		keep = "false"
	}
	err := execAll(ctx, tx,
		fmt.Sprintf(`create or replace temp table %s as select term_id, spark, rank_13 from term_stats where dataset_id = %d and %s`, old, ds, keep),
		fmt.Sprintf(`delete from term_stats where dataset_id = %d`, ds),
		fmt.Sprintf(`delete from stats_basis where dataset_id = %d`, ds))
	if err != nil {
		return err
	}
	defer tx.ExecContext(ctx, `drop table if exists `+old)
	if !latest.Valid {
		return nil
	}
	if err := ensureSideTables(ctx, tx, ds); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, `select max(term_id) from fact where dataset_id = ? and period_idx = ?`, ds, L).Scan(&maxID); err != nil {
		return err
	}
	var latestRows string
	if staged != "" {
		latestRows = fmt.Sprintf("(select * from %s where term_id between $1 and $2)", staged)
	} else {
		codes := fmt.Sprintf("asin_codes_%d", ds)
		defer tx.ExecContext(ctx, `drop table if exists `+codes)
		if latestRows, err = periodRowsFromFact(ctx, tx, ds, L, codes); err != nil {
			return err
		}
	}
	offset := 1 // old is empty: any offset reads nothing from it
	if prev >= 0 {
		offset = L - prev
	}
	q := measuresSQL(ds, L, offset, old, next, latestRows, currentInputs(ds))
	if next {
		nextStatsUsed.Add(1)
	}
	started := time.Now()
	chunk := int64(statsChunk)
	if next {
		chunk = preparedStatsChunk
	}
	for _, r := range termRanges(maxID.Int64, chunk) {
		if _, err := tx.ExecContext(ctx, q, r[0], r[1]); err != nil {
			return fmt.Errorf("measures: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `insert into stats_basis values (?, ?)`, ds, L); err != nil {
		return err
	}
	slog.Debug("import step", "step", "measures: terms", "prepared", next, "took", time.Since(started))
	started = time.Now()
	flags := []string{
		fmt.Sprintf(`delete from dataset_flags where dataset_id = %d`, ds),
		fmt.Sprintf(`insert into dataset_flags select %[1]d, coalesce(bool_and(term = lower(term)), true) from term_stats where dataset_id = %[1]d`, ds),
	}
	if err := execAll(ctx, tx, flags...); err != nil {
		return err
	}
	slog.Debug("import step", "step", "measures: flags", "took", time.Since(started))
	started = time.Now()
	defer func() { slog.Debug("import step", "step", "measures: overview", "took", time.Since(started)) }()
	return materializeOverview(ctx, tx, ds)
}

// term_keys holds the hash and id of every term of a dataset's dictionary, sorted by hash, so
// a term's id is found by its string reading a few vectors (termStatsIDQuery, which joins
// term_stats for the terms of the latest period). A term's key never changes, so an import
// only appends its new terms' keys (addTermKeys); rewriting every key sorted cost ~0.27 s of a
// 3M-term import. The appended keys are not in order, so the background job after an import
// writes them all again sorted (writeTermKeys) and lookups read a few vectors again.

// writeTermKeys writes the keys of every term of dataset ds's dictionary, sorted by hash, in
// place of those it has. On the 3M-term set this costs ~0.15 s where sorting term_stats' rows
// by term cost ~1 s, and writing the term strings again ~0.4 s more.
func writeTermKeys(ctx context.Context, tx *sql.Tx, ds int) error {
	_, err := tx.ExecContext(ctx, `delete from term_keys where dataset_id = ?`, ds)
	if err == nil {
		_, err = tx.ExecContext(ctx, `insert into term_keys select dataset_id, `+termHash("term")+` h, id from term
			where dataset_id = ? order by h`, ds)
	}
	if err != nil {
		return fmt.Errorf("term keys: %w", err)
	}
	return nil
}

// addTermKeys appends the keys of the new terms of dataset ds in table terms (id, term).
func addTermKeys(ctx context.Context, tx *sql.Tx, ds int, terms string) error {
	_, err := tx.ExecContext(ctx, `insert into term_keys select ?, `+termHash("term")+` h, id from `+terms+` order by h`, ds)
	if err != nil {
		return fmt.Errorf("import: term keys: %w", err)
	}
	return nil
}

// periodRowsFromFact writes the temporary table codes (each term's top ASIN code in period L)
// and returns latestFromFact for period L: the rows the measures read when the period's
// staged rows are not at hand.
func periodRowsFromFact(ctx context.Context, tx *sql.Tx, ds, L int, codes string) (string, error) {
	err := execAll(ctx, tx, fmt.Sprintf(`create or replace temp table %s as select f.term_id, a.asin as code
		from fact f join asin a on a.id = f.asin1 where f.dataset_id = %d and f.period_idx = %d`, codes, ds, L))
	if err != nil {
		return "", err
	}
	return strings.NewReplacer("{codes}", codes, "{ds}", strconv.Itoa(ds), "{L}", strconv.Itoa(L)).Replace(latestFromFact), nil
}

// measuresInputs are where measuresSQL writes and what it reads beside the facts: the table
// it inserts into, the presence counts (term_id, n) of the term range and the seasonality
// (term_id, seasonality).
type measuresInputs struct{ target, presence, season string }

// currentInputs are the inputs of the dataset's current measures (term_stats).
func currentInputs(ds int) measuresInputs {
	return measuresInputs{target: "term_stats", presence: presenceOf(ds, "term_id between $1 and $2"), season: seasonTable(ds)}
}

// latestFromFact is the latest period's rows of one term range as the measures read them:
// fact's columns with the term and the top ASIN's code.
const latestFromFact = `(select f.*, t.term, c.code
	from fact f join term t on t.dataset_id = f.dataset_id and t.id = f.term_id
	left join {codes} c on c.term_id = f.term_id
	where f.dataset_id = {ds} and f.period_idx = {L} and f.term_id between $1 and $2 and t.id between $1 and $2)`

// measuresSQL builds the statement for one term range ($1..$2) of dataset ds at latest period L,
// reading that period's rows from latest (a subquery, see latestFromFact).
// old holds the previous term_stats' sparks, computed offset (0 or 1) periods before L; a term
// found there takes its last 13 ranks from its spark, any other term from fact. Each period's
// rank is aggregated once: p1..p12 serve the spark, the 1–4 period changes, the new-term rule
// and the breakout streak alike. Every value inlined is an integer of ours.
func measuresSQL(ds, L, offset int, old string, next bool, latest string, in measuresInputs) string {
	var fromFact, fromSpark, spark, present []string
	for i := 1; i < SparkPeriods; i++ {
		fromFact = append(fromFact, fmt.Sprintf("max(rank) filter (where period_idx = %d) as p%d", L-i, i))
		fromSpark = append(fromSpark, fmt.Sprintf("spark[%d] as p%d", SparkPeriods-i+offset, i))
		spark = append([]string{fmt.Sprintf("r.p%d", i)}, spark...) // oldest first
	}
	r13 := "rank_13" // the spark computed at L ends at L-12
	if offset == 1 {
		r13 = "spark[1]"
	}
	for i := 1; i <= NewLookback; i++ {
		present = append(present, fmt.Sprintf("(r.p%d is not null)::int", i))
	}
	yearAgo := L - yearOfPeriods
	yearly := []string{strconv.Itoa(yearAgo)}
	for i := ComingUpFrom; i <= ComingUpTo; i++ {
		yearly = append(yearly, strconv.Itoa(yearAgo+i))
	}
	itoa := strconv.Itoa
	r := strings.NewReplacer(
		"{ds}", itoa(ds), "{L}", itoa(L), "{lookbackFrom}", itoa(L-NewLookback),
		"{sparkFrom}", itoa(L-SparkPeriods), "{ago13}", itoa(L-13), "{yearAgo}", itoa(yearAgo), "{yearly}", strings.Join(yearly, ","),
		"{comingFrom}", itoa(yearAgo+ComingUpFrom), "{comingTo}", itoa(yearAgo+ComingUpTo),
		"{fromFact}", strings.Join(fromFact, ", "), "{fromSpark}", strings.Join(fromSpark, ", "), "{r13FromSpark}", r13,
		"{wasPresent}", "("+strings.Join(present, " + ")+")", "{rise}", strconv.FormatFloat(BreakoutRise, 'f', -1, 64),
		"{clickConc}", concentrationSQL("click"), "{convConc}", concentrationSQL("conv"),
		"{spark}", strings.Join(spark, ", "), "{old}", old, "{latest}", latest, "{presence}", in.presence, "{season}", in.season, "{target}", in.target,
	)
	if next {
		// one prepared row per term (next_stats.go) stands for r, y, presence and s
		return strings.NewReplacer("{sources}", "", "{joins}", "left join "+nextStatsTable(ds)+" r on r.term_id = f.term_id",
			"{present}", "coalesce(r.n, 0) + 1", "{Y}", "r", "{S}", "r").Replace(r.Replace(measuresTemplate))
	}
	return r.Replace(strings.NewReplacer("{sources}", measuresSources, "{joins}", measuresJoins,
		"{present}", "coalesce(p.n, 1)", "{Y}", "y", "{S}", "s").Replace(measuresTemplate))
}

// measuresTemplate is measuresSQL's statement; $1..$2 is the term range. {sources} and {joins}
// bring in r (the recent ranks p1..p12 and r13), {Y} (r52, best_next_last_year), the presence
// count {present} and {S} (seasonality). Rows are written in the order the period's rows are
// read, which is by term id: sorting 3M rows of measures by term cost ~1 s of an import, and
// the one read that needed term order, finding a term's id by its string, reads term_keys
// (writeTermKeys) instead.
const measuresTemplate = `insert into {target}
	with prev as (
		select count(*) as n, min(deepest_rank) as deepest from period
		where dataset_id = {ds} and period_idx between {lookbackFrom} and {L} - 1){sources}
	select {ds}, f.term_id, f.term, f.rank, r.p1, r.p4, r.r13, {Y}.r52,
		{present},
		coalesce(prev.n >= 1 and {wasPresent} = 0 and f.rank < prev.deepest, false) as is_new,
		coalesce((prev.n >= 1 and {wasPresent} = 0 and f.rank < prev.deepest)
			or (log2(r.p4 / f.rank) >= {rise} and f.rank < r.p1 and r.p1 < r.p2 and r.p2 < r.p3), false) as breakout,
		{clickConc},
		{convConc},
		{S}.seasonality,
		log2({Y}.r52 / {Y}.best_next_last_year),
		[{spark}, f.rank],
		f.brand1, f.cat1, f.asin1, f.code
	from {latest} f
	{joins}
	cross join prev`

// measuresSources are the measures' inputs read from fact, the stored sparks (old) and the
// side tables.
const measuresSources = `,
	cur as (select term_id from fact where dataset_id = {ds} and period_idx = {L} and term_id between $1 and $2),
	old as (select term_id, spark, rank_13 from {old} where term_id between $1 and $2),
	fresh as (select term_id from cur where term_id not in (select term_id from old)),
	recent as (
		select term_id, {fromFact}, max(rank) filter (where period_idx = {ago13}) as r13
		from fact where dataset_id = {ds} and term_id between $1 and $2 and period_idx between {sparkFrom} and {L} - 1
			and term_id in (select term_id from fresh)
		group by term_id
		union all by name
		select term_id, {fromSpark}, {r13FromSpark} as r13 from old),
	yearly as (
		select term_id, max(rank) filter (where period_idx = {yearAgo}) as r52,
			min(rank) filter (where period_idx between {comingFrom} and {comingTo}) as best_next_last_year
		from fact where dataset_id = {ds} and term_id between $1 and $2 and period_idx in ({yearly})
		group by term_id)`

const measuresJoins = `left join recent r on r.term_id = f.term_id
	left join yearly y on y.term_id = f.term_id
	left join {presence} p on p.term_id = f.term_id
	left join {season} s on s.term_id = f.term_id`

// concentrationSQL sums the term's top-3 shares of a kind ("click" or "conv") in basis points
// as a fraction, over the slots that hold a product (an ASIN or a share): NULL when no slot
// does, or when one that does has a blank share.
func concentrationSQL(kind string) string {
	var held, sum []string
	for k := 1; k <= 3; k++ {
		slot := fmt.Sprintf("(f.asin%[1]d is not null or f.click%[1]d is not null or f.conv%[1]d is not null)", k)
		held = append(held, slot)
		sum = append(sum, fmt.Sprintf("case when %s then f.%s%d else 0 end", slot, kind, k))
	}
	return fmt.Sprintf("case when %s then (%s) / 10000.0 end", strings.Join(held, " or "), strings.Join(sum, " + "))
}

// OverviewSize is how many terms each overview list keeps.
const OverviewSize = 10

// materializeOverview stores the overview's lists (for both windows it may show) at import.
func materializeOverview(ctx context.Context, tx *sql.Tx, ds int) error {
	for _, t := range []string{"overview_rows", "overview_counts"} {
		if _, err := tx.ExecContext(ctx, `delete from `+t+` where dataset_id = ?`, ds); err != nil {
			return err
		}
	}
	// A list whose query does not depend on the window (new terms, breakouts, coming-up) is
	// picked once and copied to the other window (~0.1 s of a 3M-term import).
	picked := map[string]int{} // the list's name, filter and order -> the window it was picked for
	for _, window := range []int{1, 4} {
		for _, l := range OverviewLists(window) {
			where, args := l.Query.where(&Dataset{ID: ds})
			key := fmt.Sprint(l.Name, where, l.Query.orderBy(), args)
			if first, ok := picked[key]; ok {
				if err := copyOverviewList(ctx, tx, ds, l.Name, first, window); err != nil {
					return err
				}
				continue
			}
			picked[key] = window
			// The top rows are picked before they are numbered: a window over every matching
			// row sorted millions of them (4.8 s of a 3M-row import for the ten lists).
			q := fmt.Sprintf(`insert into overview_rows select ?, ?, row_number() over (order by %[1]s), s.*
				from (select * from term_stats s where %[2]s order by %[1]s limit %[3]d) s`, l.Query.orderBy(), where, OverviewSize)
			if _, err := tx.ExecContext(ctx, q, append([]any{l.Name, window}, args...)...); err != nil {
				return fmt.Errorf("overview %s: %w", l.Name, err)
			}
			count := `insert into overview_counts select ?, ?, ?, count(*) from term_stats s where ` + where
			if _, err := tx.ExecContext(ctx, count, append([]any{ds, l.Name, window}, args...)...); err != nil {
				return fmt.Errorf("overview %s count: %w", l.Name, err)
			}
		}
	}
	return nil
}

// copyOverviewList copies a dataset's overview list, rows and count, from one window to another.
func copyOverviewList(ctx context.Context, tx *sql.Tx, ds int, list string, from, to int) error {
	_, err := tx.ExecContext(ctx, `insert into overview_rows select list, ?, pos, * exclude (list, window_periods, pos)
		from overview_rows where dataset_id = ? and list = ? and window_periods = ?`, to, ds, list, from)
	if err == nil {
		_, err = tx.ExecContext(ctx, `insert into overview_counts select dataset_id, list, ?, total
			from overview_counts where dataset_id = ? and list = ? and window_periods = ?`, to, ds, list, from)
	}
	if err != nil {
		return fmt.Errorf("overview %s: %w", list, err)
	}
	return nil
}

// OverviewList is one of the overview's lists and the query that selects it.
type OverviewList struct {
	Name  string
	Query ExploreQuery
}

// OverviewLists are the overview's lists over a change window of 1 or 4 periods.
func OverviewLists(window int) []OverviewList {
	change := fmt.Sprintf("change%d", window)
	return []OverviewList{
		{"risers", ExploreQuery{List: "risers", Window: window, Sort: change, Desc: true}},
		{"fallers", ExploreQuery{List: "fallers", Window: window, Sort: change}},
		{"new", ExploreQuery{List: "new", Window: window, Sort: "rank"}},
		{"breakouts", ExploreQuery{List: "breakouts", Window: window, Sort: "change4", Desc: true}},
		{"comingUp", ExploreQuery{List: "coming-up", Window: window, Sort: "comingUp", Desc: true}},
	}
}

// Overview reads the materialised lists for a window, with each list's full count, in two
// queries whatever the number of lists.
func (w *Warehouse) Overview(ctx context.Context, d *Dataset, window int) (map[string]*Page, error) {
	out := map[string]*Page{}
	for _, l := range OverviewLists(window) {
		out[l.Name] = &Page{Rows: []TermRow{}}
	}
	counts, err := w.db.QueryContext(ctx, `select list, total from overview_counts where dataset_id = ? and window_periods = ?`, d.ID, window)
	if err != nil {
		return nil, err
	}
	for counts.Next() {
		var list string
		var total int
		if err := counts.Scan(&list, &total); err != nil {
			counts.Close()
			return nil, err
		}
		if p, ok := out[list]; ok {
			p.Total = total
		}
	}
	counts.Close()
	rows, err := w.db.QueryContext(ctx, `select `+termRowColumns+`, s.list from overview_rows s
		where s.dataset_id = ? and s.window_periods = ? order by s.list, s.pos`, d.ID, window)
	if err != nil {
		return nil, fmt.Errorf("overview: %w", err)
	}
	var lists []string
	var page []TermRow
	var refs [][2]sql.NullInt64
	for rows.Next() {
		var list string
		r, ref, err := scanTermRow(rows, &list)
		if err != nil {
			rows.Close()
			return nil, err
		}
		lists, page, refs = append(lists, list), append(page, r), append(refs, ref)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := w.fillTopNames(ctx, page, refs); err != nil {
		return nil, err
	}
	for i, r := range page {
		if p, ok := out[lists[i]]; ok {
			p.Rows = append(p.Rows, r)
		}
	}
	return out, nil
}
