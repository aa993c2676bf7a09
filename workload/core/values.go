package core

import (
	"math/rand/v2"
	"slices"
	"strconv"
)

// appendRandomValue appends n bytes generated as Java YCSB's
// RandomByteIterator does: six bytes from each random 32-bit int, byte k
// being ((b >> 5k) & mask_k) + ' ' with masks 31, 63, 95, 31, 63, 95. The
// bytes are mostly printable ASCII and deliberately not uniform, so that
// compressing stores see the same data as under Java YCSB.
//
// Unlike Java, the value is generated before the timed call (Java generates
// it lazily inside the binding call, inside the measured latency).
func appendRandomValue(dst []byte, r *rand.Rand, n int) []byte {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	b := dst[start:]
	// Each 64-bit draw is two of Java's 32-bit ints: 12 bytes.
	for len(b) > 0 {
		v := r.Uint64()
		for half := 0; half < 2 && len(b) > 0; half++ {
			w := uint32(v)
			v >>= 32
			k := min(6, len(b))
			for i := 0; i < k; i++ {
				b[i] = byte((w>>(5*uint(i)))&randMasks[i]) + ' '
			}
			b = b[k:]
		}
	}
	return dst
}

// randMasks are Java RandomByteIterator's masks for the six bytes of an int.
var randMasks = [6]uint32{31, 63, 95, 31, 63, 95}

// appendIntegrityValue appends the deterministic value of (key, field) of
// length n that Java YCSB's dataintegrity mode writes: key + ":" + field,
// then, until at least n bytes: append ":", then the decimal Java
// String.hashCode of everything built so far (the ":" included); cut to n.
func appendIntegrityValue(dst []byte, key []byte, field string, n int) []byte {
	start := len(dst)
	var h int32
	add := func(b []byte) {
		for _, c := range b {
			h = 31*h + int32(c)
		}
	}
	dst = append(dst, key...)
	dst = append(dst, ':')
	dst = append(dst, field...)
	add(dst[start:])
	for len(dst)-start < n {
		dst = append(dst, ':')
		h = 31*h + ':'
		mark := len(dst)
		dst = strconv.AppendInt(dst, int64(h), 10)
		add(dst[mark:])
	}
	return dst[:start+n]
}
