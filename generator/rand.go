package generator

import (
	"math"
	"math/rand/v2"
)

// Generator draws int64 values. Next uses only the caller's r for randomness;
// Last reports the generator's "last value" in Java YCSB's sense (see each
// type for what that is). Whether an implementation may be shared between
// goroutines is stated on the type.
type Generator interface {
	Next(r *rand.Rand) int64
	Last() int64
}

// Drawer is implemented by every generator whose draws can leave its last
// value alone: Draw returns what Next would (the same value from the same r)
// without recording it for Last. It is for callers that never read Last,
// such as CoreWorkload's key, field-length and scan-length choices (Java's
// CoreWorkload never reads those generators' last values either): Next's
// record of the last value is an atomic store, a locked instruction, to a
// word every worker writes, so at two threads and more each draw moves
// that cache line between cores. Draw writes nothing shared (Sequential's
// counter excepted: it is the generator's state).
type Drawer interface {
	Draw(r *rand.Rand) int64
}

// LastValuer is anything with a last value, such as the insert counter a
// [SkewedLatest] follows.
type LastValuer interface {
	Last() int64
}

// NewRand returns a deterministic PCG-backed *rand.Rand for one worker: the
// same (seed, stream) pair always yields the same sequence, and different
// pairs yield unrelated ones. Both inputs are passed through the SplitMix64
// finaliser first, so neighbouring stream numbers (worker 0, 1, 2, …) do not
// start from neighbouring PCG states. The result is not safe for concurrent
// use: give each goroutine its own.
func NewRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix64(seed), mix64(stream^0x9e3779b97f4a7c15)))
}

// mix64 is the SplitMix64 finaliser, a bijection on uint64.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// javaLong converts f to int64 the way a Java (long) cast does: NaN becomes
// 0 and out-of-range values saturate. A plain Go conversion is
// implementation-defined for those inputs (MinInt64 on amd64).
func javaLong(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64: // 2^63 as a float64
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// randLong returns Java's Math.abs(random.nextLong()) as used by
// UniformLongGenerator and HotspotIntegerGenerator: a value in [0, 2^63).
// (Java's abs leaves Long.MIN_VALUE negative with probability 2^-64; that
// bug is not reproduced.)
func randLong(r *rand.Rand) int64 {
	return r.Int64()
}

// span returns hi-lo+1 and whether it is positive and representable.
func span(lo, hi int64) (int64, bool) {
	if hi < lo {
		return 0, false
	}
	n := hi - lo + 1
	return n, n > 0
}
