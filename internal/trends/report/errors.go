package report

import "fmt"

// ParseError says exactly what is wrong with a file: where (a CSV line or an SP-API record, and
// the column by its header name), what was found and what was expected. Neither Line nor
// Record set means the file as a whole.
type ParseError struct {
	Line     int    `json:"line,omitempty"`   // CSV: the record's first physical line (1-based)
	Record   int    `json:"record,omitempty"` // SP-API JSON: the record's number in its array (1-based)
	Column   string `json:"column,omitempty"` // the column's header name (CSV) or the field's name (JSON)
	Value    string `json:"value,omitempty"`
	Expected string `json:"expected"`
	// Broken says the file's structure is broken (a record cut short, of the wrong width, a
	// quote never closed): lenient mode, which skips bad values, refuses such a file too.
	Broken bool `json:"broken,omitempty"`
}

func (e *ParseError) Error() string {
	where := "file"
	switch {
	case e.Line > 0:
		where = fmt.Sprintf("line %d", e.Line)
		if e.Column != "" {
			where += ", column `" + e.Column + "`"
		}
	case e.Record > 0:
		where = fmt.Sprintf("record %d", e.Record)
		if e.Column != "" {
			where += ", field `" + e.Column + "`"
		}
	}
	if e.Value != "" {
		v := e.Value
		if len(v) > 80 {
			v = v[:80] + "…"
		}
		return fmt.Sprintf("%s: %q: %s", where, v, e.Expected)
	}
	return where + ": " + e.Expected
}

// skippable says whether lenient mode may skip the row this error is about.
func (e *ParseError) skippable() bool { return (e.Line > 0 || e.Record > 0) && !e.Broken }

func fileError(format string, args ...any) *ParseError {
	return &ParseError{Expected: fmt.Sprintf(format, args...)}
}

// At is an error about the row of a report of layout l that Row.Line calls n: a line of a CSV
// file, a record of an SP-API document.
func At(l Layout, n int, column, value, expected string) *ParseError {
	if l == LayoutAmazonSPAPI {
		return &ParseError{Record: n, Column: column, Value: value, Expected: expected}
	}
	return &ParseError{Line: n, Column: column, Value: value, Expected: expected}
}

// Where names the row Row.Line n of a report of layout l in a message: "line 12" or "record 12".
func Where(l Layout, n int) string {
	if l == LayoutAmazonSPAPI {
		return fmt.Sprintf("record %d", n)
	}
	return fmt.Sprintf("line %d", n)
}

// TermColumn and RankColumn are the names layout l gives the search term and its rank.
func TermColumn(l Layout) string { return columnName(l, "Search Term", "searchTerm", "searchKeyword") }

// RankColumn: see TermColumn.
func RankColumn(l Layout) string {
	return columnName(l, "Search Frequency Rank", "searchFrequencyRank", "searchKeywordFrequencyRank")
}

func columnName(l Layout, amazon, spapi, walmart string) string {
	switch l {
	case LayoutAmazonSPAPI:
		return spapi
	case LayoutWalmartTST:
		return walmart
	}
	return amazon
}
