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
// it lazily inside the binding call, inside the measured latency). A Conn
// that never reads the bytes (drivers.ValueBytesIgnorer) is given the
// fields at their lengths without them, as a Java binding that never reads
// its values never has them made.
func appendRandomValue(dst []byte, r *valueRand, n int) []byte {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	b := dst[start:]
	// Each 64-bit draw is two of Java's 32-bit ints: twelve bytes.
	for len(b) >= 14 {
		putPair(b, r.next())
		b = b[12:]
	}
	for len(b) > 0 {
		var tail [14]byte
		putPair(tail[:], r.next())
		b = b[copy(b, tail[:12]):]
	}
	return dst
}

// putPair stores the twelve value bytes of v's two ints (see spreadPair)
// at b[0:12] with three overlapping stores: y's eight bytes, then the high
// int's six (and two zero bytes, b[12:14], which the next pair or the
// caller overwrites) at 6, then the low int's last two at 4. b needs 14
// bytes.
func putPair(b []byte, v uint64) {
	y, z := spreadPair(v)
	binary.LittleEndian.PutUint64(b[:8], y)
	binary.LittleEndian.PutUint64(b[6:14], y>>32|z&^0xffffffff)
	binary.LittleEndian.PutUint16(b[4:6], uint16(z))
}

// spreadPair returns Java's value bytes of v's two ints, lo = uint32(v)
// and hi = v>>32, where byte k of an int w is ((w >> 5k) & mask_k) + ' '
// (randMasks), two ints at a time in the lanes of one word: y holds bytes
// 0-3 of lo in its low half and of hi in its high half, z bytes 4-5 of lo
// in its bytes 0-1 and of hi in its bytes 4-5. Byte k's bits 5k.. reach bit
// 8k of its lane by a shift left of 3k (bytes 0-3) or right of 20 and 17
// (bytes 4 and 5); no lane takes bits of the other, as the masks show.
// About half the operations of spreading each int by itself.
func spreadPair(v uint64) (y, z uint64) {
	const (
		m0 = 0x1f | 0x1f<<32
		m1 = 0x3f<<8 | 0x3f<<40
		m2 = 0x5f<<16 | 0x5f<<48
		m3 = 0x1f<<24 | 0x1f<<56
		m4 = 0x3f | 0x3f<<32
		m5 = 0x5f<<8 | 0x5f<<40
	)
	y = (v&m0 | (v<<3)&m1 | (v<<6)&m2 | (v<<9)&m3) + 0x2020202020202020
	z = ((v>>20)&m4 | (v>>17)&m5) + 0x0000202000002020
	return y, z
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
