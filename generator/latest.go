package generator

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
)

// Constants of Java's ScrambledZipfianGenerator.
const (
	// ScrambledItemCount is the upper bound of the rank space: ranks are drawn
	// from [0, ScrambledItemCount], i.e. 10^10+1 items.
	ScrambledItemCount = 10_000_000_000
	// ScrambledZetan is the precomputed ζ Java uses for that rank space with
	// θ = 0.99.
	ScrambledZetan = 26.46902820178302
)

// ScrambledZipfian spreads Zipfian popularity over [min, max] (Java
// ScrambledZipfianGenerator): it draws a rank from a θ = 0.99 Zipfian over
// 10^10+1 items with the precomputed ζ = [ScrambledZetan], hashes it with
// [FNV64] and folds it onto the interval: min + FNV64(rank) mod (max-min+1).
//
// The hottest rank has probability 1/26.469 ≈ 3.78 % whatever the key count,
// and folding 10^10 ranks makes the result much flatter than a true Zipfian
// over the keys (YCSB issue #1495). For [0, 1000] the hottest keynum is
// FNV64(0) mod 1001 = 144. Construction is O(1). Safe for concurrent use: the
// parameters are immutable and Last is one atomic word written by every Next.
type ScrambledZipfian struct {
	min, n int64
	zipf   *Zipfian
	// last is written by every draw of every worker: on a cache line of
	// its own, so that the fields every draw reads do not bounce between
	// cores with it.
	_    [64]byte
	last atomic.Int64
	_    [56]byte
}

// NewScrambledZipfian returns a ScrambledZipfian over [min, max] inclusive.
// It fails if max < min or the interval has more than 2^63-1 values.
func NewScrambledZipfian(min, max int64) (*ScrambledZipfian, error) {
	n, ok := span(min, max)
	if !ok {
		return nil, fmt.Errorf("scrambled zipfian generator: bounds [%d, %d] must satisfy min <= max and span at most 2^63-1 values", min, max)
	}
	return &ScrambledZipfian{
		min:  min,
		n:    n,
		zipf: newZipfian(0, ScrambledItemCount+1, ZipfianConstant, ScrambledZetan),
	}, nil
}

// Next returns a value in [min, max].
func (s *ScrambledZipfian) Next(r *rand.Rand) int64 {
	v := s.Draw(r)
	s.last.Store(v)
	return v
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (s *ScrambledZipfian) Draw(r *rand.Rand) int64 {
	z, _ := s.zipf.draw(r, s.zipf.items)
	return s.min + FNV64(z)%s.n
}

// NewScrambledZipfianTheta returns a ScrambledZipfian over [min, max] with
// skew theta, as for [NewZipfianTheta] (YCSB issue #1521 asks for a configurable
// constant; gobench.zipfianconstant sets it). For θ = [ZipfianConstant] it is
// exactly [NewScrambledZipfian], with Java's precomputed ζ. For other values
// Java would sum ζ over 10^10+1 ranks term by term (minutes); here ζ comes
// from [Zeta], so construction stays O(1).
func NewScrambledZipfianTheta(min, max int64, theta float64) (*ScrambledZipfian, error) {
	if theta == ZipfianConstant {
		return NewScrambledZipfian(min, max)
	}
	if err := checkTheta("scrambled zipfian", theta); err != nil {
		return nil, err
	}
	s, err := NewScrambledZipfian(min, max)
	if err != nil {
		return nil, err
	}
	s.zipf = newZipfian(0, ScrambledItemCount+1, theta, Zeta(ScrambledItemCount+1, theta))
	return s, nil
}

// Last returns the value most recently returned by Next (by any goroutine),
// or 0 before the first.
func (s *ScrambledZipfian) Last() int64 { return s.last.Load() }

// Mean returns (min+max)/2.
func (s *ScrambledZipfian) Mean() float64 { return float64(s.min) + float64(s.n-1)/2 }

// SkewedLatest favours the newest items of a growing set (Java
// SkewedLatestGenerator, YCSB's "latest" distribution): with m =
// basis.Last(), Next returns m - z where z is drawn from a Zipfian over m
// items, so m itself is the most popular value and values at or below 0 are
// never produced while m > 0. The Zipfian's ζ grows with m, in O(1) per
// growth once m exceeds [ZetaExactMax].
//
// Safe for concurrent use if basis.Last is (an [AcknowledgedCounter] is).
type SkewedLatest struct {
	basis LastValuer
	zipf  *Zipfian
	last  atomic.Int64
}

// NewSkewedLatest returns a SkewedLatest following basis. The Zipfian is set
// up over basis.Last() items with ζ from [Zeta], so construction is O(1)
// (Java sums ζ term by term: about a second per 10^7 items). A basis below 1
// is treated as an empty set: Next then returns basis.Last() until it grows.
func NewSkewedLatest(basis LastValuer) *SkewedLatest {
	items := max(basis.Last(), 0)
	return &SkewedLatest{
		basis: basis,
		zipf:  newZipfian(0, items, ZipfianConstant, Zeta(items, ZipfianConstant)),
	}
}

// Next returns basis.Last() minus a Zipfian offset.
func (s *SkewedLatest) Next(r *rand.Rand) int64 {
	v := s.Draw(r)
	s.last.Store(v)
	return v
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (s *SkewedLatest) Draw(r *rand.Rand) int64 {
	m := s.basis.Last()
	z, _ := s.zipf.draw(r, m)
	return m - z
}

// Last returns the value most recently returned by Next (by any goroutine),
// or 0 before the first.
func (s *SkewedLatest) Last() int64 { return s.last.Load() }
