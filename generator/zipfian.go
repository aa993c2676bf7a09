package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// ZipfianConstant is YCSB's default skew θ.
const ZipfianConstant = 0.99

// Zipfian draws from [min, max] with a Zipfian skew: min is the most popular
// item, min+1 the next, and so on (Java ZipfianGenerator; the algorithm is
// Gray et al., "Quickly Generating Billion-Record Synthetic Databases",
// SIGMOD 1994).
//
// Safe for concurrent use. The constants are immutable; ζ and η, which grow
// when NextN is called with a larger item count, are read lock-free through a
// sequence counter and written under a mutex, so Next never allocates or
// blocks unless the item count grows. Set-up and growth are O(1) in the item
// count (see [Zeta]).
type Zipfian struct {
	items, base int64
	theta       float64
	zeta2       float64  // ζ(2, θ)
	alpha       exponent // 1/(1-θ)
	second      float64  // 1 + 0.5^θ: below it u·ζ picks base+1
	twoTerm     float64  // 1 - (2/items)^(1-θ), the η numerator
	tail        zetaTail

	grow sync.Mutex    // serialises growth of ζ
	seq  atomic.Uint64 // odd while count/zetan/eta are being replaced
	// count is the item count ζ was computed for; zetan and eta hold
	// float64 bits.
	count atomic.Int64
	zetan atomic.Uint64
	eta   atomic.Uint64
	// last is written by draws of every worker: on a cache line of its
	// own, away from the fields every draw reads.
	_    [64]byte
	last atomic.Int64
	_    [56]byte
}

// NewZipfian returns a Zipfian over [min, max] with θ = [ZipfianConstant],
// computing ζ(max-min+1) at construction with [Zeta] (O(1); Java's is O(n)).
func NewZipfian(min, max int64) (*Zipfian, error) {
	return NewZipfianTheta(min, max, ZipfianConstant)
}

// NewZipfianTheta returns a Zipfian over [min, max] with skew theta, which
// must be positive, finite and not 1 (above 1 is allowed, as in Java: Gray's
// formula then has η < 0 and a negative exponent, and still maps u =
// (1+2^-θ)/ζ to item 2 and u → 1 to the last item). It computes ζ at
// construction with [Zeta] (O(1)).
func NewZipfianTheta(min, max int64, theta float64) (*Zipfian, error) {
	n, ok := span(min, max)
	if !ok {
		return nil, fmt.Errorf("zipfian generator: bounds [%d, %d] must satisfy min <= max and span at most 2^63-1 values", min, max)
	}
	if err := checkTheta("zipfian", theta); err != nil {
		return nil, err
	}
	return newZipfian(min, n, theta, Zeta(n, theta)), nil
}

// NewZipfianZeta returns a Zipfian over [min, max] with skew theta (as for
// [NewZipfianTheta]) and a precomputed zetan = ζ(max-min+1, theta) (Java's four-argument
// constructor). zetan must be positive and finite. If NextN grows the item
// count past [ZetaExactMax], ζ is recomputed for the new count and zetan is
// no longer used; below, terms are added to it as Java does.
func NewZipfianZeta(min, max int64, theta, zetan float64) (*Zipfian, error) {
	n, ok := span(min, max)
	if !ok {
		return nil, fmt.Errorf("zipfian generator: bounds [%d, %d] must satisfy min <= max and span at most 2^63-1 values", min, max)
	}
	if err := checkTheta("zipfian", theta); err != nil {
		return nil, err
	}
	if !(zetan > 0 && !math.IsInf(zetan, 1)) {
		return nil, fmt.Errorf("zipfian generator: zetan %v must be positive and finite", zetan)
	}
	return newZipfian(min, n, theta, zetan), nil
}

// newZipfian builds the generator without validation; items may be 0 (Java's
// SkewedLatest does that for a one-record table), in which case every draw
// returns base until the count grows.
func newZipfian(base, items int64, theta, zetan float64) *Zipfian {
	z := &Zipfian{
		items:   items,
		base:    base,
		theta:   theta,
		zeta2:   zetaFrom(0, 2, theta, 0),
		alpha:   newExponent(1 / (1 - theta)),
		second:  1 + math.Pow(0.5, theta),
		twoTerm: 1 - math.Pow(2/float64(items), 1-theta),
		tail:    newZetaTail(theta),
	}
	z.count.Store(items)
	z.zetan.Store(math.Float64bits(zetan))
	z.eta.Store(math.Float64bits(z.etaFor(zetan)))
	// Java's constructor draws one value here; it only affects lastValue,
	// and a constructor has no RNG to draw from, so it is skipped.
	return z
}

// etaFor is η = (1 - (2/items)^(1-θ)) / (1 - ζ(2)/zetan).
//
// Java quirk, reproduced: after ζ has grown (NextN with a larger count) η
// still uses the item count given at construction, not the grown one, in the
// (2/n) term. For the large counts YCSB uses the difference is negligible.
func (z *Zipfian) etaFor(zetan float64) float64 {
	return z.twoTerm / (1 - z.zeta2/zetan)
}

// Next returns a value in [min, max].
func (z *Zipfian) Next(r *rand.Rand) int64 {
	return z.NextN(r, z.items)
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (z *Zipfian) Draw(r *rand.Rand) int64 {
	v, _ := z.draw(r, z.items)
	return v
}

// NextN draws as if the generator had itemcount items, returning a value in
// [min, min+itemcount-1] for itemcount ≥ 2 (Java nextLong(itemcount); the two
// head items min and min+1 are returned whatever the count). When itemcount exceeds
// the count ζ was computed for, ζ is grown to it first, under a mutex, and
// comes out exactly as [Zeta](itemcount) would (see [Zipfian.grownZeta]);
// when it is smaller, ζ is left as it is, as Java does by default, so the
// skew is slightly off for the smaller count.
func (z *Zipfian) NextN(r *rand.Rand, itemcount int64) int64 {
	v, general := z.draw(r, itemcount)
	if general {
		z.last.Store(v)
	}
	return v
}

// draw is NextN without recording the last value, for the generators built
// on a Zipfian of their own (scrambled, latest), whose Last is their own
// result: it saves them a write to a cache line every worker shares. general
// reports Gray's general branch.
func (z *Zipfian) draw(r *rand.Rand, itemcount int64) (v int64, general bool) {
	count, zetan, eta := z.state()
	if itemcount > count {
		zetan, eta = z.growTo(itemcount)
	}
	u := r.Float64()
	uz := u * zetan
	if uz < 1 {
		return z.base, false
	}
	if uz < z.second {
		return z.base + 1, false
	}
	return z.base + javaLong(float64(itemcount)*z.alpha.pow(eta*u-eta+1)), true
}

// Last returns the value of the most recent draw that took Gray's general
// branch (neither of the two head items), by any goroutine; 0 before one.
// This mirrors Java, which only records the last value on that branch.
func (z *Zipfian) Last() int64 { return z.last.Load() }

// Zetan returns the current ζ (grown if NextN has seen larger counts) and
// the item count it was computed for.
func (z *Zipfian) Zetan() (zetan float64, count int64) {
	count, zetan, _ = z.state()
	return zetan, count
}

// state reads count, ζ and η consistently without locking.
func (z *Zipfian) state() (count int64, zetan, eta float64) {
	for {
		s := z.seq.Load()
		if s&1 != 0 {
			runtime.Gosched() // a writer is between its three stores
			continue
		}
		count = z.count.Load()
		zb, eb := z.zetan.Load(), z.eta.Load()
		if z.seq.Load() == s {
			return count, math.Float64frombits(zb), math.Float64frombits(eb)
		}
	}
}

// growTo extends ζ to itemcount unless another goroutine already did, and
// returns the ζ and η to draw with.
func (z *Zipfian) growTo(itemcount int64) (zetan, eta float64) {
	z.grow.Lock()
	defer z.grow.Unlock()
	count := z.count.Load()
	zetan = math.Float64frombits(z.zetan.Load())
	eta = math.Float64frombits(z.eta.Load())
	if itemcount <= count {
		return zetan, eta
	}
	zetan = z.grownZeta(count, itemcount, zetan)
	eta = z.etaFor(zetan)
	z.seq.Add(1)
	z.count.Store(itemcount)
	z.zetan.Store(math.Float64bits(zetan))
	z.eta.Store(math.Float64bits(eta))
	z.seq.Add(1)
	return zetan, eta
}

// grownZeta returns ζ(itemcount) given zetan = ζ(count), count < itemcount.
// Up to [ZetaExactMax] it adds the missing terms in Java's order, which is
// bit for bit the sum [Zeta] computes (O(growth), at most ZetaExactMax
// terms); above, it evaluates the stored Euler–Maclaurin tail, as [Zeta]
// does (O(1)). Either way, if ζ started as a [Zeta], the result depends only
// on itemcount, not on the steps by which the count grew, so concurrent
// growth is reproducible.
func (z *Zipfian) grownZeta(count, itemcount int64, zetan float64) float64 {
	if itemcount <= ZetaExactMax {
		return zetaFrom(count, itemcount, z.theta, zetan)
	}
	return z.tail.at(itemcount)
}

// checkTheta accepts every finite skew θ > 0 except 1, where Gray's
// exponent 1/(1-θ) is infinite (see [NewZipfianTheta] for θ > 1).
func checkTheta(what string, theta float64) error {
	if !(theta > 0 && theta != 1) || math.IsInf(theta, 1) {
		return fmt.Errorf("%s generator: theta %v must be finite, > 0 and != 1", what, theta)
	}
	return nil
}

// pow is x^y for the draw's x > 0 (at most 1 for θ < 1, at least 1 above):
// e^(y·ln x) with fastLog and fastExp (see fastpow.go), a fifth of
// math.Pow's cost, within about 10^-14 of it. x outside the normal range
// or a product y·ln x that could overflow or underflow takes
// math.Exp(y·math.Log(x)), and x <= 0 math.Pow.
func pow(x, y float64) float64 {
	if x >= 0x1p-1022 && x <= math.MaxFloat64 {
		if p := y * fastLog(x); p > -700 && p < 700 {
			return fastExp(p)
		}
	}
	if x > 0 {
		return math.Exp(y * math.Log(x))
	}
	return math.Pow(x, y)
}
