package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Java YCSB vectors (ycsb.md §4.2): hashed keys with zeropadding=1.
var javaHashedKeys = []struct {
	keynum int64
	key    string
}{
	{0, "user6284781860667377211"},
	{1, "user8517097267634966620"},
	{2, "user1820151046732198393"},
	{3, "user4052466453699787802"},
	{999, "user2071219101098386137"},
	{1000000, "user1011632231655643464"},
}

func TestFNV64JavaVectors(t *testing.T) {
	for _, tc := range javaHashedKeys {
		want, err := strconv.ParseInt(tc.key[len("user"):], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := FNV64(tc.keynum); got != want {
			t.Errorf("FNV64(%d) = %d, want %d", tc.keynum, got, want)
		}
	}
}

// TestFNV64NotGoYCSB pins that we hash the little-endian bytes (Java), not
// the big-endian ones go-ycsb hashes (ycsb.md §11.4: keynum 1 there gives
// 6284782960179005422).
func TestFNV64NotGoYCSB(t *testing.T) {
	if got := FNV64(1); got == 6284782960179005422 {
		t.Fatalf("FNV64(1) = %d, the go-ycsb (big-endian) value", got)
	}
}

func TestFNV64NonNegative(t *testing.T) {
	for _, v := range []int64{-1, math.MinInt64, math.MaxInt64, 12345678901234} {
		if got := FNV64(v); got < 0 {
			t.Errorf("FNV64(%d) = %d, want >= 0", v, got)
		}
	}
}

// TestFNV64Shortcut checks the shortcuts for key numbers below 2^32 and
// 2^40 (the zero high bytes as one multiplication) against the byte-by-byte
// hash: every value around the boundaries, and 2^20 random ones below 2^32,
// below 10^10 (a scrambled zipfian's range) and of all 64 bits.
func TestFNV64Shortcut(t *testing.T) {
	check := func(v int64) {
		t.Helper()
		want := int64(fnv64Bytes(uint64(v)))
		if want < 0 {
			want = -want
		}
		if got := FNV64(v); got != want {
			t.Fatalf("FNV64(%d) = %d, byte by byte %d", v, got, want)
		}
	}
	for _, edge := range []int64{0, 1 << 8, 1 << 16, 1 << 24, 1 << 32, 1 << 40, math.MaxInt64, math.MinInt64, -1} {
		for d := int64(-300); d <= 300; d++ {
			check(edge + d)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		check(int64(r.Uint32()))
		check(int64(r.Uint64()))
		check(r.Int64N(1e10))
	}
}

// fnv64Bytes is 64-bit FNV-1a over the eight little-endian bytes of u, byte
// by byte: the reference TestFNV64Shortcut checks FNV64 against.
func fnv64Bytes(u uint64) uint64 {
	h := uint64(fnvOffsetBasis64)
	for range 8 {
		h ^= u & 0xff
		h *= fnvPrime64
		u >>= 8
	}
	return h
}

// BenchmarkFNV64Chained feeds each hash into the next key number, as a key
// draw's scramble and its key name wait for one another's results: the
// hash's latency, not its throughput. The key numbers stay below 2^32,
// between 2^32 and 2^40 (the two shortcuts) or above (byte by byte).
var sinkInt64 int64

func BenchmarkFNV64Chained(b *testing.B) {
	for _, c := range []struct {
		name string
		mask int64
		or   int64
	}{{"below2^32", 1<<32 - 1, 0}, {"below2^40", 1<<32 - 1, 1 << 32}, {"above2^40", 1<<40 - 1, 1 << 40}} {
		b.Run(c.name, func(b *testing.B) {
			v := int64(12345)
			for b.Loop() {
				v = FNV64(v)&c.mask | c.or
			}
			sinkInt64 = v
		})
	}
}

func TestAppendKey(t *testing.T) {
	type tc struct {
		name        string
		keynum      int64
		hashed      bool
		zeropadding int
		want        string
	}
	cases := []tc{
		{"ordered default padding", 5, false, 1, "user5"},
		{"ordered padding 8", 5, false, 8, "user00000005"},
		{"ordered padding shorter than digits", 123456, false, 3, "user123456"},
		{"ordered padding 0", 0, false, 0, "user0"},
		{"ordered negative pads like Java", -5, false, 4, "user00-5"},
		{"hashed padding 20", 0, true, 20, "user06284781860667377211"},
		{"hashed max int64", math.MaxInt64, false, 1, "user9223372036854775807"},
	}
	for _, v := range javaHashedKeys {
		cases = append(cases, tc{"java vector " + strconv.FormatInt(v.keynum, 10), v.keynum, true, 1, v.key})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(AppendKey([]byte("x"), c.keynum, c.hashed, c.zeropadding))
			if got != "x"+c.want {
				t.Errorf("AppendKey(%q, %d, %v, %d) = %q, want %q", "x", c.keynum, c.hashed, c.zeropadding, got, "x"+c.want)
			}
		})
	}
}

// TestHashedKeyLengths checks the spread of hashed key lengths stated in
// ycsb.md §4.2: ~89 % of keys have 19 digits, ~10 % 18, ~1 % 17 (exact
// expectations for a uniform hash over [0, 2^63) are 89.16 %, 9.76 %,
// 0.98 %; the tolerance is over 5 binomial standard deviations).
func TestHashedKeyLengths(t *testing.T) {
	const n = 100_000
	var byLen [25]int
	buf := make([]byte, 0, 32)
	for k := range int64(n) {
		buf = AppendKey(buf[:0], k, true, 1)
		byLen[len(buf)-len("user")]++
	}
	for _, c := range []struct {
		digits int
		want   float64
	}{{19, 0.8916}, {18, 0.0976}, {17, 0.0098}} {
		got := float64(byLen[c.digits]) / n
		if math.Abs(got-c.want) > 0.005 {
			t.Errorf("share of %d-digit hashed keys over keynums [0,%d) = %.4f, want %.4f ± 0.005", c.digits, n, got, c.want)
		}
	}
}

// TestAppendDecimalIsStrconv: the division-free decimal digits equal
// strconv's for the edges of every chunk and for random values.
func TestAppendDecimalIsStrconv(t *testing.T) {
	vals := []uint64{0, 1, 9, 10, 99, 100, 12345678, 99999999, 1e8, 1e8 + 1, 123456789012345, 1e16 - 1, 1e16, 1e16 + 7, math.MaxInt64, math.MaxUint64}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		vals = append(vals, r.Uint64()>>r.UintN(64))
	}
	for _, v := range vals {
		if got, want := string(appendDecimal(nil, v)), strconv.FormatUint(v, 10); got != want {
			t.Fatalf("appendDecimal(%d) = %s", v, got)
		}
	}
}

// TestDigits8EveryLane: digits8's lanes are independent, so every value of
// each 4-digit lane against edge values of the other covers every carry and
// every quotient its multiply-shift divisions produce.
func TestDigits8EveryLane(t *testing.T) {
	for hi := uint32(0); hi < 10000; hi++ {
		for _, lo := range []uint32{0, 1, 99, 100, 4999, 9999, hi} {
			for _, n := range []uint32{hi*10000 + lo, lo*10000 + hi} {
				d := digits8(n) | asciiZeros
				var b [8]byte
				for i := range b {
					b[i] = byte(d >> (8 * i))
				}
				if got, want := string(b[:]), fmt.Sprintf("%08d", n); got != want {
					t.Fatalf("digits8(%d) = %q, want %q", n, got, want)
				}
			}
		}
	}
}
