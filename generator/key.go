package generator

import (
	"math/bits"
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
	h := uint64(fnvOffsetBasis64)
	u := uint64(v)
	for range 8 {
		h ^= u & 0xff
		h *= fnvPrime64
		u >>= 8
	}
	x := int64(h)
	if x < 0 {
		x = -x
	}
	return x
}

// KeyPrefix is the prefix Java YCSB hard-codes in front of every key.
const KeyPrefix = "user"

// AppendKey appends the YCSB key for keynum to dst and returns the extended
// slice, exactly as Java's CoreWorkload.buildKeyName: "user", then the
// decimal form of FNV64(keynum) when hashed (insertorder=hashed) or of keynum
// itself (insertorder=ordered), left-padded with zeros to zeropadding digits.
// A minus sign, possible only for negative keynums or the hash value -2^63,
// counts as a digit for padding, as in Java.
//
// It allocates nothing when dst has room for the key (at most 24 bytes plus
// any padding beyond 20 digits). The caller owns dst; typical use reuses one
// per-worker buffer: buf = AppendKey(buf[:0], n, true, 1).
func AppendKey(dst []byte, keynum int64, hashed bool, zeropadding int) []byte {
	if hashed {
		keynum = FNV64(keynum)
	}
	var digits [20]byte
	var s []byte
	if keynum >= 0 {
		s = appendDecimal(digits[:0], uint64(keynum))
	} else {
		s = strconv.AppendInt(digits[:0], keynum, 10)
	}
	dst = append(dst, KeyPrefix...)
	for i := len(s); i < zeropadding; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendDecimal appends the decimal form of u, as strconv.AppendUint does,
// without its chain of dependent divisions by 100: u is cut into 8-digit
// chunks (two or three independent divisions by constants), and each chunk
// n < 10^8 becomes the binary fraction n/10^8 (rounded up, 64 bits), whose
// digits come out two at a time from the high word of a multiplication by
// 100.
func appendDecimal(dst []byte, u uint64) []byte {
	switch {
	case u < 1e8:
		return appendShort(dst, uint32(u))
	case u < 1e16:
		dst = appendShort(dst, uint32(u/1e8))
		return append8(dst, uint32(u%1e8))
	}
	rest := u % 1e16
	dst = appendShort(dst, uint32(u/1e16))
	dst = append8(dst, uint32(rest/1e8))
	return append8(dst, uint32(rest%1e8))
}

// pow2by1e8 is ⌈2^64 / 10^8⌉: n·pow2by1e8 is n/10^8 as a 64-bit fraction,
// accurate to better than 10^-8 for n < 10^8, so its eight digits are
// exact.
const pow2by1e8 = 184467440738

// append8 appends n < 10^8 as exactly eight digits.
func append8(dst []byte, n uint32) []byte {
	f := uint64(n) * pow2by1e8
	for range 4 {
		var hi uint64
		hi, f = bits.Mul64(f, 100)
		dst = append(dst, digitPairs[2*hi], digitPairs[2*hi+1])
	}
	return dst
}

// appendShort appends n < 10^8 without leading zeros.
func appendShort(dst []byte, n uint32) []byte {
	if n < 10 {
		return append(dst, byte('0'+n))
	}
	var b [8]byte
	append8(b[:0], n)
	i := 0
	for b[i] == '0' {
		i++
	}
	return append(dst, b[i:]...)
}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"
