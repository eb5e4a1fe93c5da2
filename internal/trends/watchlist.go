package trends

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

type watchItemJSON struct {
	store.WatchlistItem
	Latest   *warehouse.TermRow     `json:"latest,omitempty"`   // a term's latest rank and changes
	Presence *warehouse.PresenceNow `json:"presence,omitempty"` // a product's or brand's latest place
}

// watchAccess resolves whose list a watchlist request reads or writes and whose data its numbers
// come from. On the demo workspace the list is the caller's own personal one (the demo's data is
// read-only, but anyone may try watching on it); elsewhere both are the workspace named.
func (s *Service) watchAccess(r *http.Request, write bool) (list string, c *caller, err error) {
	n := readWatch
	if write && r.PathValue("ws") != DemoWorkspace {
		n = writeWatch
	}
	c, err = s.access(r, n)
	if err != nil {
		return "", nil, err
	}
	if c.workspace != DemoWorkspace {
		return c.workspace, c, nil
	}
	cur, _ := auth.SessionFrom(r.Context())
	if err := s.ensurePersonal(r.Context(), cur); err != nil {
		return "", nil, err
	}
	return store.PersonalWorkspaceID(cur.User.ID), c, nil
}

// watchDataset is the dataset whose numbers the items show: ?ds= when given, else the first.
func (s *Service) watchDataset(r *http.Request, c *caller) (*warehouse.Dataset, error) {
	if r.URL.Query().Get("ds") != "" {
		id, err := strconv.Atoi(r.URL.Query().Get("ds"))
		if err != nil || id < 1 {
			return nil, httpx.BadRequest("ds: must be a dataset id (a positive integer)")
		}
		d, err := s.wh.DatasetByID(r.Context(), c.workspace, id)
		if errors.Is(err, warehouse.ErrNotFound) {
			return nil, errNoDataset
		}
		return d, err
	}
	ds, err := s.wh.Datasets(r.Context(), c.workspace)
	if err != nil || len(ds) == 0 {
		return nil, err
	}
	return &ds[0], nil
}

// watchlist lists the items with each one's latest numbers in the dataset (watchDataset).
func (s *Service) watchlist(w http.ResponseWriter, r *http.Request) {
	list, c, err := s.watchAccess(r, false)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	items, err := s.store.Watchlist(r.Context(), list)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d, err := s.watchDataset(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var dp *depth
	if d != nil {
		if dp, err = s.depthOf(r.Context(), d); err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	out := make([]watchItemJSON, 0, len(items))
	for _, it := range items {
		j := watchItemJSON{WatchlistItem: it}
		if d != nil {
			if err := s.latestOf(r, d, &j); err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			if j.Latest != nil {
				dp.row(dp.pos(time.Time{}), j.Latest)
			}
		}
		out = append(out, j)
	}
	p, err := s.plans(r.Context(), list)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, watchlistAnswer{Items: out, Limit: p.Limits.WatchlistItems})
}

// latestOf fills an item's latest numbers: a term's row of the latest period, a product's or
// brand's place in the latest period's top 3s.
func (s *Service) latestOf(r *http.Request, d *warehouse.Dataset, j *watchItemJSON) error {
	var err error
	switch j.Kind {
	case "term":
		var p *warehouse.Page
		p, err = s.wh.Explore(r.Context(), d, warehouse.ExploreQuery{Search: j.Value, Prefix: true, Window: 1, Limit: 5})
		if err == nil {
			for _, row := range p.Rows {
				if row.Term == j.Value {
					j.Latest = &row
				}
			}
		}
	case "asin":
		j.Presence, err = s.wh.ProductNow(r.Context(), d, j.Value)
	case "brand":
		j.Presence, err = s.wh.BrandNow(r.Context(), d, j.Value)
	}
	return err
}

type addWatchBody struct {
	Kind  *string `json:"kind"`
	Value *string `json:"value"`
}

func (s *Service) addWatch(w http.ResponseWriter, r *http.Request) {
	list, _, err := s.watchAccess(r, true)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	var b addWatchBody
	if err := httpx.DecodeJSON(w, r, &b, 4096); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	switch {
	case b.Kind == nil || (*b.Kind != "term" && *b.Kind != "asin" && *b.Kind != "brand"):
		httpx.WriteError(w, r, httpx.BadRequest("kind: must be term, asin or brand"))
		return
	case b.Value == nil || strings.TrimSpace(*b.Value) == "" || len(*b.Value) > 500:
		httpx.WriteError(w, r, httpx.BadRequest("value: 1 to 500 characters"))
		return
	}
	value := strings.TrimSpace(*b.Value)
	if *b.Kind == "asin" {
		value = strings.ToUpper(value)
	}
	raw := make([]byte, 12)
	rand.Read(raw)
	it := store.WatchlistItem{ID: hex.EncodeToString(raw), Kind: *b.Kind, Value: value, CreatedAt: s.now()}
	p, err := s.plans(r.Context(), list)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	limit := p.Limits.WatchlistItems
	if limit == plan.Unlimited {
		limit = math.MaxInt32
	}
	// The store counts and inserts together, so two requests cannot both take the last place.
	err = s.store.AddWatchlistItem(r.Context(), list, it, limit)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		httpx.WriteError(w, r, httpx.NewError(http.StatusConflict, "ALREADY_WATCHED", "This item is already on the watchlist"))
	case errors.Is(err, store.ErrLimit):
		httpx.WriteError(w, r, planError(p.Allow(plan.Watchlist, limit, 1)))
	case err != nil:
		httpx.WriteError(w, r, err)
	default:
		httpx.WriteJSON(w, http.StatusCreated, it)
	}
}

func (s *Service) removeWatch(w http.ResponseWriter, r *http.Request) {
	list, _, err := s.watchAccess(r, true)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := s.store.RemoveWatchlistItem(r.Context(), list, r.PathValue("id")); errors.Is(err, store.ErrNotFound) {
		httpx.WriteError(w, r, httpx.NewError(http.StatusNotFound, "NOT_FOUND", "No such watchlist item"))
		return
	} else if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
