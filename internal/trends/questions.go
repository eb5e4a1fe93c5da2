package trends

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// requestDataset does the access check and dataset lookup every question needs; on failure it
// has written the error and returns nil.
func (s *Service) requestDataset(w http.ResponseWriter, r *http.Request) *warehouse.Dataset {
	c, err := s.access(r, readData)
	if err != nil {
		httpx.WriteError(w, r, err)
		return nil
	}
	d, err := s.dataset(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return nil
	}
	return d
}

// withDataset runs fn for the request's dataset (requestDataset) and how much of its history
// the workspace's plan shows (fn passes its answer through it), and writes its answer.
func (s *Service) withDataset(w http.ResponseWriter, r *http.Request, fn func(*warehouse.Dataset, *depth) (any, error)) {
	d := s.requestDataset(w, r)
	if d == nil {
		return
	}
	dp, err := s.depthOf(r.Context(), d)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	v, err := fn(d, dp)
	if err != nil {
		httpx.WriteError(w, r, s.datasetQuestionError(w, r, d, err))
		return
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}

// datasetQuestionError is what a question on dataset d that failed with err answers: 404 when
// the dataset's workspace was deleted while it was asked (it may have failed on a table the
// deletion dropped), else questionError's answer.
func (s *Service) datasetQuestionError(w http.ResponseWriter, r *http.Request, d *warehouse.Dataset, err error) error {
	if s.wh.Deleted(d.ID) {
		return errNoDataset
	}
	return questionError(w, r, err)
}

// questionError is what a question that failed with err answers: 404 for what the dataset
// lacks, 400 for a period it does not hold, 503 when DuckDB ran out of memory, else err.
func questionError(w http.ResponseWriter, r *http.Request, err error) error {
	switch {
	case errors.Is(err, warehouse.ErrNotFound):
		return httpx.NewError(http.StatusNotFound, "NOT_FOUND", "Not found in this dataset")
	case warehouse.OutOfMemory(err):
		// Logged for the operator (DUCKDB_MEMORY_LIMIT may be too small); the seller is told to
		// retry rather than shown a server error.
		slog.Error("trends: a question ran out of DuckDB's memory", "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", "60")
		return errOutOfMemory
	}
	return periodError(err)
}

// errOutOfMemory answers a question DuckDB had no memory left for.
var errOutOfMemory = httpx.NewError(http.StatusServiceUnavailable, "TRENDS_BUSY",
	"The server is short of memory for this question just now: please try again in a minute")

func (s *Service) summary(w http.ResponseWriter, r *http.Request) {
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		sum, err := s.wh.DatasetSummary(r.Context(), d)
		dp.summary(sum)
		return sum, err
	})
}

// overview gathers what the overview screen shows in one request (no waterfall on page load).
func (s *Service) overview(w http.ResponseWriter, r *http.Request) {
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		sum, err := s.wh.DatasetSummary(r.Context(), d)
		if err != nil {
			return nil, err
		}
		// Movers compare over 4 periods once 5 are loaded; until then over 1 (the screen says which).
		// The lists were chosen at import; only their counts are read here.
		window := 4
		if len(sum.Periods) < 5 {
			window = 1
		}
		lists, err := s.wh.Overview(r.Context(), d, window)
		if err != nil {
			return nil, err
		}
		for _, p := range lists {
			dp.page(p, time.Time{})
		}
		if !dp.shows(len(dp.cal)-1, dp.year) { // coming up reads last year, which the plan does not show
			lists["comingUp"] = &warehouse.Page{Rows: []warehouse.TermRow{}}
		}
		dp.summary(sum)
		return overviewAnswer{Summary: sum, Window: window, Demo: d.Workspace == DemoWorkspace, Risers: lists["risers"], Fallers: lists["fallers"],
			New: lists["new"], Breakouts: lists["breakouts"], ComingUp: lists["comingUp"]}, nil
	})
}

func (s *Service) history(w http.ResponseWriter, r *http.Request) {
	terms := r.URL.Query()["term"]
	if len(terms) == 0 || len(terms) > warehouse.MaxCompare {
		httpx.WriteError(w, r, httpx.BadRequest("term: give 1 to 10 terms (repeat the parameter)"))
		return
	}
	for _, t := range terms {
		if strings.TrimSpace(t) == "" || len(t) > 500 {
			httpx.WriteError(w, r, httpx.BadRequest("term: each term must be 1 to 500 characters"))
			return
		}
	}
	p := params{q: r.URL.Query()}
	at := p.day("at")
	if p.err != nil {
		httpx.WriteError(w, r, p.err)
		return
	}
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		if err := dp.checkAt(at); err != nil {
			return nil, err
		}
		h, err := s.wh.TermHistoriesAt(r.Context(), d, terms, at)
		dp.histories(h)
		return historyAnswer{Terms: h, Estimate: estimateNote()}, err
	})
}

// periodError is err, or the 400 naming the at parameter when it asks for a period the
// dataset does not hold.
func periodError(err error) error {
	if errors.Is(err, warehouse.ErrNoPeriod) {
		return httpx.BadRequest("at: no period of this dataset contains that day")
	}
	return err
}

func (s *Service) product(w http.ResponseWriter, r *http.Request) {
	asin := r.PathValue("asin")
	if len(asin) < 1 || len(asin) > 20 {
		httpx.WriteError(w, r, httpx.BadRequest("asin: 1 to 20 characters"))
		return
	}
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		p, err := s.wh.ProductTerms(r.Context(), d, asin, 200)
		dp.presence(p)
		return p, err
	})
}

func (s *Service) brand(w http.ResponseWriter, r *http.Request) {
	b := r.PathValue("brand")
	if len(b) < 1 || len(b) > 200 {
		httpx.WriteError(w, r, httpx.BadRequest("brand: 1 to 200 characters"))
		return
	}
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		p, err := s.wh.BrandTerms(r.Context(), d, b, 200)
		dp.presence(p)
		return p, err
	})
}

// names suggests brand or category names for the explore filters.
func (s *Service) names(w http.ResponseWriter, r *http.Request) {
	p := params{q: r.URL.Query()}
	kind := p.oneOf("kind", "brand", []string{"brand", "category"})
	prefix := p.str("q", 200)
	if p.err != nil {
		httpx.WriteError(w, r, p.err)
		return
	}
	s.withDataset(w, r, func(d *warehouse.Dataset, _ *depth) (any, error) { // the latest period only
		names, err := s.wh.Names(r.Context(), d, kind, prefix)
		return namesAnswer{Names: names}, err
	})
}

func (s *Service) rootWords(w http.ResponseWriter, r *http.Request) {
	p := params{q: r.URL.Query()}
	phrase := p.str("phrase", 200)
	if p.err == nil && phrase == "" {
		p.fail("phrase", "is required")
	}
	if p.err != nil {
		httpx.WriteError(w, r, p.err)
		return
	}
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		rw, err := s.wh.RootWords(r.Context(), d, phrase)
		dp.rootWord(rw)
		return rootWordsAnswer{RootWord: rw, Estimate: estimateNote()}, err
	})
}

// estimateNote travels with every estimated number so the UI can state its assumptions.
func estimateNote() estimate {
	return estimate{
		Label:       "Estimated searches",
		Assumptions: "Weekly searches ≈ 4,000,000 × rank^-0.85, a generic rank-volume curve; Amazon publishes ranks, not volumes. Not yet calibrated on your Search Query Performance data.",
	}
}
