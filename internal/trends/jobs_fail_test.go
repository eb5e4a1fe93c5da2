package trends

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// A failed import tells the seller what is wrong with their file in the parser's words, and
// never shows a database's own words ("database is locked") for a fault on the server's side.
func TestFailedJobErrorsAreInWords(t *testing.T) {
	j := NewJobs(JobsConfig{})
	for _, tc := range []struct {
		name, want string
		err        error
		line       int
	}{
		{"file's fault", `line 24: "x": a number`, &report.ParseError{Line: 24, Value: "x", Expected: "a number"}, 24},
		{"wrapped file's fault", `open: line 7: a header`, fmt.Errorf("open: %w", &report.ParseError{Line: 7, Expected: "a header"}), 7},
		{"server's fault", errImportServer, fmt.Errorf("import: commit: %w", errors.New("database is locked")), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := &Job{ID: "x", FileName: "f.csv", finished: make(chan struct{}), changed: make(chan struct{}, 1), keep: true}
			j.fail(job, tc.err)
			if job.State != "failed" || job.Error != tc.want || job.Line != tc.line {
				t.Errorf("got state %q error %q line %d, want %q line %d", job.State, job.Error, job.Line, tc.want, tc.line)
			}
		})
	}
}
