package report

import "fmt"

// ParseError says exactly what is wrong with a file: where (line, column), what was found and
// what was expected. Line 0 means the file as a whole.
type ParseError struct {
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
	ColumnName string `json:"columnName,omitempty"`
	Value      string `json:"value,omitempty"`
	Expected   string `json:"expected"`
}

func (e *ParseError) Error() string {
	where := "file"
	if e.Line > 0 {
		where = fmt.Sprintf("line %d", e.Line)
		if e.Column > 0 {
			where += fmt.Sprintf(", column %d", e.Column)
			if e.ColumnName != "" {
				where += " (" + e.ColumnName + ")"
			}
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

func fileError(format string, args ...any) *ParseError {
	return &ParseError{Expected: fmt.Sprintf(format, args...)}
}
