package report

import (
	"math"
	"strconv"
	"testing"
)

// TestParseDecimalMatchesParseFloat: where the fast path answers, it answers exactly what
// ParseFloat does; what it leaves (signs, exponents, long mantissas) ParseFloat still reads.
func TestParseDecimalMatchesParseFloat(t *testing.T) {
	for _, s := range []string{"0", "5", "38.62", "0.3862", "100", "100.00", ".5", "5.", "0.1", "0.7", "99.99",
		"12.345678901234", "0.00000000000001", "123456789012345"} {
		checkParseDecimal(t, s, true)
	}
	for _, s := range []string{"", ".", "+5", "-0.1", "1e2", "1.2.3", "1234567890123456", "NaN", "Inf", "5 ", "0x10"} {
		checkParseDecimal(t, s, false)
	}
	// Every two-decimal percentage and every five-decimal fraction, as reports write them.
	for m := range 100_001 {
		checkParseDecimal(t, strconv.FormatFloat(float64(m)/100, 'f', 2, 64), true)
		checkParseDecimal(t, strconv.FormatFloat(float64(m)/100000, 'f', 5, 64), true)
	}
}

func checkParseDecimal(t *testing.T, s string, fast bool) {
	t.Helper()
	got, ok := parseDecimal(s)
	if ok != fast {
		t.Fatalf("parseDecimal(%q) ok = %v, want %v", s, ok, fast)
	}
	if !ok {
		return
	}
	want, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseDecimal(%q) = %v, ParseFloat %v (%v)", s, got, want, err)
	}
}

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"38.62", "0.3862", "5", ".5", "1e2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDecimal(s)
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseDecimal(%q) = %v, ParseFloat %v (%v)", s, got, want, err)
		}
	})
}
