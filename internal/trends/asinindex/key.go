// Package asinindex is a read-only index from a product code (an Amazon ASIN, a Walmart item
// id) to its id in the warehouse's ASIN dictionary, kept in a file beside the store. An import
// looks a report's products up in it while it parses the report, instead of joining millions of
// cells against the dictionary in DuckDB afterwards.
//
// A code of 1 to 10 characters from 0-9 and A-Z (every ASIN) is a number below 2^52 (Key), and
// the index stores a bijective scramble of that number (mix), so two codes never share an
// entry: a lookup that finds a code is exact, and one that does not find it says only that the
// index lacks it. Other codes are never indexed.
package asinindex

// keyBits is the width of a key: every code Key accepts is below 2^keyBits.
const keyBits = 52

const keyMask = 1<<keyBits - 1

// lengthOffset[n] is how many codes are shorter than n characters (of at least one), so codes
// of each length get their own range of keys.
var lengthOffset = func() (o [11]uint64) {
	power := uint64(1)
	for n := 2; n <= 10; n++ {
		power *= 36
		o[n] = o[n-1] + power
	}
	return o
}()

// Key numbers a code of 1 to 10 characters from 0-9 and A-Z, one number per code, all below
// 2^52; false for any other string.
func Key(code string) (uint64, bool) {
	if len(code) == 0 || len(code) > 10 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(code); i++ {
		d := digitOf[code[i]]
		if d == noDigit {
			return 0, false
		}
		v = v*36 + uint64(d)
	}
	return lengthOffset[len(code)] + v, true
}

// digitOf is each byte's value as a base-36 digit (0-9, then A-Z), noDigit for any other byte.
// A table, not comparisons: an ASIN mixes digits and letters at random, and the branches that
// told them apart were mispredicted (0.25 of the import's 0.67 CPU-seconds of lookups).
var digitOf = func() (t [256]byte) {
	for i := range t {
		t[i] = noDigit
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = byte(c-'A') + 10
	}
	return t
}()

const noDigit = 0xff

// mix scrambles a key so that ASINs, which cluster ("B0..."), spread evenly over the index's
// buckets. Each step is invertible on 52-bit numbers (a right xor-shift, a multiplication by an
// odd number modulo 2^52), so distinct keys stay distinct.
func mix(k uint64) uint64 {
	k ^= k >> 29
	k = (k * 0xbf58476d1ce4e5b9) & keyMask
	k ^= k >> 32
	k = (k * 0x94d049bb133111eb) & keyMask
	k ^= k >> 29
	return k
}
