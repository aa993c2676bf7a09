package generator

import (
	"math"
	"testing"
)

// TestZetaApprox compares the O(1) approximation with the exact sum. At the
// switch-over (i = 30) the three Bernoulli terms are up to about 1e-7,
// 1e-9 and 5e-13 relative, so leaving out or botching any of them fails the
// 1e-13 bound for some θ.
func TestZetaApprox(t *testing.T) {
	worst := 0.0
	for _, theta := range []float64{0.01, 0.5, 0.8, 0.99, 0.999} {
		exact, prev := 0.0, int64(0)
		for _, n := range []int64{1, 2, 59, 60, 61, 1000, 5000, 100_003} {
			exact, prev = zetaFrom(prev, n, theta, exact), n
			approx := ZetaApprox(n, theta)
			worst = max(worst, math.Abs(approx-exact)/exact)
			if rel := math.Abs(approx-exact) / exact; rel > 1e-13 {
				t.Errorf("ZetaApprox(%d, %v) = %.17g, Zeta = %.17g (relative error %.2g, want <= 1e-13)", n, theta, approx, exact, rel)
			}
		}
	}
	t.Logf("largest relative error %.2g", worst)
}

// TestZetaApproxScrambledConstant checks the approximation against Java's
// precomputed ζ for 10^10 ranks at θ = 0.99. Java's constant came from a
// naive sum of 10^10 terms, whose rounding error could reach 1e-7 relative;
// they agree to about 1e-12, so the tolerance is 1e-10. (TestZetaApprox
// checks the correction terms at 1e-13.)
func TestZetaApproxScrambledConstant(t *testing.T) {
	got := ZetaApprox(ScrambledItemCount, ZipfianConstant)
	t.Logf("ZetaApprox(1e10, 0.99) = %.17g, Java %.17g", got, ScrambledZetan)
	if rel := math.Abs(got-ScrambledZetan) / ScrambledZetan; rel > 1e-10 {
		t.Errorf("ZetaApprox(1e10, 0.99) = %.15g, want %.15g (Java) within 1e-10 relative; off by %.2g", got, ScrambledZetan, rel)
	}
}

// TestScrambledZipfianTheta checks a configurable θ: 0.99 is the Java
// generator, and a smaller θ flattens the head (the hottest rank's share is
// 1/ζ(10^10+1, θ)).
func TestScrambledZipfianTheta(t *testing.T) {
	a, err := NewScrambledZipfianTheta(0, 1000, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewScrambledZipfian(0, 1000)
	ra, rb := NewRand(20, 0), NewRand(20, 0)
	for i := range 1000 {
		if x, y := a.Next(ra), b.Next(rb); x != y {
			t.Fatalf("θ=0.99 draw %d: %d, NewScrambledZipfian gives %d", i, x, y)
		}
	}
	const n = 100_000
	s, err := NewScrambledZipfianTheta(0, 1000, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(21, 0)
	hits := 0
	for range n {
		if s.Next(r) == 144 { // FNV64(rank 0) mod 1001
			hits++
		}
	}
	// Rank 0 has 1/ζ ≈ 0.86 %, and the other ranks folding onto 144 add
	// about 1/1001 of the rest (≈ 0.1 %).
	zeta := ZetaApprox(ScrambledItemCount+1, 0.9)
	want := 1/zeta + (1-1/zeta)/1001
	if got, tol := float64(hits)/n, binomTol(want, n)+0.001; math.Abs(got-want) > tol {
		t.Errorf("θ=0.9: share of keynum 144 = %.4f, want %.4f ± %.4f", got, want, tol)
	}
	for _, theta := range []float64{0, 1, 1.2, math.NaN()} {
		if _, err := NewScrambledZipfianTheta(0, 10, theta); err == nil {
			t.Errorf("NewScrambledZipfianTheta(0, 10, %v): want an error", theta)
		}
	}
}
