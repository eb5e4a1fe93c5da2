package trends_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
	rt "github.com/sellertrends/sellertrends/internal/trends/report/reporttest"
)

const bombEnv = "TRENDS_BOMB_FILES"

// maxImportRSS bounds the server's peak RSS while it imports a bomb. Issue 30's goal is 2 GiB
// while importing; the bombs are refused within megabytes, and the test server idles at about
// 150 MiB, so any bomb that is read whole (a gigabyte line was) goes far past this.
const maxImportRSS = 512 << 20

// bombResult is what the child process reports for one file.
type bombResult struct {
	File    string         `json:"file"`
	Status  int            `json:"status"`
	Job     map[string]any `json:"job"`
	PeakRSS int64          `json:"peakRss"` // VmHWM
	Heap    uint64         `json:"heapSys"`
}

// Each bomb of the corpus is uploaded to a real server in a child process, which imports it:
// the job fails with an error that says what is wrong, within one long poll, and the process's
// peak RSS (VmHWM, read from /proc and reset before each upload) stays under the bound.
func TestHostileUploadsStayInMemory(t *testing.T) {
	if paths := os.Getenv(bombEnv); paths != "" {
		uploadBombs(t, filepath.SplitList(paths))
		return
	}
	dir := t.TempDir()
	head := rt.Piece{Data: []byte(rt.Meta + rt.Header)}
	const gib = 1 << 30
	mib := func(s string) []byte { return rt.Repeat(s, 1<<20/len(s)) }
	deep, err := rt.ZipBytes(dir, rt.Entry{Name: rt.WeekName, Raw: rt.Report(3)})
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if deep, err = rt.ZipBytes(dir, rt.Entry{Name: "deeper.zip", Raw: deep}); err != nil {
			t.Fatal(err)
		}
	}
	tiny := make([]rt.Entry, 20000)
	for i := range tiny {
		tiny[i] = rt.Entry{Name: fmt.Sprintf("US_Top_Search_Terms_Simple_Week_%d.csv", i), Raw: []byte("1")}
	}
	bombs := []struct {
		name, file string
		make       func(string) error
		want       string
	}{
		{"long line zip", "long-line.zip", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{head, {Data: mib("a"), Times: gib >> 20}}})
		}, "decompression bomb"},
		{"long line gzip", "long-line.csv.gz", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: mib("a"), Times: gib >> 20})
		}, "line 3: more than 1 MiB without the end of a record"},
		{"long field", "long-field.csv.gz", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: []byte(rt.Row(1, "a", strings.Repeat("t", 512<<10)))})
		}, "at most 64 KiB in a cell"},
		{"whitespace zip", "spaces.zip", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{{Data: mib(" "), Times: 4 * gib >> 20}}})
		}, "decompression bomb"},
		{"whitespace gzip", "spaces.csv.gz", func(f string) error {
			return rt.GzipFile(f, rt.Piece{Data: mib(" \t"), Times: 4 * gib >> 20})
		}, "flood of blank space"},
		{"blank lines gzip", "blank-lines.csv.gz", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: mib("\r\n"), Times: gib >> 20})
		}, "more than 1 MiB without the end of a record"},
		{"deep zip", "deep.zip", func(f string) error { return os.WriteFile(f, deep, 0o600) }, "a zip or gzip inside a zip is not opened"},
		{"many tiny entries", "tiny.zip", func(f string) error { return rt.ZipFile(f, tiny...) }, "holds 20000 entries"},
		{"gzip bomb", "rows.csv.gz", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: []byte(strings.Repeat(rt.Row(7, "same", "Title"), 8000)), Times: 300})
		}, "decompression bomb"},
		{"zip bomb", "zeros.zip", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{{Data: make([]byte, 1<<20), Times: gib >> 20}}})
		}, "decompression bomb"},
	}
	var paths []string
	for _, b := range bombs {
		path := filepath.Join(dir, b.file)
		if err := b.make(path); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestHostileUploadsStayInMemory$", "-test.count=1")
	child.Env = append(os.Environ(), bombEnv+"="+strings.Join(paths, string(filepath.ListSeparator)))
	out, err := child.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	results := map[string]bombResult{}
	for sc := bufio.NewScanner(strings.NewReader(string(out))); sc.Scan(); {
		if line, ok := strings.CutPrefix(sc.Text(), "bomb result "); ok {
			var res bombResult
			json.Unmarshal([]byte(line), &res)
			results[filepath.Base(res.File)] = res
		}
	}
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			res, ok := results[b.file]
			if !ok {
				t.Fatalf("no result from the child:\n%s", out)
			}
			t.Logf("%s: upload %d, job %v, peak RSS %d MiB, Go heap %d MiB", b.file, res.Status, res.Job["error"], res.PeakRSS>>20, res.Heap>>20)
			if res.Status != 202 || res.Job["state"] != "failed" || !strings.Contains(fmt.Sprint(res.Job["error"]), b.want) {
				t.Errorf("upload %d, job %v: want a failed job saying %q", res.Status, res.Job, b.want)
			}
			if res.PeakRSS <= 0 || res.PeakRSS > maxImportRSS {
				t.Errorf("peak RSS %d MiB, at most %d MiB wanted", res.PeakRSS>>20, maxImportRSS>>20)
			}
		})
	}
}

// uploadBombs runs in the child: a real server, and for each file one upload and one long poll
// for its job, with the peak RSS reset before and read after.
func uploadBombs(t *testing.T, paths []string) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	for _, path := range paths {
		// Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+).
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			t.Fatal(err)
		}
		status, out := upload(t, c, app, ws, map[string]string{"marketplace": "US"}, path)
		res := bombResult{File: path, Status: status}
		if jobs, ok := out["jobs"].([]any); ok && len(jobs) == 1 {
			id := jobs[0].(map[string]any)["id"].(string)
			res.Job = c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t)
		}
		res.PeakRSS = peakRSS(t)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		res.Heap = ms.HeapSys
		line, _ := json.Marshal(res)
		fmt.Printf("bomb result %s\n", line)
	}
}

// peakRSS is the process's resident high-water mark (VmHWM) in bytes.
func peakRSS(t *testing.T) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
