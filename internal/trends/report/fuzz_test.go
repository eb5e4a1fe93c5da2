package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any bytes either parse or fail with a *ParseError; never a panic or a hang.
func FuzzParse(f *testing.F) {
	f.Add([]byte(tstMeta + tstHeader + tstRow("1", "a", "5")))
	f.Add([]byte(readSampleF(f, "US_Amazon_Search_Terms_Weekly_2022_05_21.csv")[:600]))
	f.Add([]byte(readSampleF(f, "GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json")[:900]))
	f.Add([]byte(readSampleF(f, "walmart_top_search_trends_2026-04-11.csv")[:500]))
	f.Add([]byte("\xef\xbb\xbf"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, lenient := range []bool{false, true} {
			readFuzzed(t, p, data, lenient)
		}
	})
}

// readFuzzed reads every row of the file at path; a lenient read must end too (a JSON
// document cut short once made it skip the same error for ever).
func readFuzzed(t *testing.T, p string, data []byte, lenient bool) {
	srcs, err := Open(p, Options{Lenient: lenient})
	if err != nil {
		assertParseError(t, err)
		return
	}
	for _, s := range srcs {
		for i := 0; ; i++ {
			_, err := s.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				assertParseError(t, err)
				break
			}
			if i > len(data) {
				t.Fatal("more rows than bytes: a loop")
			}
		}
		s.Close()
	}
}

func assertParseError(t *testing.T, err error) {
	var pe *ParseError
	if !errors.As(err, &pe) && !strings.Contains(err.Error(), ".") {
		t.Fatalf("error %T %v is neither a ParseError nor descriptive", err, err)
	}
}

func readSampleF(f *testing.F, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}

// BenchmarkParseTST measures parsing throughput on a generated 50k-row weekly file.
func BenchmarkParseTST(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(tstMeta + tstHeader)
	for i := 1; i <= 50000; i++ {
		sb.WriteString(fmt.Sprintf(`"%d","term number %d","Brand","Other","","Home","","","B0AAAAAAAA","A product title, with a comma","12.34","5.5","B0BBBBBBBB","Second product","10","2","B0CCCCCCCC","Third","1.5","","4/11/2026"`+"\n", i, i))
	}
	p := filepath.Join(b.TempDir(), "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	os.WriteFile(p, []byte(sb.String()), 0o644)
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for range b.N {
		srcs, err := Open(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := srcs[0].Next(); err != nil {
				break
			}
		}
		srcs[0].Close()
	}
}
