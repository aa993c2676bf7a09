package generator

import "math"

// ZetaExactMax is the largest item count for which [Zeta] adds the terms one
// by one, as Java does; above it ζ comes from the Euler–Maclaurin formula in
// O(1). Summing 10 000 terms takes about a millisecond.
const ZetaExactMax = 10_000

// zetaHead is where the Euler–Maclaurin formula takes over from the summed
// head of the series: terms 1…zetaHead-1 are added, the rest estimated.
const zetaHead = 50

// zetaHuge is the θ from which every term from zetaHead on is below 50^-100
// of the first and the tail is left out (its derivative constants would
// overflow, and it cannot change a float64 sum of at least 1).
const zetaHuge = 100

// Zeta returns ζ(n, θ) = Σ_{i=1..n} i^-θ for θ > 0, in O(1) for large n.
//
// For n ≤ [ZetaExactMax] it is Java's sum (ZipfianGenerator.zetastatic): the
// terms added in Java's order. Above, the first 49 terms are added and the
// rest, Σ_{i=50..n}, is the Euler–Maclaurin formula: ∫_50^n x^-θ dx, the mean
// of the end terms and the B2, B4 and B6 corrections. Its truncation error
// (about the B8 term) is below 2e-16 absolute and 2e-17 relative for every
// θ > 0, so the result is as exact as the float64 rounding of a handful of
// operations allows (the tests bound it at 1e-14 relative against
// compensated sums up to n = 10^7, and against Riemann's ζ at n = 10^12).
//
// Where this differs from Java's value, and why it cannot show: Java adds n
// terms naively, whose rounding drifts by up to about n·1e-16 relative (its
// own ζ(10^10, 0.99) constant is 1.2e-12 from the exact value); for n ≤
// ZetaExactMax the two sums are the same additions, so they agree to the
// last bit unless Java's Math.pow and Go's math.Pow round some term
// differently (then by a few ulps). Gray's algorithm
// reads ζ in three places (the head thresholds 1/ζ and (1+2^-θ)/ζ, and η),
// and the conditional distribution of the items from 2 on does not depend on
// ζ at all: only the split between item 0, item 1 and the rest does. A
// relative change δ in ζ therefore moves the key distribution by at most δ in
// total variation (the tail mass 1-ζ(2)/ζ changes by ζ(2)/ζ·δ). With δ below
// 1e-12, telling the two apart takes of the order of 10^24 draws; a
// distribution test sees sampling noise of 1/√draws, so no test can tell
// them apart (and gobench's random numbers differ from Java's anyway).
func Zeta(n int64, theta float64) float64 {
	if n <= ZetaExactMax {
		return zetaFrom(0, n, theta, 0)
	}
	t := newZetaTail(theta)
	return t.at(n)
}

// zetaFrom extends sum, which is ζ(st, θ), to ζ(n, θ) by adding the terms in
// Java's order (Java zetastatic); O(n-st).
func zetaFrom(st, n int64, theta, sum float64) float64 {
	for i := st; i < n; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// zetaTail holds the parts of the Euler–Maclaurin formula that depend only
// on θ, so that ζ(n, θ) for n > zetaHead costs one Log, one Exp and one
// Expm1. A Zipfian keeps one to grow ζ in O(1); [Zeta] builds a fresh one,
// and both give the same bits for the same n.
type zetaTail struct {
	theta float64
	// base is ζ(zetaHead-1) + f(k)/2 minus the correction terms at k =
	// zetaHead: everything in the formula that does not depend on n.
	base float64
	// scale is k^(1-θ)/(1-θ) (1 for θ = 1): ∫_k^n x^-θ dx =
	// scale·expm1((1-θ)·ln(n/k)).
	scale float64
	// fk is k^-θ: f(n) = fk·exp(-θ·ln(n/k)) shares the integral's logarithm.
	fk float64
	// b are the Bernoulli corrections' factors: the correction at x is
	// f(x)/x·(b[0] + b[1]/x² + b[2]/x⁴).
	b [3]float64
}

// newZetaTail computes the θ-dependent constants (about 50 Pow calls).
func newZetaTail(theta float64) zetaTail {
	const k = zetaHead
	t := zetaTail{theta: theta, base: zetaFrom(0, k-1, theta, 0)}
	if theta >= zetaHuge {
		return t
	}
	if theta == 1 {
		t.scale = 1
	} else {
		t.scale = math.Pow(k, 1-theta) / (1 - theta)
	}
	// f(x) = x^-θ has odd derivatives f⁽ʲ⁾(x) = c_j·x^(-θ-j) with
	// c_1 = -θ, c_3 = c_1(θ+1)(θ+2), c_5 = c_3(θ+3)(θ+4); the Bernoulli
	// weights are B2/2! = 1/12, B4/4! = -1/720, B6/6! = 1/30240.
	c1 := -theta
	c3 := c1 * (theta + 1) * (theta + 2)
	c5 := c3 * (theta + 3) * (theta + 4)
	t.b = [3]float64{c1 / 12, -c3 / 720, c5 / 30240}
	t.fk = math.Pow(k, -theta)
	t.base += t.fk/2 - t.correction(k, t.fk)
	return t
}

// correction is the Bernoulli sum Σ B_2j/(2j)!·f⁽²ʲ⁻¹⁾(x) for f(x) = fx at x.
func (t *zetaTail) correction(x, fx float64) float64 {
	inv := 1 / x
	inv2 := inv * inv
	return fx * inv * (t.b[0] + inv2*(t.b[1]+inv2*t.b[2]))
}

// at returns ζ(n, θ) for n ≥ zetaHead; O(1).
func (t *zetaTail) at(n int64) float64 {
	if t.theta >= zetaHuge {
		return t.base
	}
	x := float64(n)
	lnRatio := math.Log(x / zetaHead)
	fn := t.fk * math.Exp(-t.theta*lnRatio)
	integral := t.scale * lnRatio
	if t.theta != 1 {
		// Expm1 keeps the integral exact when θ is close to 1.
		integral = t.scale * math.Expm1((1-t.theta)*lnRatio)
	}
	return t.base + (fn/2 + t.correction(x, fn)) + integral
}
