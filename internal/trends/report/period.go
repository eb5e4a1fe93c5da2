package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// String renders a period as start..end with its kind, e.g. "week 2026-04-05..2026-04-11".
func (p Period) String() string {
	return fmt.Sprintf("%s %s..%s", p.Kind, p.Start.Format(time.DateOnly), p.End.Format(time.DateOnly))
}

// Equal reports whether two periods are the same.
func (p Period) Equal(q Period) bool {
	return p.Kind == q.Kind && p.Start.Equal(q.Start) && p.End.Equal(q.End)
}

// periodEnding builds the period of kind that ends on end.
func periodEnding(kind PeriodKind, end time.Time) Period {
	switch kind {
	case Week:
		return Period{Kind: Week, Start: end.AddDate(0, 0, -6), End: end}
	case Month:
		return Period{Kind: Month, Start: date(end.Year(), end.Month(), 1), End: end}
	case Quarter:
		q := (int(end.Month()) - 1) / 3
		return Period{Kind: Quarter, Start: date(end.Year(), time.Month(q*3+1), 1), End: end}
	}
	return Period{Kind: Day, Start: end, End: end}
}

func monthPeriod(y int, m time.Month) Period {
	start := date(y, m, 1)
	return Period{Kind: Month, Start: start, End: start.AddDate(0, 1, -1)}
}

func quarterPeriod(y, q int) Period {
	start := date(y, time.Month((q-1)*3+1), 1)
	return Period{Kind: Quarter, Start: start, End: start.AddDate(0, 3, -1)}
}

// weekContaining returns the Sunday–Saturday week holding d (Amazon's weeks).
func weekContaining(d time.Time) Period {
	start := d.AddDate(0, 0, -int(d.Weekday()))
	return Period{Kind: Week, Start: start, End: start.AddDate(0, 0, 6)}
}

var (
	isoDate   = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	usDate    = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$`)
	quarterRe = regexp.MustCompile(`^(\d{4})-?Q([1-4])$`)
	monthRe   = regexp.MustCompile(`^(\d{4})-(\d{2})$`)
)

// parseDate reads YYYY-MM-DD or M/D/YYYY (or M/D/YY, as older exports write it).
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if m := isoDate.FindStringSubmatch(s); m != nil {
		return validDate(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}
	if m := usDate.FindStringSubmatch(s); m != nil {
		y := atoi(m[3])
		if len(m[3]) == 2 {
			y += 2000
		}
		return validDate(y, atoi(m[1]), atoi(m[2]))
	}
	return time.Time{}, false
}

func validDate(y, m, d int) (time.Time, bool) {
	t := date(y, time.Month(m), d)
	return t, t.Year() == y && int(t.Month()) == m && t.Day() == d
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// ParsePeriod reads the caller's --period: "2026-04-05..2026-04-11" (kind from the length),
// "2026-04" (month), "2026-Q1" (quarter), or one date "2026-04-08" (the Sunday–Saturday week holding it).
func ParsePeriod(s string) (Period, error) {
	s = strings.TrimSpace(s)
	if a, b, ok := strings.Cut(s, ".."); ok {
		start, ok1 := parseDate(a)
		end, ok2 := parseDate(b)
		if !ok1 || !ok2 || end.Before(start) {
			return Period{}, fmt.Errorf("period %q: want START..END as YYYY-MM-DD", s)
		}
		return classify(start, end)
	}
	if m := quarterRe.FindStringSubmatch(s); m != nil {
		return quarterPeriod(atoi(m[1]), atoi(m[2])), nil
	}
	if m := monthRe.FindStringSubmatch(s); m != nil && atoi(m[2]) >= 1 && atoi(m[2]) <= 12 {
		return monthPeriod(atoi(m[1]), time.Month(atoi(m[2]))), nil
	}
	if d, ok := parseDate(s); ok {
		return weekContaining(d), nil
	}
	return Period{}, fmt.Errorf("period %q: use 2026-04-05..2026-04-11, 2026-04, 2026-Q1 or a date in the week", s)
}

// classify names the kind of a date range: a day, a Sunday–Saturday week, a calendar month or quarter.
func classify(start, end time.Time) (Period, error) {
	days := int(end.Sub(start).Hours()/24) + 1
	switch {
	case days == 1:
		return Period{Kind: Day, Start: start, End: end}, nil
	case days == 7 && start.Weekday() == time.Sunday:
		return Period{Kind: Week, Start: start, End: end}, nil
	case start.Day() == 1 && end.Equal(start.AddDate(0, 1, -1)):
		return Period{Kind: Month, Start: start, End: end}, nil
	case start.Day() == 1 && (start.Month()-1)%3 == 0 && end.Equal(start.AddDate(0, 3, -1)):
		return Period{Kind: Quarter, Start: start, End: end}, nil
	}
	return Period{}, fmt.Errorf("%s..%s is not a day, a Sunday–Saturday week, a calendar month or quarter", start.Format(time.DateOnly), end.Format(time.DateOnly))
}

// metadata is line 1 of a Brand Analytics export: Key=["Value"] cells.
type metadata map[string]string

var metaPair = regexp.MustCompile(`([A-Za-z][A-Za-z ]*?)\s*=\s*\[\s*"?([^"\]]*)"?\s*\]`)

// parseMetadata returns the pairs found in the record's cells (one line rewritten by tools works too).
func parseMetadata(cells []string) metadata {
	md := metadata{}
	for _, m := range metaPair.FindAllStringSubmatch(strings.Join(cells, ","), -1) {
		md[strings.ToLower(strings.TrimSpace(m[1]))] = strings.TrimSpace(m[2])
	}
	return md
}

var (
	weekValue    = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})\s*-\s*(\d{4}-\d{2}-\d{2})`)
	viewingValue = regexp.MustCompile(`(\d{1,2}/\d{1,2}/\d{2,4})\s*-\s*(\d{1,2}/\d{1,2}/\d{2,4})`)
)

// period reads the metadata's period; ok is false when it names none we recognise.
func (md metadata) period() (Period, bool) {
	rng := strings.ToLower(md["reporting range"])
	if w, ok := md["select week"]; ok {
		if m := weekValue.FindStringSubmatch(w); m != nil {
			return rangePeriod(m[1], m[2])
		}
	}
	if v, ok := md["viewing"]; ok {
		if m := viewingValue.FindStringSubmatch(v); m != nil {
			return rangePeriod(m[1], m[2])
		}
	}
	y := atoi(md["select year"])
	if y > 0 && rng == "monthly" {
		if t, err := time.Parse("January", md["select month"]); err == nil {
			return monthPeriod(y, t.Month()), true
		}
	}
	if y > 0 && rng == "quarterly" {
		if q := atoi(md["select quarter"]); q >= 1 && q <= 4 {
			return quarterPeriod(y, q), true
		}
	}
	if d, ok := md["select day"]; ok {
		if t, ok := parseDate(d); ok {
			return Period{Kind: Day, Start: t, End: t}, true
		}
	}
	return Period{}, false
}

// kind reads the metadata's Reporting Range alone.
func (md metadata) kind() PeriodKind {
	switch strings.ToLower(md["reporting range"]) {
	case "weekly":
		return Week
	case "monthly":
		return Month
	case "quarterly":
		return Quarter
	case "daily":
		return Day
	}
	return ""
}

func rangePeriod(a, b string) (Period, bool) {
	start, ok1 := parseDate(a)
	end, ok2 := parseDate(b)
	if !ok1 || !ok2 {
		return Period{}, false
	}
	p, err := classify(start, end)
	return p, err == nil
}

var (
	amazonName  = regexp.MustCompile(`(?i)^([A-Z]{2})_.*?_(Week|Weekly|Month|Monthly|Quarter|Quarterly|Day|Daily)_(\d{4})_(\d{2})_(\d{2})`)
	walmartName = regexp.MustCompile(`(?i)walmart.*?(\d{4}-\d{2}-\d{2})`)
)

// fromFileName reads the marketplace, the period kind and its last day from Amazon's download
// names, e.g. US_Top_Search_Terms_Simple_Week_2026_04_11.csv. Users rename files, so it is a fallback.
func fromFileName(name string) (marketplace string, p Period, ok bool) {
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	if m := amazonName.FindStringSubmatch(base); m != nil {
		end, valid := validDate(atoi(m[3]), atoi(m[4]), atoi(m[5]))
		if !valid {
			return NormalizeMarketplace(m[1]), Period{}, false
		}
		kind := map[string]PeriodKind{"week": Week, "weekly": Week, "month": Month, "monthly": Month, "quarter": Quarter, "quarterly": Quarter, "day": Day, "daily": Day}[strings.ToLower(m[2])]
		return NormalizeMarketplace(m[1]), periodEnding(kind, end), true
	}
	if m := walmartName.FindStringSubmatch(base); m != nil {
		if end, valid := parseDate(m[1]); valid {
			return Walmart, periodEnding(Week, end), true
		}
	}
	return "", Period{}, false
}
