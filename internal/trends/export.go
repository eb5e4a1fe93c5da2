package trends

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// writeCSV streams a CSV download: the header, then each record produce emits. If producing
// fails before anything was sent, the answer is the error (a 4xx or 500 as usual); once bytes
// are out, the status is gone, so the connection is aborted: the client sees a failed download,
// never a file that looks complete or ends in an error line a spreadsheet would load as data.
func writeCSV(w http.ResponseWriter, r *http.Request, filename string, header []string, produce func(emit func([]string) error) error) {
	// Every row may take longer than the server's write timeout: progress keeps it going.
	out := &sentWriter{w: httpx.KeepWriting(w, httpx.LongStream), begin: func() {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	}}
	cw := csv.NewWriter(out)
	cw.Write(header)
	err := produce(cw.Write)
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	switch {
	case err == nil:
	case !out.sent: // nothing went out yet: answered as a question that failed
		httpx.WriteError(w, r, questionError(w, r, err))
	default:
		if !errors.Is(err, context.Canceled) {
			slog.Error("export stopped; the download is aborted", slog.Group("request", "method", r.Method, "path", r.URL.Path), "error", err)
		}
		panic(http.ErrAbortHandler) // net/http closes the connection without ending the body
	}
}

// sentWriter notes whether any byte reached the client, setting the headers just before.
type sentWriter struct {
	w     io.Writer
	begin func()
	sent  bool
}

func (s *sentWriter) Write(p []byte) (int, error) {
	if !s.sent {
		s.begin()
		s.sent = true
	}
	return s.w.Write(p)
}

// spreadsheetText keeps a text cell from being read as a formula by a spreadsheet (OWASP's CSV
// injection advice): a cell starting with =, +, -, @, tab or carriage return gets a leading
// apostrophe, which spreadsheets show as text and do not display. Numbers the export formats
// itself never pass through here (a negative change stays a number).
func spreadsheetText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
