package trends

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

type watchItemJSON struct {
	store.WatchlistItem
	Latest *warehouse.TermRow `json:"latest,omitempty"` // for terms: the latest rank and changes
}

// watchlist lists the items with each term's move in the workspace's first dataset.
func (s *Service) watchlist(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, false)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	items, err := s.store.Watchlist(r.Context(), c.workspace)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := make([]watchItemJSON, 0, len(items))
	ds, err := s.wh.Datasets(r.Context(), c.workspace)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	for _, it := range items {
		j := watchItemJSON{WatchlistItem: it}
		if it.Kind == "term" && len(ds) > 0 {
			p, err := s.wh.Explore(r.Context(), &ds[0], warehouse.ExploreQuery{Search: it.Value, Prefix: true, Window: 1, Limit: 5})
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			for _, row := range p.Rows {
				if row.Term == it.Value {
					j.Latest = &row
				}
			}
		}
		out = append(out, j)
	}
	httpx.WriteJSON(w, http.StatusOK, watchlistAnswer{Items: out, Limit: s.limits(c.workspace).WatchlistItems})
}

type addWatchBody struct {
	Kind  *string `json:"kind"`
	Value *string `json:"value"`
}

func (s *Service) addWatch(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, true)
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
	err = s.store.AddWatchlistItem(r.Context(), c.workspace, it, s.limits(c.workspace).WatchlistItems)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		httpx.WriteError(w, r, httpx.NewError(http.StatusConflict, "ALREADY_WATCHED", "This item is already on the watchlist"))
	case errors.Is(err, store.ErrLimit):
		httpx.WriteError(w, r, httpx.NewError(http.StatusForbidden, "PLAN_LIMIT", "The watchlist is full for your plan"))
	case err != nil:
		httpx.WriteError(w, r, err)
	default:
		httpx.WriteJSON(w, http.StatusCreated, it)
	}
}

func (s *Service) removeWatch(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, true)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := s.store.RemoveWatchlistItem(r.Context(), c.workspace, r.PathValue("id")); errors.Is(err, store.ErrNotFound) {
		httpx.WriteError(w, r, httpx.NewError(http.StatusNotFound, "NOT_FOUND", "No such watchlist item"))
		return
	} else if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
