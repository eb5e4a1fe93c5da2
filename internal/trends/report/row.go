// Package report reads search-term report files (every layout of ../shared/data/formats.md)
// into a stream of Rows, with precise line/column errors. It knows nothing about databases.
package report

import "time"

// Layout identifies a report layout, as named in formats.md.
type Layout string

// The accepted layouts.
const (
	LayoutAmazonTST   Layout = "amazon-tst"
	LayoutAmazonDept  Layout = "amazon-dept"
	LayoutAmazonSPAPI Layout = "amazon-spapi"
	LayoutWalmartTST  Layout = "walmart-tst"
)

// PeriodKind is the length of a reporting period.
type PeriodKind string

// The period kinds a dataset can hold.
const (
	Day     PeriodKind = "day"
	Week    PeriodKind = "week"
	Month   PeriodKind = "month"
	Quarter PeriodKind = "quarter"
)

// Period is one reporting period; Start and End are dates (UTC midnight), both inclusive.
type Period struct {
	Kind  PeriodKind `json:"kind"`
	Start time.Time  `json:"start"`
	End   time.Time  `json:"end"`
}

// NoShare marks a blank click or conversion share (blank is not zero).
const NoShare float32 = -1

// Product is one of a term's top-3 clicked products. An empty ASIN means the slot is empty.
type Product struct {
	ASIN            string
	Title           string
	ClickShare      float32 // fraction 0..1, or NoShare
	ConversionShare float32 // fraction 0..1, or NoShare
}

// Row is one search term of one report, normalised across layouts.
type Row struct {
	Line       int // physical line where the record starts (1-based), for messages
	Rank       int32
	Term       string
	Department string // amazon-dept and amazon-spapi; empty otherwise
	Products   [3]Product
	Brands     [3]string // amazon-tst only; empty strings where absent
	Categories [3]string // amazon-tst only
}
