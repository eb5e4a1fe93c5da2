package trends

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An export that fails after its first bytes went out is aborted: the client's read fails, and
// the body holds no error text. One that fails before answers the error with its status.
func TestCSVExportFailsVisibly(t *testing.T) {
	failAfter := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeCSV(w, r, "x.csv", []string{"term", "rank"}, func(emit func([]string) error) error {
			for i := range failAfter {
				if err := emit([]string{fmt.Sprintf("term %d", i), fmt.Sprint(i)}); err != nil {
					return err
				}
			}
			return errors.New("the store failed mid-export")
		})
	}))
	defer srv.Close()

	failAfter = 50000 // far more than any buffer: bytes are out when it fails
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, readErr := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || readErr == nil {
		t.Errorf("mid-stream failure: status %d, read error %v: the download looks complete", res.StatusCode, readErr)
	}
	if len(body) < 100000 || strings.Contains(string(body), "failed") || strings.Contains(string(body), "#") {
		t.Errorf("mid-stream failure: %d bytes, tail %q", len(body), body[max(0, len(body)-80):])
	}

	failAfter = 3 // still buffered: nothing was sent
	res, err = http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Code, Message string }
	json.NewDecoder(res.Body).Decode(&e)
	res.Body.Close()
	if res.StatusCode != 500 || e.Code != "INTERNAL_SERVER_ERROR" || res.Header.Get("Content-Disposition") != "" {
		t.Errorf("early failure: %d %+v %v", res.StatusCode, e, res.Header)
	}
}

func TestSpreadsheetText(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")", "+1": "'+1", "-2+3": "'-2+3", "@SUM(A1)": "'@SUM(A1)",
		"\tcmd": "'\tcmd", "\rcmd": "'\rcmd", "yoga mat": "yoga mat", "": "", "a=b": "a=b", "'quoted": "'quoted",
	} {
		got := spreadsheetText(in)
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
		// Read back through a CSV reader, the cell is the same text.
		var b strings.Builder
		cw := csv.NewWriter(&b)
		cw.Write([]string{got, "x"})
		cw.Flush()
		rec, err := csv.NewReader(strings.NewReader(b.String())).Read()
		if err != nil || rec[0] != want {
			t.Errorf("%q read back as %q (%v)", in, rec, err)
		}
	}
}
