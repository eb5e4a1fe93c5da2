package demandfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
)

// Frequent phrases. A group's time grows with its matching rows: on a 3M x 156 file a phrase
// in 1 term in 16 ("kids") took 130-250 ms, nearly all of it reading rows, while a rare one
// takes the terms' scan alone (~30 ms). The phrases that match many terms are few and are the
// words sellers group by, so the writer finds the words and word pairs that occur in at least
// minPhraseTerms terms and stores their groups, computed by the same scan, at the end of the
// file. Group answers those from the stored copy when it can (any column's sums; the top
// terms of the column they were kept for); every other phrase is scanned as before.
//
// DefaultPhraseTerms is the writer's PhraseTerms unless set: a group of 25k terms of 156
// periods takes ~40 ms to scan.
const DefaultPhraseTerms = 25_000

var minPhraseTerms = DefaultPhraseTerms // tests make it small

const (
	maxPhrases = 256
	phraseTop  = 32 // top terms kept per stored group, in the column of the latest period
)

// StoredPhrases is how many phrases have their group stored in the file.
func (x *File) StoredPhrases() int { return len(x.phrases) }

// tokenCounter finds the words and word pairs that occur most often in bounded memory
// (Misra and Gries's heavy hitters): of n tokens counted, every token occurring more than
// n/(capacity+1) times is kept, its count low by at most that much.
type tokenCounter struct {
	counts   map[string]int
	capacity int
}

func newTokenCounter(capacity int) *tokenCounter {
	return &tokenCounter{counts: make(map[string]int, capacity), capacity: capacity}
}

// addTerm counts a stored term's words (split at spaces) and adjacent word pairs as they
// stand in the term.
func (c *tokenCounter) addTerm(stored []byte) {
	prevStart, at := -1, 0
	for at < len(stored) {
		for at < len(stored) && stored[at] == ' ' {
			at++
		}
		start := at
		for at < len(stored) && stored[at] != ' ' {
			at++
		}
		if start == at {
			break
		}
		c.add(stored[start:at])
		if prevStart >= 0 {
			c.add(stored[prevStart:at])
		}
		prevStart = start
	}
}

// add counts a token. One holding a byte Group refuses (a term's escaped zero byte) is left
// out.
func (c *tokenCounter) add(token []byte) {
	if bytes.IndexByte(token, separator) >= 0 || bytes.IndexByte(token, escape) >= 0 {
		return
	}
	if n, ok := c.counts[string(token)]; ok {
		c.counts[string(token)] = n + 1
		return
	}
	if len(c.counts) < c.capacity {
		c.counts[string(token)] = 1
		return
	}
	// A new token with every counter taken: it and one occurrence of every kept token cancel
	// out, which is what bounds each kept count's error.
	for t, n := range c.counts {
		if n == 1 {
			delete(c.counts, t)
		} else {
			c.counts[t] = n - 1
		}
	}
}

// frequent are the tokens counted at least least times, most frequent first, at most most.
func (c *tokenCounter) frequent(least, most int) []string {
	var out []string
	for t, n := range c.counts {
		if n >= least {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c.counts[a] != c.counts[b] {
			return c.counts[b] - c.counts[a]
		}
		return strings.Compare(a, b)
	})
	return out[:min(len(out), most)]
}

// stored is the answer Group gives from a stored group, or nil when it must scan: the sums
// serve any column, the top terms only their own column and as many as were kept (all of the
// group's when fewer than phraseTop).
func (x *File) stored(phrase string, column, k int) *Group {
	g := x.phrases[phrase]
	if g == nil || k > 0 && (column != x.topColumn || k > len(g.Top) && len(g.Top) == x.topKept) {
		return nil
	}
	out := &Group{Terms: slices.Clone(g.Terms), Sum: slices.Clone(g.Sum), Max: slices.Clone(g.Max)}
	if k > 0 {
		out.Top = slices.Clone(g.Top[:min(k, len(g.Top))])
	}
	return out
}

// The phrase section: top column and top kept (uint32 each), the number of phrases (uint32),
// then each phrase: its length (uint32) and bytes, per column its terms (uint64), sum
// (float64) and max (float32), then its top terms' count (uint32) and each top term's length
// (uint32), bytes, weight (float32) and row (uint64).

type sectionWriter struct{ b []byte }

func (w *sectionWriter) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *sectionWriter) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *sectionWriter) str(s string) { w.u32(uint32(len(s))); w.b = append(w.b, s...) }

func encodePhrases(phrases []string, groups []*Group, topColumn, topKept int) []byte {
	w := &sectionWriter{}
	w.u32(uint32(topColumn))
	w.u32(uint32(topKept))
	w.u32(uint32(len(phrases)))
	for i, p := range phrases {
		g := groups[i]
		w.str(p)
		for c := range g.Terms {
			w.u64(uint64(g.Terms[c]))
			w.u64(math.Float64bits(g.Sum[c]))
			w.u32(math.Float32bits(g.Max[c]))
		}
		w.u32(uint32(len(g.Top)))
		for _, t := range g.Top {
			w.str(t.Term)
			w.u32(math.Float32bits(t.Weight))
			w.u64(t.row)
		}
	}
	return w.b
}

// sectionReader reads the section, failing (ok false) at the first read past its end.
type sectionReader struct {
	b  []byte
	ok bool
}

func (r *sectionReader) take(n uint64) []byte {
	if !r.ok || n > uint64(len(r.b)) {
		r.ok = false
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *sectionReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *sectionReader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *sectionReader) str() string { return string(r.take(uint64(r.u32()))) }

// decodePhrases reads the section of a file with columns columns; false when it does not
// add up.
func (x *File) decodePhrases(b []byte, columns int) bool {
	r := &sectionReader{b: b, ok: true}
	x.topColumn, x.topKept = int(r.u32()), int(r.u32())
	n := r.u32()
	// Each phrase takes at least 20 bytes a column: a count past that is damage, not a size
	// to allocate for.
	if !r.ok || x.topColumn >= columns || uint64(n)*uint64(20*columns) > uint64(len(r.b)) {
		return false
	}
	x.phrases = make(map[string]*Group, n)
	for range n {
		p := r.str()
		g := newGroup(columns)
		for c := range columns {
			g.Terms[c] = int64(r.u64())
			g.Sum[c] = math.Float64frombits(r.u64())
			g.Max[c] = math.Float32frombits(r.u32())
		}
		tops := r.u32()
		if uint64(tops) > uint64(x.topKept) {
			return false
		}
		for range tops {
			g.Top = append(g.Top, Top{Term: r.str(), Weight: math.Float32frombits(r.u32()), row: r.u64()})
		}
		if !r.ok || !plausible(g) {
			return false
		}
		x.phrases[p] = g
	}
	return r.ok && len(r.b) == 0
}
