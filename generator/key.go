package generator

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
)

const (
	fnvOffsetBasis64 = 0xCBF29CE484222325
	fnvPrime64       = 1099511628211
)

// FNV64 is Java YCSB's Utils.fnvhash64: 64-bit FNV-1a over the eight bytes of
// v, least significant byte first, reinterpreted as signed and made
// non-negative with Java's Math.abs (so the single hash value -2^63 stays
// negative). It is pure and safe for concurrent use.
//
// go-ycsb hashes the big-endian bytes instead, so its keys differ from Java's
// for every keynum except 0; this function matches Java.
func FNV64(v int64) int64 {
	u := uint64(v)
	h := (fnvOffsetBasis64 ^ u&0xff) * fnvPrime64
	h = (h ^ u>>8&0xff) * fnvPrime64
	h = (h ^ u>>16&0xff) * fnvPrime64
	h = (h ^ u>>24&0xff) * fnvPrime64
	// A zero byte leaves h as it is (h^0 = h) before the multiplication,
	// so the zero high bytes multiply h by the prime once each: four times
	// below 2^32 (every key of a table under 4 billion records), three
	// times after byte 4 below 2^40 (a scrambled zipfian's draws over 10^10
	// items); both are one multiplication by its fourth power, mod 2^64 the
	// same. Five dependent multiplications instead of eight, on the chain
	// every key draw and key name waits for.
	switch {
	case u < 1<<32:
		h *= fnvPrime64Pow4
	case u < 1<<40:
		h = (h ^ u>>32) * fnvPrime64Pow4
	default:
		for s := 32; s < 64; s += 8 {
			h = (h ^ u>>s&0xff) * fnvPrime64
		}
	}
	x := int64(h)
	if x < 0 {
		x = -x
	}
	return x
}

// fnvPrime64Pow4 is the FNV prime to the fourth power, mod 2^64.
const fnvPrime64Pow4 = fnvPrime64 * fnvPrime64 * fnvPrime64 * fnvPrime64 & (1<<64 - 1)

// KeyPrefix is the prefix Java YCSB hard-codes in front of every key.
const KeyPrefix = "user"

// AppendKey appends the YCSB key for keynum to dst and returns the extended
// slice, exactly as Java's CoreWorkload.buildKeyName: "user", then the
// decimal form of FNV64(keynum) when hashed (insertorder=hashed) or of keynum
// itself (insertorder=ordered), left-padded with zeros to zeropadding digits.
// A minus sign, possible only for negative keynums or the hash value -2^63,
// counts as a digit for padding, as in Java.
//
// It allocates nothing when dst has room for the prefix and 24 bytes more
// (the digits are stored a word at a time), or for the padded key if
// zeropadding is over 20. The caller owns dst; typical use reuses one
// per-worker buffer: buf = AppendKey(buf[:0], n, true, 1).
func AppendKey(dst []byte, keynum int64, hashed bool, zeropadding int) []byte {
	if hashed {
		keynum = FNV64(keynum)
	}
	dst = append(dst, KeyPrefix...)
	at := len(dst)
	if keynum >= 0 {
		dst = appendDecimal(dst, uint64(keynum))
	} else {
		dst = strconv.AppendInt(dst, keynum, 10)
	}
	if pad := zeropadding - (len(dst) - at); pad > 0 { // rare: zeros go in front of the digits
		digits := len(dst) - at
		for range pad {
			dst = append(dst, '0')
		}
		copy(dst[at+pad:], dst[at:at+digits])
		for i := at; i < at+pad; i++ {
			dst[i] = '0'
		}
	}
	return dst
}

// appendDecimal appends the decimal form of u, as strconv.AppendUint does,
// without its chain of dependent divisions by 100: u is cut into 8-digit
// chunks (at most two divisions by constants), [digits8] turns each chunk
// into its eight ASCII digits with a few multiplications on a word, and the
// words are stored straight into dst's spare capacity (24 bytes are needed
// there; it grows dst once otherwise).
func appendDecimal(dst []byte, u uint64) []byte {
	n := len(dst)
	if cap(dst)-n < 24 {
		dst = slices.Grow(dst, 24)
	}
	b := dst[n : n+24]
	var head uint32
	var mid, low uint64 // the 8-digit chunks after the leading one
	chunks := 0
	switch {
	case u < 1e8:
		head = uint32(u)
	case u < 1e16:
		head, low, chunks = uint32(u/1e8), digits8(uint32(u%1e8)), 1
	default:
		// The three chunks from u side by side (u/1e8 and u/1e16 at once),
		// not through u%1e16 and its quotient one after the other.
		hi, t := u/1e16, u/1e8
		head, mid, low, chunks = uint32(hi), digits8(uint32(t-hi*1e8)), digits8(uint32(u-t*1e8)), 2
	}
	d := digits8(head)
	skip := 7 // u == 0 still has one digit
	if d != 0 {
		skip = bits.TrailingZeros64(d) / 8 // leading zero digits are the low zero bytes
	}
	binary.LittleEndian.PutUint64(b, (d|asciiZeros)>>(8*skip))
	l := 8 - skip
	if chunks == 2 {
		binary.LittleEndian.PutUint64(b[l:], mid|asciiZeros)
		l += 8
	}
	if chunks > 0 {
		binary.LittleEndian.PutUint64(b[l:], low|asciiZeros)
		l += 8
	}
	return dst[:n+l]
}

// asciiZeros is '0' in each byte of a word: ORed into digit values 0-9.
const asciiZeros = 0x3030303030303030

// digits8 returns the eight decimal digits of n < 10^8, leading zeros
// included, as byte values 0-9 of a little-endian word (the first digit in
// the lowest byte). It splits n into two 4-digit lanes of 32 bits, each of
// those into two 2-digit lanes of 16 bits, and those into digits, dividing
// every lane at once by a multiplication and a shift: x·10486>>20 is x/100
// for x < 10^4, and x·103>>10 is x/10 for x < 100, with no lane's product
// reaching the next lane's bits (checked for every lane value in the tests).
func digits8(n uint32) uint64 {
	x := uint64(n/10000) | uint64(n%10000)<<32
	q := (x * 10486 >> 20) & 0x0000007F0000007F
	x = q | (x-q*100)<<16
	q = (x * 103 >> 10) & 0x000F000F000F000F
	return q | (x-q*10)<<8
}
