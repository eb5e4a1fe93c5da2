package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// The schema. Why this shape (docs/trends-engine.md has the measured sizes):
//   - fact holds one row per (dataset, period, term) with its top-3 products, brands and
//     categories as dictionary ids; DuckDB's zone maps over (dataset_id, period_idx) make
//     whole-period scans cheap, and imports append a period at a time.
//   - term_stats holds one row per term of a dataset's latest period with every measure the
//     screens sort and filter by, rebuilt at import, so explore/movers/overview read one table.
//   - dictionaries keep repeated strings (ASINs, brands, categories, terms) out of the fact rows.
var schema = []string{
	`create sequence if not exists dataset_seq start 1`,
	`create table if not exists dataset (
		id integer primary key default nextval('dataset_seq'),
		workspace varchar not null, marketplace varchar not null, kind varchar not null,
		created_at timestamp not null default current_timestamp,
		unique (workspace, marketplace, kind))`,
	`create table if not exists period (
		dataset_id integer not null, period_idx integer not null,
		start_date date not null, end_date date not null,
		layout varchar not null, source_name varchar not null, source_sha256 varchar not null,
		rows integer not null, deepest_rank integer not null,
		terms_0 integer not null, terms_1 integer not null, terms_2 integer not null, terms_3 integer not null,
		rolling boolean not null default false,
		imported_at timestamp not null, imported_by varchar not null,
		primary key (dataset_id, period_idx))`,
	// Dictionaries carry no index: ids and values are unique by construction (one writer assigns
	// them, skipping values already present), and maintaining ART indexes over millions of random
	// ASINs was the slowest step of an import.
	`create table if not exists term (dataset_id integer not null, id integer not null, term varchar not null)`,
	`create table if not exists asin (id integer not null, asin varchar not null, title varchar)`,
	`create table if not exists brand (id integer not null, name varchar not null)`,
	`create table if not exists category (id integer not null, name varchar not null)`,
	`create table if not exists fact (
		dataset_id integer not null, period_idx integer not null, term_id integer not null, rank integer not null,
		department varchar,
		asin1 integer, asin2 integer, asin3 integer,
		click1 smallint, click2 smallint, click3 smallint,
		conv1 smallint, conv2 smallint, conv3 smallint,
		brand1 integer, brand2 integer, brand3 integer,
		cat1 integer, cat2 integer, cat3 integer)`,
	`create table if not exists term_stats (` + termStatsColumns + `)`,
	// Each term of the dictionary by its hash (termHash), sorted by it: term_stats is in term id
	// order, and this is how a term's id is found by its string (stats.go: writeTermKeys; an
	// import appends its new terms' keys, which the background job sorts in).
	`create table if not exists term_keys (dataset_id integer not null, term_hash ubigint not null, term_id integer not null)`,
	// DuckDB's hash of termHashProbe when term_keys was written (checkTermHash).
	`create table if not exists term_hash_probe (value ubigint not null)`,
	// Facts about a dataset's current terms, set with its measures.
	`create table if not exists dataset_flags (dataset_id integer not null, lowercase_terms boolean not null)`,
	// The period a dataset's term_stats were computed at; dropped whenever its facts change
	// without the measures (import.go), so a row here means the stored sparks are still true.
	`create table if not exists stats_basis (dataset_id integer not null, period_idx integer not null)`,
	// The period a dataset's stats_next_<id> was prepared after, and the state of its period
	// records then (next_stats.go).
	`create table if not exists stats_next_basis (dataset_id integer not null, period_idx integer not null, fingerprint varchar not null)`,
	// Which periods, as of which import, a dataset's term-ordered copy (fact_by_term_<id> in the
	// copy file, compact.go) holds.
	`create table if not exists ` + copyDB + `.compacted (dataset_id integer not null, period_idx integer not null, imported_at timestamp not null)`,
	// appended: the period's rows were appended to the copy after its last rebuild.
	`alter table ` + copyDB + `.compacted add column if not exists appended boolean default false`,
	// The overview's short lists, copied whole from term_stats at import, so the overview reads a
	// few dozen rows instead of joining its picks back into 3M term_stats rows.
	`drop table if exists overview_terms`,
	overviewRowsDDL,
	`create table if not exists overview_counts (dataset_id integer not null, list varchar not null, window_periods integer not null, total integer not null)`,
	// One-time upgrades of stored data that were done (upgradeOnce).
	`create table if not exists store_upgrades (name varchar not null)`,
}

const overviewRowsDDL = `create table if not exists overview_rows as select ''::varchar as list, 0 as window_periods, 0 as pos, * from term_stats limit 0`

func (w *Warehouse) migrate(ctx context.Context) error {
	for _, q := range schema {
		if _, err := w.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("warehouse: schema: %w", err)
		}
	}
	if err := dropOldCopies(ctx, w.db); err != nil {
		return fmt.Errorf("warehouse: schema: %w", err)
	}
	if err := w.upgradeTermStats(ctx); err != nil {
		return fmt.Errorf("warehouse: schema: %w", err)
	}
	if err := w.fillMissingOverviews(ctx); err != nil {
		return err
	}
	if err := w.upgradeOnce(ctx, "null-concentrations", nullConcentrations); err != nil {
		return fmt.Errorf("warehouse: schema: %w", err)
	}
	if err := w.checkTermHash(ctx); err != nil {
		return err
	}
	if err := w.upgradeOnce(ctx, "term-keys-every-term", keysForEveryTerm); err != nil {
		return fmt.Errorf("warehouse: schema: %w", err)
	}
	return w.fillMissingTermKeys(ctx)
}

// keysForEveryTerm writes term_keys again for every dataset that has them: they held the
// terms of the latest period only until imports began appending each new term's key, so a
// term absent from it would not be found when it came back.
func keysForEveryTerm(ctx context.Context, tx *sql.Tx) error {
	sets, err := queryColumn[int](ctx, tx, `select distinct dataset_id from term_keys`)
	for _, ds := range sets {
		if err == nil {
			err = writeTermKeys(ctx, tx, ds)
		}
	}
	return err
}

// termStatsColumns defines term_stats. Its columns are stored uncompressed: a page of a list
// reads its rows scattered over the whole table, and DuckDB decompresses a column's whole
// vector to read one value of it. On the 3M-term benchmark set, fetching a page's 100 rows took
// 80 ms compressed; uncompressed, the numbers took 11 ms instead of 38, the term 17 instead of
// 32 and the spark 16 instead of 21; the substring scan 29 ms instead of 44, and writing the
// table at import 1.4 s instead of 2.0 s. It costs ~190 MB more on disk (496 MB against 309 MB).
// asin1_code is asin1's code, so lists show it without a lookup: a search's first page looked up
// its 100 codes one point query each in the ASIN dictionary (15M rows in the benchmark), 35–45
// ms of a first search's 95–250 ms.
const termStatsColumns = `dataset_id integer not null, term_id integer using compression uncompressed not null,
	term varchar using compression uncompressed not null, rank integer using compression uncompressed not null,
	rank_1 integer using compression uncompressed, rank_4 integer using compression uncompressed,
	rank_13 integer using compression uncompressed, rank_52 integer using compression uncompressed,
	periods_present integer using compression uncompressed not null,
	is_new boolean using compression uncompressed not null, breakout boolean using compression uncompressed not null,
	click_conc double using compression uncompressed, conv_conc double using compression uncompressed,
	seasonality double using compression uncompressed, coming_up double using compression uncompressed,
	spark integer[] using compression uncompressed, brand1 integer using compression uncompressed,
	cat1 integer using compression uncompressed, asin1 integer using compression uncompressed,
	asin1_code varchar using compression uncompressed`

// termHash is the SQL for the key by which term_keys finds a term: DuckDB's 64-bit hash of
// it, which costs a tenth of slicing the string's bytes into a sortable prefix key (the key
// term_stats carried while it was sorted by term) and tells apart terms sharing a prefix.
// DuckDB does not promise its hash is stable across versions: checkTermHash rewrites
// term_keys when it changed.
func termHash(term string) string { return `hash(` + term + `)` }

// termHashProbe is a string whose hash checkTermHash records with term_keys.
const termHashProbe = "sellertrends term hash"

// checkTermHash empties term_keys when DuckDB hashes terms differently from when it was
// written (recorded in term_hash_probe), so fillMissingTermKeys writes it again.
func (w *Warehouse) checkTermHash(ctx context.Context) error {
	var same bool
	err := w.db.QueryRowContext(ctx, `select coalesce((select bool_and(value = `+termHash("?")+`) from term_hash_probe), false)`, termHashProbe).Scan(&same)
	if err != nil || same {
		return err
	}
	if err := execAll(ctx, w.db, `delete from term_keys`, `delete from term_hash_probe`); err != nil {
		return err
	}
	_, err = w.db.ExecContext(ctx, `insert into term_hash_probe select `+termHash("?"), termHashProbe)
	return err
}

// upgradeTermStats rebuilds, once, a store's term_stats written before termStatsColumns took
// their present form (compressed and without asin1_code, or with the term_key that sorted it
// by term, or with the changes ch_1..ch_52 stored), filling the column it lacks and leaving
// out those it no longer has, and empties the overview lists copied from it, which
// fillMissingOverviews then chooses again. A new store's table already is in that form.
func (w *Warehouse) upgradeTermStats(ctx context.Context) error {
	present, err := queryColumn[string](ctx, w.db, `select column_name from duckdb_columns() where database_name = current_database()
		and schema_name = 'main' and table_name = 'term_stats' and column_name in ('asin1_code', 'term_key', 'ch_1')`)
	if err != nil || slices.Equal(present, []string{"asin1_code"}) {
		return err
	}
	var left []string // columns of the old form the present one has not
	if slices.Contains(present, "term_key") {
		left = append(left, "term_key")
	}
	if slices.Contains(present, "ch_1") {
		left = append(left, "ch_1", "ch_4", "ch_13", "ch_52")
	}
	fill, join := `s.*`, ""
	if len(left) > 0 {
		fill = `s.* exclude (` + strings.Join(left, ", ") + `)`
	}
	if !slices.Contains(present, "asin1_code") { // added before term_key: the table is compressed too
		fill, join = fill+`, a.asin as asin1_code`, ` left join asin a on a.id = s.asin1`
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	err = execAll(ctx, tx,
		`create table term_stats_next (`+termStatsColumns+`)`,
		`insert into term_stats_next by name select `+fill+` from term_stats s`+join,
		`drop table term_stats`,
		`alter table term_stats_next rename to term_stats`,
		`drop table overview_rows`,
		overviewRowsDDL,
		`delete from overview_counts`)
	if err != nil {
		return err
	}
	return tx.Commit()
}

// fillMissingOverviews chooses the overview lists of datasets measured before overview_rows
// existed.
func (w *Warehouse) fillMissingOverviews(ctx context.Context) error {
	return w.fillMissing(ctx, "overview_rows", materializeOverview)
}

// fillMissingTermKeys writes term_keys for datasets measured before it existed (term_stats was
// sorted by term then, and searched by it) or since DuckDB's hash changed, from their
// dictionaries.
func (w *Warehouse) fillMissingTermKeys(ctx context.Context) error {
	return w.fillMissing(ctx, "term_keys", writeTermKeys)
}

// fillMissing runs fill, one transaction per dataset, for each dataset term_stats has and
// table lacks.
func (w *Warehouse) fillMissing(ctx context.Context, table string, fill func(context.Context, *sql.Tx, int) error) error {
	missing, err := queryColumn[int](ctx, w.db, `select distinct dataset_id from term_stats except select distinct dataset_id from `+table)
	if err != nil {
		return err
	}
	for _, ds := range missing {
		tx, err := beginTx(ctx, w.db)
		if err != nil {
			return err
		}
		if err := fill(ctx, tx, ds); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// upgradeOnce runs upgrade, in one transaction, unless the store records it as done.
func (w *Warehouse) upgradeOnce(ctx context.Context, name string, upgrade func(context.Context, *sql.Tx) error) error {
	var done int
	if err := w.db.QueryRowContext(ctx, `select count(*) from store_upgrades where name = ?`, name).Scan(&done); err != nil || done > 0 {
		return err
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := upgrade(ctx, tx); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `insert into store_upgrades values (?)`, name); err != nil {
		return err
	}
	return tx.Commit()
}

// nullConcentrations recomputes the stored concentrations, which counted a blank share as 0
// until blank became unknown (concentrationSQL), from each dataset's latest period, in the
// measures and the overview lists copied from them. Once per store (a few seconds at 3M terms).
func nullConcentrations(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx, `update term_stats s set click_conc = x.click, conv_conc = x.conv from (
			select f.dataset_id, f.term_id, `+concentrationSQL("click")+` as click, `+concentrationSQL("conv")+` as conv
			from fact f join (select dataset_id, max(period_idx) as idx from period group by dataset_id) l
				on l.dataset_id = f.dataset_id and l.idx = f.period_idx) x
		where s.dataset_id = x.dataset_id and s.term_id = x.term_id
			and (s.click_conc is distinct from x.click or s.conv_conc is distinct from x.conv)`,
		`update overview_rows o set click_conc = s.click_conc, conv_conc = s.conv_conc from term_stats s
		where s.dataset_id = o.dataset_id and s.term_id = o.term_id
			and (o.click_conc is distinct from s.click_conc or o.conv_conc is distinct from s.conv_conc)`)
}
