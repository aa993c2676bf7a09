package generator

import (
	"math"
	"math/rand/v2"
	"testing"
)

// relErr is |got-want| / |want| (the absolute difference when want is 0).
func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// TestFastLog: within 2^-52 relative of math.Log (about two of its ulps, or
// 2^-60 absolute near x = 1, where ln x goes to 0) over the whole normal
// range, densely around the zipfian draws' (0.78, 1].
func TestFastLog(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{1, 0.5, 2, math.Sqrt2, math.Sqrt2 / 2, 0x1p-1022, math.MaxFloat64, math.Nextafter(1, 0), math.Nextafter(1, 2), 0.78}
	for range 1000000 {
		xs = append(xs, 0.78+0.22*r.Float64(), math.Float64frombits(0x0010000000000000+r.Uint64N(0x7fe0000000000000)))
	}
	for _, x := range xs {
		got, want := fastLog(x), math.Log(x)
		if e := relErr(got, want); e > 0x1p-52 && math.Abs(got-want) > 0x1p-60 {
			t.Fatalf("fastLog(%v) = %v, math.Log = %v: relative error %.3g", x, got, want, e)
		}
	}
}

// TestFastExp: within 2^-51 relative of math.Exp over (-700, 700).
func TestFastExp(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ys := []float64{0, -0.0, 1, -1, math.Ln2, -699.9, 699.9, 1e-300, -1e-18}
	for range 1000000 {
		ys = append(ys, -24*r.Float64(), 1400*r.Float64()-700)
	}
	for _, y := range ys {
		got, want := fastExp(y), math.Exp(y)
		if e := relErr(got, want); e > 0x1p-51 {
			t.Fatalf("fastExp(%v) = %v, math.Exp = %v: relative error %.3g", y, got, want, e)
		}
	}
}

// TestFastPowDraws: the scrambled zipfian's draw, (long)(10^10 · x^α) for
// Java's θ = 0.99, with pow against math.Pow over 2 000 000 draws' x: at
// most 1 in 10 000 differ, each by one item.
func TestFastPowDraws(t *testing.T) {
	z := newZipfian(0, ScrambledItemCount+1, ZipfianConstant, ScrambledZetan)
	checkDraws(t, z, 5, 6, func(x float64) float64 { return pow(x, z.alpha.value) }, math.Inf(1))
}

// checkDraws draws 2 000 000 of z's x (Gray's η·u - η + 1, u from a PCG
// seeded with seed1, seed2) and compares (long)(10^10 · powf(x)) with the
// draw math.Pow gives: at most 1 in 10 000 may differ, each by one item,
// and each powf(x) must be within maxRel relative of math.Pow's.
func checkDraws(t *testing.T, z *Zipfian, seed1, seed2 uint64, powf func(float64) float64, maxRel float64) {
	t.Helper()
	_, _, eta := z.state()
	r := rand.New(rand.NewPCG(seed1, seed2))
	const n = 2000000
	n10 := float64(ScrambledItemCount + 1)
	differ := 0
	for range n {
		x := eta*r.Float64() - eta + 1
		p, want := powf(x), math.Pow(x, z.alpha.value)
		if e := relErr(p, want); e > maxRel {
			t.Fatalf("x = %v: x^α = %v, math.Pow %v: relative error %.3g", x, p, want, e)
		}
		got, wantDraw := javaLong(n10*p), javaLong(n10*want)
		if got != wantDraw {
			differ++
			if d := got - wantDraw; d > 1 || d < -1 {
				t.Fatalf("x = %v: draw %d, with math.Pow %d", x, got, wantDraw)
			}
		}
	}
	if differ > n/10000 {
		t.Errorf("%d of %d draws differ from math.Pow's, want at most %d", differ, n, n/10000)
	}
	t.Logf("%d of %d draws differ from math.Pow's by one item", differ, n)
}

// TestPowEdges: pow falls back outside fastLog's and fastExp's ranges.
func TestPowEdges(t *testing.T) {
	for _, c := range []struct{ x, y float64 }{{0, 100}, {-1, 2}, {0x1p-1074, 100}, {1e-300, 100}, {1e300, 100}, {math.Inf(1), 2}, {0.9, 100}, {1.1, 0.5}} {
		got, want := pow(c.x, c.y), math.Pow(c.x, c.y)
		if relErr(got, want) > 1e-12 && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("pow(%v, %v) = %v, math.Pow = %v", c.x, c.y, got, want)
		}
	}
}

func BenchmarkPow(b *testing.B) {
	x := 0.9
	var s float64
	for b.Loop() {
		s += pow(x, 99.99999999999991)
		x = math.Nextafter(x, 0)
	}
	_ = s
}

// BenchmarkPowStd is what pow replaced, for comparison.
func BenchmarkPowStd(b *testing.B) {
	x := 0.9
	var s float64
	for b.Loop() {
		s += math.Exp(99.99999999999991 * math.Log(x))
		x = math.Nextafter(x, 0)
	}
	_ = s
}

// TestExponentDraws: the squaring path against math.Pow for Java's θ = 0.99
// over 2 000 000 draws' x, as TestFastPowDraws does for pow: at most 1 in
// 10 000 draws differ, each by one item; and each x^α within 10^-13
// relative of math.Pow's.
func TestExponentDraws(t *testing.T) {
	z := newZipfian(0, ScrambledItemCount+1, ZipfianConstant, ScrambledZetan)
	if z.alpha.n != 100 {
		t.Fatalf("θ = 0.99: exponent %v not on the squaring path (n = %d)", z.alpha.value, z.alpha.n)
	}
	checkDraws(t, z, 7, 8, z.alpha.pow, 1e-13)
}

// TestExponentPaths: which exponents take the squaring path, and every
// path's x^α against math.Pow across and beyond [0.75, 1.25], within
// 10^-13 relative per hundred of α (ln x's rounding grows with α on the
// e^(α·ln x) path).
func TestExponentPaths(t *testing.T) {
	for _, c := range []struct {
		theta float64
		n     uint64
	}{{0.99, 100}, {0.5, 2}, {0.9, 10}, {0.999, 1000}, {0.9999, 0}, {0.3, 0}, {1.01, 0}, {2, 0}, {0.75, 4}} {
		e := newExponent(1 / (1 - c.theta))
		if e.n != c.n {
			t.Errorf("θ = %v (α = %v): n = %d, want %d", c.theta, e.value, e.n, c.n)
		}
		for _, x := range []float64{0.75, 0.7499999, 0.8, 0.9, 0.999, 1, 1.001, 1.1, 1.25, 1.2500001, 0.5, 2, 1e-5} {
			got, want := e.pow(x), math.Pow(x, e.value)
			if relErr(got, want) > 1e-13*max(1, e.value/100) && math.Abs(got-want) > 1e-300 {
				t.Errorf("θ = %v: %v^%v = %v, math.Pow %v", c.theta, x, e.value, got, want)
			}
		}
	}
}

func BenchmarkExponentPow(b *testing.B) {
	e := newExponent(99.99999999999991)
	x := 0.9
	var s float64
	for b.Loop() {
		s += e.pow(x)
		x = math.Nextafter(x, 0)
	}
	_ = s
}

// BenchmarkPowChained and BenchmarkExponentPowChained feed each result into
// the next x, as a draw's chain of dependent operations does: latency, where
// the benchmarks above measure throughput.
func BenchmarkPowChained(b *testing.B) {
	x := 0.9
	var p float64
	for b.Loop() {
		p = pow(x+p*1e-300, 99.99999999999991)
		x = math.Nextafter(x, 0)
	}
	_ = p
}

func BenchmarkExponentPowChained(b *testing.B) {
	e := newExponent(99.99999999999991)
	x := 0.9
	var p float64
	for b.Loop() {
		p = e.pow(x + p*1e-300)
		x = math.Nextafter(x, 0)
	}
	_ = p
}
