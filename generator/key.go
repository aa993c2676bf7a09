package generator

import "strconv"

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
	s := strconv.AppendInt(digits[:0], keynum, 10)
	dst = append(dst, KeyPrefix...)
	for i := len(s); i < zeropadding; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}
