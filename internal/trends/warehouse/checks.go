package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"hash/maphash"
	"strings"
	"sync/atomic"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// The staged rows' checks across rows (formats.md §11), run before the import's transaction:
// a term listed twice, an SP-API term whose records lie apart (merged here), rank ties.

// maxWarnings is how many warnings of one kind a period record keeps; the last says how many more.
const maxWarnings = 20

// stagedChecks is what the checks did to the staged rows.
type stagedChecks struct {
	warnings []string
	// changed: rows were dropped or merged, so the staging's counts are no longer the period's.
	changed bool
	// titleOrds names the table (rid, slot, ord) of merged slots whose titles were spilled
	// with another row's ordinal ("" when nothing was merged).
	titleOrds string
}

// checkDuplicates finds terms listed twice, by their ids in terms (lookUpTerms) or, for terms
// new to the dataset, by the term itself. Strict: the import fails naming the second line,
// the term column and the first line; lenient: later copies are dropped and reported.
//
// An SP-API document's rows are runs of a term's adjacent records (report: spapiSource.next),
// and a term's records need not be adjacent (formats.md §6), so its rows are fragments of one
// row: they are merged (mergeFragments) unless two give the same product slot or different
// ranks, which are the duplicates there.
func checkDuplicates(ctx context.Context, conn *sql.Conn, stage, terms string, meta report.Meta, lenient bool) (stagedChecks, error) {
	// The rows of terms met more than once; counted first, kept only when there are any (the
	// usual file has none, and writing the empty table cost more than the count).
	twiceSQL := `select rid from ` + terms + ` where id in (select id from ` + terms + ` where id is not null group by id having count(*) > 1)
		union all
		select rid from ` + terms + ` where id is null and term in (select term from ` + terms + ` where id is null group by term having count(*) > 1)`
	var n int
	if err := conn.QueryRowContext(ctx, `select count(*) from (`+twiceSQL+`)`).Scan(&n); err != nil || n == 0 {
		return stagedChecks{}, err
	}
	twice := stage + "_twice"
	if _, err := conn.ExecContext(ctx, `create or replace temp table `+twice+` as `+twiceSQL); err != nil {
		return stagedChecks{}, err
	}
	defer conn.ExecContext(context.Background(), `drop table if exists `+twice)
	if meta.Layout == report.LayoutAmazonSPAPI {
		return mergeFragments(ctx, conn, stage, terms, twice, lenient)
	}
	rows, err := conn.QueryContext(ctx, `select term, min(line), list_sort(list(line))[2] from `+stage+`
		where ord in (select rid from `+twice+`) group by term order by min(line) limit `+fmt.Sprint(maxWarnings))
	if err != nil {
		return stagedChecks{}, err
	}
	defer rows.Close()
	var out stagedChecks
	var first *report.ParseError
	for rows.Next() {
		var term string
		var lo, second int
		if err := rows.Scan(&term, &lo, &second); err != nil {
			return stagedChecks{}, err
		}
		if first == nil {
			first = report.At(meta.Layout, second, report.TermColumn(meta.Layout), term,
				fmt.Sprintf("each term once per report, but it is already on %s", report.Where(meta.Layout, lo)))
		}
		out.warnings = append(out.warnings, fmt.Sprintf("%s: duplicate term %q dropped (first on %s)", report.Where(meta.Layout, second), term, report.Where(meta.Layout, lo)))
	}
	if err := rows.Err(); err != nil {
		return stagedChecks{}, err
	}
	if !lenient {
		return stagedChecks{}, first
	}
	table, err := materializeStage(ctx, conn, stage)
	if err != nil {
		return stagedChecks{}, err
	}
	_, err = conn.ExecContext(ctx, `delete from `+table+` s where line > (select min(line) from `+table+` t where t.term = s.term);
		delete from `+terms+` where rid not in (select ord from `+table+`)`)
	out.changed = true
	return out, err
}

// mergeFragments merges each SP-API term's rows (the rids, their ordinals, in twice) into its first one, slot
// by slot. A row giving a slot an earlier row of the term gave, or another rank, is a
// duplicate: strict, the import fails naming both records; lenient, that row is dropped.
// Only the rows of terms met more than once are read, so a document whose records are in
// order costs nothing here.
func mergeFragments(ctx context.Context, conn *sql.Conn, stage, terms, twice string, lenient bool) (stagedChecks, error) {
	frag, merged, titleOrds := stage+"_frag", stage+"_merged", stage+"_title_ords"
	table, err := materializeStage(ctx, conn, stage)
	if err != nil {
		return stagedChecks{}, err
	}
	filled := func(k int) string {
		return fmt.Sprintf("(asin%[1]d is not null or asin_id%[1]d is not null or click%[1]d is not null or conv%[1]d is not null)", k)
	}
	// For each row: the slots it fills, and for each slot the record of its term that filled
	// it before this row; the rank and first record of its term. A row's records are its
	// consecutive slots from its first (report: spapiSource.next), so slot k's record is the
	// row's line plus k minus its first slot.
	_, err = conn.ExecContext(ctx, fmt.Sprintf(`create or replace temp table %[1]s as
		select *, first_value(rank) over w as first_rank, first_value(line) over w as first_line,
			min(case when f1 then line + 1 - lo end) over before as before1, min(case when f2 then line + 2 - lo end) over before as before2,
			min(case when f3 then line + 3 - lo end) over before as before3
		from (select *, case when f1 then 1 when f2 then 2 else 3 end lo from (
			select ord rid, ord, line, term, rank, %[3]s f1, %[4]s f2, %[5]s f3 from %[2]s where ord in (select rid from %[6]s)))
		window w as (partition by term order by ord), before as (partition by term order by ord rows between unbounded preceding and 1 preceding)`,
		frag, table, filled(1), filled(2), filled(3), twice))
	if err != nil {
		return stagedChecks{}, fmt.Errorf("import: fragments: %w", err)
	}
	defer conn.ExecContext(context.Background(), `drop table if exists `+frag+`; drop table if exists `+merged)
	conflicts, err := conn.QueryContext(ctx, `select rid, line, lo, term, rank, first_rank, first_line,
			case when f1 and before1 is not null then 1 when f2 and before2 is not null then 2 when f3 and before3 is not null then 3 end slot,
			coalesce(case when f1 then before1 end, case when f2 then before2 end, case when f3 then before3 end)
		from `+frag+` where rank <> first_rank or (f1 and before1 is not null) or (f2 and before2 is not null) or (f3 and before3 is not null)
		order by line`)
	if err != nil {
		return stagedChecks{}, fmt.Errorf("import: fragments: %w", err)
	}
	var out stagedChecks
	var drop []any
	var first error
	for conflicts.Next() {
		var rid int64
		var line, lo, rank, firstRank, firstLine int
		var term string
		var slot, slotLine sql.NullInt64
		if err := conflicts.Scan(&rid, &line, &lo, &term, &rank, &firstRank, &firstLine, &slot, &slotLine); err != nil {
			conflicts.Close()
			return stagedChecks{}, err
		}
		var pe *report.ParseError
		if rank != firstRank {
			pe = &report.ParseError{Record: line, Column: "searchFrequencyRank", Value: fmt.Sprint(rank),
				Expected: fmt.Sprintf("the same rank in each record of %q, but record %d gives %d", term, firstLine, firstRank)}
		} else {
			pe = &report.ParseError{Record: line + int(slot.Int64) - lo, Column: "searchTerm", Value: term,
				Expected: fmt.Sprintf("each (department, term, clickShareRank) once, but clickShareRank %d of this term is already in record %d", slot.Int64, slotLine.Int64)}
		}
		if first == nil {
			first = pe
		}
		if len(out.warnings) < maxWarnings {
			out.warnings = append(out.warnings, pe.Error()+": record dropped")
		}
		drop = append(drop, rid)
	}
	conflicts.Close()
	if err := conflicts.Err(); err != nil {
		return stagedChecks{}, err
	}
	if first != nil && !lenient {
		return stagedChecks{}, first
	}
	if len(drop) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(drop)), ", ")
		if _, err := conn.ExecContext(ctx, `delete from `+frag+` where rid in (`+marks+`)`, drop...); err != nil {
			return stagedChecks{}, err
		}
		if _, err := conn.ExecContext(ctx, `delete from `+table+` where ord in (`+marks+`)`, drop...); err != nil {
			return stagedChecks{}, err
		}
	}
	// Each term keeps its first row, given every slot its other rows fill; the titles of those
	// slots were spilled under the other rows' ordinals (titleOrds tells addNewASINs).
	steps := []string{
		fmt.Sprintf(`create or replace temp table %[1]s as select first(rid order by ord) keep, term,
			max(rid) filter (where f1) rid1, max(rid) filter (where f2) rid2, max(rid) filter (where f3) rid3,
			max(ord) filter (where f1) ord1, max(ord) filter (where f2) ord2, max(ord) filter (where f3) ord3
			from %[2]s group by term`, merged, frag),
		`create or replace temp table ` + titleOrds + ` (rid bigint not null, slot tinyint not null, ord integer not null)`,
	}
	for k := 1; k <= 3; k++ {
		steps = append(steps,
			fmt.Sprintf(`update %[1]s s set asin%[3]d = x.asin%[3]d, asin_id%[3]d = x.asin_id%[3]d, click%[3]d = x.click%[3]d, conv%[3]d = x.conv%[3]d
				from (select m.keep, f.* from %[2]s m join %[1]s f on f.ord = m.rid%[3]d where m.rid%[3]d <> m.keep) x where s.ord = x.keep`, table, merged, k),
			fmt.Sprintf(`insert into %[1]s select keep, %[3]d, ord%[3]d from %[2]s where rid%[3]d is not null and rid%[3]d <> keep`, titleOrds, merged, k))
	}
	steps = append(steps,
		fmt.Sprintf(`delete from %[1]s where ord in (select rid from %[2]s) and ord not in (select keep from %[3]s)`, table, frag, merged),
		fmt.Sprintf(`delete from %[1]s where rid not in (select ord from %[2]s)`, terms, table))
	if err := execAll(ctx, conn, steps...); err != nil {
		return stagedChecks{}, fmt.Errorf("import: fragments: %w", err)
	}
	out.changed, out.titleOrds = true, titleOrds
	return out, nil
}

// rankTies warns of ranks held by more than one term (Amazon's are unique, formats.md §11:
// not a reason to refuse the file). It reads the staged rows only when the staging saw a rank
// twice (rankSeen), and then after duplicates are dropped and fragments merged.
func rankTies(ctx context.Context, conn *sql.Conn, stage string, layout report.Layout) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `select rank, list(line order by line)[:5], count(*), count(*) over ()
		from `+stage+` group by rank having count(*) > 1 order by rank limit `+fmt.Sprint(maxWarnings))
	if err != nil {
		return nil, fmt.Errorf("import: rank ties: %w", err)
	}
	defer rows.Close()
	var out []string
	var tied int
	for rows.Next() {
		var rank, n int
		var lines []any
		if err := rows.Scan(&rank, &lines, &n, &tied); err != nil {
			return nil, err
		}
		where := make([]string, len(lines))
		for i, l := range lines {
			where[i] = fmt.Sprint(l)
		}
		noun := "lines"
		if layout == report.LayoutAmazonSPAPI {
			noun = "records"
		}
		more := ""
		if n > len(lines) {
			more = fmt.Sprintf(" and %d more", n-len(lines))
		}
		out = append(out, fmt.Sprintf("%s %s%s share rank %d (imported as they are: ranks are unique in Amazon's files)", noun, strings.Join(where, ", "), more, rank))
	}
	if tied > len(out) {
		out = append(out, fmt.Sprintf("%d more ranks are shared by several terms", tied-len(out)))
	}
	return out, rows.Err()
}

// rankSeen notes the ranks staged so far, to tell whether any came twice without a query:
// a bit per rank up to rankBits, beyond which a rank is taken as possibly tied.
type rankSeen struct {
	bits     []uint64
	maybeTie bool
}

// rankBits bounds rankSeen's memory (8 MB); Amazon's deepest ranks are about 3M.
const rankBits = 1 << 26

func (r *rankSeen) add(rank int32) {
	if rank < 0 || rank >= rankBits {
		r.maybeTie = true
		return
	}
	w := int(rank) >> 6
	if w >= len(r.bits) {
		r.bits = append(r.bits, make([]uint64, w+1-len(r.bits)+len(r.bits)/2)...)
	}
	bit := uint64(1) << (rank & 63)
	if r.bits[w]&bit != 0 {
		r.maybeTie = true
	}
	r.bits[w] |= bit
}

// termSeen notes a hash of every staged term, to tell without a query that no term came twice
// (checkDuplicates' count groups every staged term id: 0.13–0.34 s for a 2.67M-row week). A
// hash met twice, a term listed twice or two terms sharing it, sends the import to that query
// as before. The hashes fill at most 3/4 of an open-addressing table: 32 MB for 3M terms,
// dropped once the rows are staged (drop).
type termSeen struct {
	slots      []uint64 // 0 is an empty slot
	n          int
	maybeTwice bool
}

var termSeed = maphash.MakeSeed()

// seenHash is the hash termSeen keeps; tests replace it to make terms share it.
var seenHash = func(term string) uint64 { return maphash.String(termSeed, term) }

// duplicateQueries counts imports that asked DuckDB for duplicate terms (tests read it).
var duplicateQueries atomic.Int64

func (s *termSeen) add(term string) {
	if s.maybeTwice {
		return
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	h := seenHash(term) | 1 // never 0; two hashes differing only there count as shared
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			s.n++
			return
		case h:
			s.maybeTwice = true
			s.drop()
			return
		}
	}
}

// grow doubles the table (from 64k slots).
func (s *termSeen) grow() {
	old := s.slots
	s.slots = make([]uint64, max(1<<16, 2*len(old)))
	mask := uint64(len(s.slots) - 1)
	for _, h := range old {
		if h == 0 {
			continue
		}
		i := h & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = h
	}
}

// drop frees the table; maybeTwice stays.
func (s *termSeen) drop() { s.slots = nil }
