package warehouse

import (
	"context"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// The watchlist's latest numbers of a product or brand count the latest period's terms with it
// in their top 3 and name the best-ranked one, with the slot it holds there and its click
// share, as the rows given say; a name no report holds is in no term.
func TestPresenceNow(t *testing.T) {
	w := openTemp(t)
	ranks := map[string]int{"alpha": 1, "bravo": 2, "charlie": 3, "delta": 4, "echo": 5}
	// slots says which slot (1-3) holds the product B0PRESENT1 and the brand Zephyr, by term.
	weekWith := func(n int, slots map[string]int) *memSource {
		src := week(n, ranks)
		for i := range src.rows {
			r := &src.rows[i]
			if k := slots[r.Term]; k > 0 {
				r.Products[k-1] = report.Product{ASIN: "B0PRESENT1", ClickShare: float32(k) / 10, ConversionShare: report.NoShare}
				r.Brands[k-1] = "Zephyr"
			}
		}
		return src
	}
	load(t, w, "ws", weekWith(0, map[string]int{"alpha": 1, "bravo": 1}))
	load(t, w, "ws", weekWith(1, map[string]int{"bravo": 3, "delta": 2, "echo": 1}))
	d := dataset(t, w, "ws")
	ctx := context.Background()
	check := func(what string, got *PresenceNow, err error, want PresenceNow, click float64) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		gotClick := -1.0
		if got.ClickShare != nil {
			gotClick = *got.ClickShare
		}
		got.ClickShare, got.Title = nil, ""
		if *got != want || (click >= 0 && (gotClick < click-1e-6 || gotClick > click+1e-6)) {
			t.Errorf("%s: got %+v (click %v), want %+v (click %v)", what, *got, gotClick, want, click)
		}
	}
	now, err := w.ProductNow(ctx, d, "b0present1")
	check("product", now, err, PresenceNow{Terms: 3, BestTerm: "bravo", BestRank: 2, Slot: 3}, 0.3)
	now, err = w.BrandNow(ctx, d, "ZEPHYR")
	check("brand", now, err, PresenceNow{Terms: 3, BestTerm: "bravo", BestRank: 2, Slot: 3}, 0.3)
	now, err = w.BrandNow(ctx, d, "Acme") // week() puts Acme in slot 1, where Zephyr is not
	check("Acme", now, err, PresenceNow{Terms: 4, BestTerm: "alpha", BestRank: 1, Slot: 1}, 0.25)
	now, err = w.ProductNow(ctx, d, "B0NOSUCHAS")
	check("unknown product", now, err, PresenceNow{}, -1)
	now, err = w.BrandNow(ctx, d, "Nobody")
	check("unknown brand", now, err, PresenceNow{}, -1)
}
