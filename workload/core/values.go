package core

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
)

// valueRand is the random source of value bytes: wyrand (one add and one
// 64x64->128-bit multiply per 64 bits), seeded from the worker's stream,
// so that a worker's values repeat with its seed. It is cheaper than the
// worker's PCG behind *rand.Rand, whose calls go through an interface, and
// value bytes need no more than that.
type valueRand struct{ s uint64 }

func newValueRand(r *rand.Rand) valueRand { return valueRand{s: r.Uint64()} }

func (v *valueRand) next() uint64 {
	v.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(v.s, v.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// appendRandomValue appends n bytes generated as Java YCSB's
// RandomByteIterator does: six bytes from each random 32-bit int, byte k
// being ((b >> 5k) & mask_k) + ' ' with masks 31, 63, 95, 31, 63, 95. The
// bytes are mostly printable ASCII and deliberately not uniform, so that
// compressing stores see the same data as under Java YCSB.
//
// Unlike Java, the value is generated before the timed call (Java generates
// it lazily inside the binding call, inside the measured latency).
func appendRandomValue(dst []byte, r *valueRand, n int) []byte {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	b := dst[start:]
	// Each 64-bit draw is two of Java's 32-bit ints: 12 bytes, six per int
	// spread into a word at once and stored 8 bytes at a time (the two
	// bytes past the six are overwritten by the next store).
	for len(b) >= 14 {
		v := r.next()
		binary.LittleEndian.PutUint64(b, spreadInt(uint32(v)))
		binary.LittleEndian.PutUint64(b[6:], spreadInt(uint32(v>>32)))
		b = b[12:]
	}
	for len(b) > 0 {
		var tail [16]byte
		v := r.next()
		binary.LittleEndian.PutUint64(tail[:], spreadInt(uint32(v)))
		binary.LittleEndian.PutUint64(tail[6:], spreadInt(uint32(v>>32)))
		b = b[copy(b, tail[:12]):]
	}
	return dst
}

// spreadInt returns Java's six value bytes of w in the low six bytes of a
// little-endian word: byte k = ((w >> 5k) & mask_k) + ' ', where byte k's
// bits 5k.. of w reach bit 8k by a shift left of 3k.
func spreadInt(w uint32) uint64 {
	x := uint64(w)
	y := x&0x1f | (x<<3)&(0x3f<<8) | (x<<6)&(0x5f<<16) | (x<<9)&(0x1f<<24) | (x<<12)&(0x3f<<32) | (x<<15)&(0x5f<<40)
	return y + 0x202020202020
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
