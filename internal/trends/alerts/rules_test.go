package alerts

import (
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

func TestWeeklyDueIsTheLastMondayEightUTC(t *testing.T) {
	monday := time.Date(2026, 4, 13, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		now, want time.Time
	}{
		{monday, monday},
		{monday.Add(-time.Second), monday.AddDate(0, 0, -7)},
		{monday.Add(6*24*time.Hour + 15*time.Hour), monday},                           // Sunday 23:00
		{time.Date(2026, 4, 13, 10, 0, 0, 0, time.FixedZone("CEST", 2*3600)), monday}, // 08:00 UTC
	} {
		if got := weeklyDue(c.now); !got.Equal(c.want) {
			t.Errorf("weeklyDue(%v) = %v, want %v", c.now, got, c.want)
		}
	}
}

func TestRankMoveThresholdIsAPercentOfTheOldRank(t *testing.T) {
	for _, c := range []struct {
		old, new, threshold int
		want                bool
	}{
		{1000, 800, 20, true},   // 20% better
		{1000, 1200, 20, true},  // 20% worse
		{1000, 801, 20, false},  // 19.9%
		{1000, 1199, 20, false}, // 19.9%
		{100, 600, 500, true},
		{0, 5000, 500, true}, // entered the report
		{5000, 0, 500, true}, // left it
		{7, 7, 1, false},
	} {
		if got := (RankMove{Old: c.old, New: c.new}).beyond(c.threshold); got != c.want {
			t.Errorf("%d → %d at %d%%: %v, want %v", c.old, c.new, c.threshold, got, c.want)
		}
	}
}

func ranks(rs ...int) []*int {
	out := make([]*int, len(rs))
	for i, r := range rs {
		if r > 0 {
			out[i] = &rs[i]
		}
	}
	return out
}

func TestWasBreakoutAppliesTheRuleOnePeriodBack(t *testing.T) {
	for _, c := range []struct {
		name  string
		spark []*int // oldest first; the last is the latest period; 0 = not ranked
		want  bool
	}{
		{"new last period", ranks(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 900, 400), true},
		{"new this period", ranks(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 400), false},
		{"rising 2x over 4 and every period", ranks(0, 0, 0, 0, 0, 0, 0, 8000, 6000, 4000, 3000, 1500, 700), true},
		{"risen less than 2x", ranks(0, 0, 0, 0, 0, 0, 0, 2000, 1900, 1800, 1700, 1600, 700), false},
		{"not better every period", ranks(0, 0, 0, 0, 0, 0, 0, 8000, 6000, 3000, 4000, 1500, 700), false},
		{"a gap in the streak", ranks(0, 0, 0, 0, 0, 0, 0, 8000, 0, 4000, 3000, 1500, 700), false},
	} {
		if got := wasBreakout(c.spark); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPeriodLabelsReadLikeTheScreens(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		p    report.Period
		want string
	}{
		{report.Period{Kind: report.Week, Start: d(2026, 4, 5), End: d(2026, 4, 11)}, "Apr 5 – 11, 2026"},
		{report.Period{Kind: report.Week, Start: d(2026, 3, 29), End: d(2026, 4, 4)}, "Mar 29 – Apr 4, 2026"},
		{report.Period{Kind: report.Week, Start: d(2025, 12, 28), End: d(2026, 1, 3)}, "Dec 28, 2025 – Jan 3, 2026"},
		{report.Period{Kind: report.Month, Start: d(2026, 4, 1), End: d(2026, 4, 30)}, "April 2026"},
		{report.Period{Kind: report.Quarter, Start: d(2026, 4, 1), End: d(2026, 6, 30)}, "Q2 2026"},
	} {
		if got := periodLabel(c.p); got != c.want {
			t.Errorf("periodLabel(%v) = %q, want %q", c.p, got, c.want)
		}
	}
	if got := num(1234567); got != "1,234,567" {
		t.Errorf("num: %q", got)
	}
	if got := plural(1, "move", "moves") + ", " + plural(2, "move", "moves"); got != "1 move, 2 moves" {
		t.Errorf("plural: %q", got)
	}
}
