package generator

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// compensatedZeta calls check(n, ζ(n, θ)) for each n of ns (sorted), with ζ
// summed term by term in Neumaier's compensated summation: its error is a
// few ulps whatever n, the reference the fast Zeta is held to.
func compensatedZeta(theta float64, ns []int64, check func(n int64, exact float64)) {
	sum, comp := 0.0, 0.0
	i := int64(0)
	for _, n := range ns {
		for ; i < n; i++ {
			term := 1 / math.Pow(float64(i+1), theta)
			t := sum + term
			if math.Abs(sum) >= term {
				comp += (sum - t) + term
			} else {
				comp += (term - t) + sum
			}
			sum = t
		}
		check(n, sum+comp)
	}
}

// zetaCheckpoints is every n from 1 to 300, every n within 32 of
// ZetaExactMax, and about 40 n per decade from 300 up to max.
func zetaCheckpoints(max int64) []int64 {
	var ns []int64
	for n := int64(1); n <= 300; n++ {
		ns = append(ns, n)
	}
	for n := int64(ZetaExactMax - 32); n <= ZetaExactMax+32; n++ {
		ns = append(ns, n)
	}
	for x := 300.0; x <= float64(max); x *= 1.06 {
		ns = append(ns, int64(x))
	}
	ns = append(ns, max-1, max)
	slices.Sort(ns)
	return slices.Compact(ns)
}

// TestZetaExact holds Zeta to compensated sums for n from 1 to 10^7 at θ =
// 0.5, YCSB's 0.99 and 1.5, and to 10^6 for θ near 1, at 1, far from 1 and
// past the point where the tail is dropped (a tenth of that with -short or
// -race, which has nothing to find in a sum and makes it take 25 s). The
// required bound is 1e-12 relative; the Euler–Maclaurin range (n >
// ZetaExactMax) is held to 1e-14, which leaving out any correction term fails
// (the B6 term alone is 2.5e-14 relative at θ = 0.99).
func TestZetaExact(t *testing.T) {
	big, small := int64(10_000_000), int64(1_000_000)
	if testing.Short() || raceEnabled {
		big, small = big/10, small/10
	}
	for _, c := range []struct {
		theta float64
		max   int64
	}{
		{0.5, big}, {0.99, big}, {1.5, big},
		{0.01, small}, {0.9999, small}, {1, small}, {1.0001, small},
		{3, small}, {12, small}, {99, small}, {150, small},
	} {
		t.Run(fmt.Sprint(c.theta), func(t *testing.T) {
			t.Parallel()
			worstSum, worstEM := 0.0, 0.0
			compensatedZeta(c.theta, zetaCheckpoints(c.max), func(n int64, exact float64) {
				got := Zeta(n, c.theta)
				rel := math.Abs(got-exact) / exact
				limit := 1e-12
				if n > ZetaExactMax {
					limit = 1e-14
					worstEM = max(worstEM, rel)
				} else {
					worstSum = max(worstSum, rel)
				}
				if !(rel <= limit) {
					t.Errorf("Zeta(%d, %v) = %.17g, compensated sum %.17g: relative error %.2g, want <= %g", n, c.theta, got, exact, rel, limit)
				}
			})
			t.Logf("θ = %v: largest relative error %.2g summed (n <= %d), %.2g by Euler–Maclaurin (n <= %d)", c.theta, worstSum, ZetaExactMax, worstEM, c.max)
		})
	}
}

// TestZetaLarge checks n far beyond any sum against Riemann's ζ(θ) and its
// tail: ζ(n, θ) = ζ(θ) + n^(1-θ)/(1-θ) + n^-θ/2 - θ·n^(-θ-1)/12 + … for
// θ ≠ 1, with ζ(2) = π²/6, ζ(1.5) and ζ(0.5) (the analytic continuation) to
// 20 digits; and at θ = 1 the harmonic number ln n + γ + 1/(2n) - 1/(12n²).
func TestZetaLarge(t *testing.T) {
	riemann := map[float64]float64{
		2:   math.Pi * math.Pi / 6,
		1.5: 2.6123753486854883433,
		0.5: -1.4603545088095868129,
	}
	const euler = 0.57721566490153286061
	for _, n := range []int64{1e9, 1e12, 1 << 53, math.MaxInt64} {
		x := float64(n)
		for theta, z := range riemann {
			want := z + math.Pow(x, 1-theta)/(1-theta) + math.Pow(x, -theta)/2 - theta*math.Pow(x, -theta-1)/12
			if got := Zeta(n, theta); math.Abs(got-want)/want > 1e-14 {
				t.Errorf("Zeta(%d, %v) = %.17g, want %.17g (Riemann ζ plus tail)", n, theta, got, want)
			}
		}
		want := math.Log(x) + euler + 1/(2*x) - 1/(12*x*x)
		if got := Zeta(n, 1); math.Abs(got-want)/want > 1e-14 {
			t.Errorf("Zeta(%d, 1) = %.17g, want %.17g (harmonic number)", n, got, want)
		}
	}
}

// TestZetaScrambledConstant checks Zeta against Java's precomputed ζ for
// 10^10 ranks at θ = 0.99. Java's constant came from a naive sum of 10^10
// terms, whose rounding error could reach 1e-7 relative; they agree to about
// 1e-12, so the tolerance is 1e-10.
func TestZetaScrambledConstant(t *testing.T) {
	got := Zeta(ScrambledItemCount, ZipfianConstant)
	t.Logf("Zeta(1e10, 0.99) = %.17g, Java %.17g", got, ScrambledZetan)
	if rel := math.Abs(got-ScrambledZetan) / ScrambledZetan; rel > 1e-10 {
		t.Errorf("Zeta(1e10, 0.99) = %.15g, want %.15g (Java) within 1e-10 relative; off by %.2g", got, ScrambledZetan, rel)
	}
}

// TestZetaGrowth: growing ζ (Zipfian.NextN with a larger count) gives the
// same bits as a fresh Zeta of the new count, whatever the steps: one at a
// time below and across ZetaExactMax, single steps far above it, and jumps
// to 10^12 and beyond.
func TestZetaGrowth(t *testing.T) {
	for _, theta := range []float64{0.5, 0.99, 1.5} {
		z, err := NewZipfianTheta(0, 9, theta)
		if err != nil {
			t.Fatal(err)
		}
		r := NewRand(40, 0)
		steps := []int64{11, 500, ZetaExactMax - 1, ZetaExactMax, ZetaExactMax + 1, ZetaExactMax + 2,
			50_000, 50_001, 1e9, 1e9 + 1, 1e12, 1<<62 + 1}
		for m := int64(ZetaExactMax - 20); m < ZetaExactMax+20; m++ {
			steps = append(steps, m)
		}
		slices.Sort(steps)
		for _, m := range steps {
			if v := z.NextN(r, m); v < 0 || v >= m {
				t.Fatalf("θ = %v: NextN(r, %d) = %d, outside [0, %d)", theta, m, v, m)
			}
			zetan, count := z.Zetan()
			if count != m {
				t.Fatalf("θ = %v: after NextN(r, %d) ζ is for %d items", theta, m, count)
			}
			if want := Zeta(m, theta); zetan != want {
				t.Errorf("θ = %v: ζ grown to %d = %.17g, fresh Zeta = %.17g", theta, m, zetan, want)
			}
		}
	}
}

// TestSkewedLatestBillion follows a basis of 10^9 acknowledged keys as it
// grows: set-up does not sum 10^9 terms (the test would take minutes), ζ
// after growth equals a fresh Zeta of the final count, and the newest key
// has its share 1/ζ(10^9) ≈ 5.2 %.
func TestSkewedLatestBillion(t *testing.T) {
	const start = 1_000_000_000
	basis := NewAcknowledgedCounter(start + 1) // Last() = start
	s := NewSkewedLatest(basis)
	r := NewRand(41, 0)
	for range 1000 {
		if err := basis.Acknowledge(basis.Next(nil)); err != nil {
			t.Fatal(err)
		}
		if m, v := basis.Last(), s.Next(r); v < 1 || v > m {
			t.Fatalf("Next() = %d, outside [1, %d]", v, m)
		}
	}
	final := basis.Last()
	zetan, count := s.zipf.Zetan()
	if count != final || zetan != Zeta(final, ZipfianConstant) {
		t.Errorf("ζ = %.17g for %d items, want Zeta(%d) = %.17g", zetan, count, final, Zeta(final, ZipfianConstant))
	}
	const n = 100_000
	newest := 0
	for range n {
		if s.Next(r) == final {
			newest++
		}
	}
	want := 1 / zetan
	if got, tol := float64(newest)/n, binomTol(want, n); math.Abs(got-want) > tol {
		t.Errorf("share of the newest key = %.4f, want %.4f ± %.4f", got, want, tol)
	}
}

// TestScrambledZipfianTheta checks a configurable θ: 0.99 is the Java
// generator, and another θ changes the hottest rank's share to 1/ζ(10^10+1,
// θ), above 1 as well as below.
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
	for _, theta := range []float64{0.9, 1.5} {
		s, err := NewScrambledZipfianTheta(0, 1000, theta)
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
		// Rank 0 has 1/ζ (≈ 0.86 % at θ = 0.9, 38 % at 1.5), and the other
		// ranks folding onto 144 add about 1/1001 of the rest.
		zeta := Zeta(ScrambledItemCount+1, theta)
		want := 1/zeta + (1-1/zeta)/1001
		if got, tol := float64(hits)/n, binomTol(want, n)+0.001; math.Abs(got-want) > tol {
			t.Errorf("θ=%v: share of keynum 144 = %.4f, want %.4f ± %.4f", theta, got, want, tol)
		}
	}
	for _, theta := range []float64{0, -0.5, 1, math.Inf(1), math.NaN()} {
		if _, err := NewScrambledZipfianTheta(0, 10, theta); err == nil {
			t.Errorf("NewScrambledZipfianTheta(0, 10, %v): want an error", theta)
		}
	}
}

// BenchmarkZeta: a fresh ζ for 10^9 items (the set-up of a generator), and
// one growth step of a Zipfian far above ZetaExactMax (what each insert
// costs "latest" once the count has moved).
func BenchmarkZeta(b *testing.B) {
	b.Run("fresh-1e9", func(b *testing.B) {
		for b.Loop() {
			sinkFloat += Zeta(1_000_000_000, ZipfianConstant)
		}
	})
	b.Run("grow-by-1", func(b *testing.B) {
		z, _ := NewZipfian(0, 99)
		r := NewRand(1, 2)
		m := int64(1_000_000_000)
		b.ReportAllocs()
		for b.Loop() {
			m++
			sinkInt += z.NextN(r, m)
		}
	})
}

var sinkFloat float64
