package generator

import (
	"math"
	"strings"
	"testing"
)

// TestUniformChiSquare draws 100 000 values from uniform(0,99) and checks
// the chi-square statistic over the 100 values against 99 degrees of
// freedom: its 99.9th percentile is 148.2.
func TestUniformChiSquare(t *testing.T) {
	const n, k = 100_000, 100
	u, err := NewUniform(0, k-1)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(10, 0)
	var counts [k]int
	for range n {
		v := u.Next(r)
		if v < 0 || v >= k {
			t.Fatalf("Next() = %d, outside [0, %d]", v, k-1)
		}
		counts[v]++
	}
	chi := 0.0
	for _, c := range counts {
		d := float64(c) - n/k
		chi += d * d / (n / k)
	}
	if chi > 148.2 {
		t.Errorf("uniform(0,%d): chi-square = %.1f over %d draws, want < 148.2 (p = 0.001)", k-1, chi, n)
	}
}

func TestUniformBounds(t *testing.T) {
	r := NewRand(11, 0)
	for _, c := range []struct{ lb, ub int64 }{
		{5, 5}, {-3, 3}, {math.MaxInt64 - 2, math.MaxInt64}, {math.MinInt64, math.MinInt64 + 1},
	} {
		u, err := NewUniform(c.lb, c.ub)
		if err != nil {
			t.Fatalf("NewUniform(%d, %d) = %v", c.lb, c.ub, err)
		}
		seen := map[int64]bool{}
		for range 200 {
			v := u.Next(r)
			if v < c.lb || v > c.ub {
				t.Fatalf("uniform(%d,%d).Next() = %d, out of range", c.lb, c.ub, v)
			}
			if got := u.Last(); got != v {
				t.Fatalf("Last() = %d after Next() = %d", got, v)
			}
			seen[v] = true
		}
		if want := c.ub - c.lb + 1; int64(len(seen)) != want {
			t.Errorf("uniform(%d,%d): %d distinct values in 200 draws, want %d", c.lb, c.ub, len(seen), want)
		}
	}
	for _, c := range []struct{ lb, ub int64 }{{1, 0}, {math.MinInt64, math.MaxInt64}, {-1, math.MaxInt64}} {
		if _, err := NewUniform(c.lb, c.ub); err == nil {
			t.Errorf("NewUniform(%d, %d): want an error", c.lb, c.ub)
		}
	}
}

func TestConstant(t *testing.T) {
	c := NewConstant(42)
	if c.Next(nil) != 42 || c.Last() != 42 {
		t.Errorf("Constant(42): Next() = %d, Last() = %d, want 42", c.Next(nil), c.Last())
	}
}

// TestHotspot checks hotspot(0,999, 0.2, 0.8): hot set [0,200), 80 % of draws
// there, each side uniform (ycsb.md §6.7).
func TestHotspot(t *testing.T) {
	const n = 100_000
	h, warn, err := NewHotspot(0, 999, 0.2, 0.8)
	if err != nil || len(warn) != 0 {
		t.Fatalf("NewHotspot(0, 999, 0.2, 0.8) = %v, %v", warn, err)
	}
	if hot, cold := h.HotSet(); hot != 200 || cold != 800 {
		t.Fatalf("HotSet() = %d, %d, want 200, 800", hot, cold)
	}
	r := NewRand(12, 0)
	hotN, sum := 0, 0.0
	var lowHot, highCold int
	for range n {
		v := h.Next(r)
		if v < 0 || v > 999 {
			t.Fatalf("Next() = %d, outside [0, 999]", v)
		}
		if v < 200 {
			hotN++
			if v < 100 {
				lowHot++
			}
		} else if v >= 600 {
			highCold++
		}
		sum += float64(v)
	}
	if got, tol := float64(hotN)/n, binomTol(0.8, n); math.Abs(got-0.8) > tol {
		t.Errorf("hot share = %.4f, want 0.8 ± %.4f", got, tol)
	}
	// Uniform within each side: half of the hot draws fall in [0,100), half
	// of the cold ones in [600,1000).
	if got := float64(lowHot) / float64(hotN); math.Abs(got-0.5) > 0.015 {
		t.Errorf("share of hot draws below 100 = %.4f, want 0.5 ± 0.015", got)
	}
	if got := float64(highCold) / float64(n-hotN); math.Abs(got-0.5) > 0.025 {
		t.Errorf("share of cold draws at or above 600 = %.4f, want 0.5 ± 0.025", got)
	}
	// Java's mean: 0.8·100 + 0.2·(200+400) = 200.
	if math.Abs(h.Mean()-200) > 1e-9 {
		t.Errorf("Mean() = %v, want 200", h.Mean())
	}
	if mean := sum / n; math.Abs(mean-200) > 5 {
		t.Errorf("mean of draws = %.1f, want 200 ± 5", mean)
	}
}

func TestHotspotEdgeCases(t *testing.T) {
	r := NewRand(13, 0)
	cases := []struct {
		name              string
		lb, ub            int64
		hotFrac, opnFrac  float64
		wantWarnings      int
		wantLo, wantHi    int64 // range all draws must fall in
		wantHot, wantCold int64
	}{
		{"hot set empty", 0, 99, 0, 0.9, 0, 0, 99, 0, 100},
		{"cold set empty", 0, 99, 1, 0.1, 0, 0, 99, 100, 0},
		{"hot fraction out of range", 0, 99, 1.5, 0.5, 1, 0, 99, 0, 100},
		{"hot opn fraction negative", 0, 99, 0.5, -1, 1, 50, 99, 50, 50},
		{"NaN fractions", 0, 99, math.NaN(), math.NaN(), 2, 0, 99, 0, 100},
		{"bounds swapped", 99, 0, 0.1, 1, 1, 0, 9, 10, 90},
		{"single value", 7, 7, 0.5, 0.5, 0, 7, 7, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, warn, err := NewHotspot(c.lb, c.ub, c.hotFrac, c.opnFrac)
			if err != nil {
				t.Fatalf("NewHotspot(%d, %d, %v, %v) = %v", c.lb, c.ub, c.hotFrac, c.opnFrac, err)
			}
			if len(warn) != c.wantWarnings {
				t.Errorf("NewHotspot(%d, %d, %v, %v) warnings = %q, want %d", c.lb, c.ub, c.hotFrac, c.opnFrac, warn, c.wantWarnings)
			}
			if hot, cold := h.HotSet(); hot != c.wantHot || cold != c.wantCold {
				t.Errorf("HotSet() = %d, %d, want %d, %d", hot, cold, c.wantHot, c.wantCold)
			}
			for range 1000 {
				if v := h.Next(r); v < c.wantLo || v > c.wantHi {
					t.Fatalf("Next() = %d, want within [%d, %d]", v, c.wantLo, c.wantHi)
				}
			}
		})
	}
	if _, _, err := NewHotspot(math.MinInt64, math.MaxInt64, 0.1, 0.1); err == nil {
		t.Error("NewHotspot over all of int64: want an error")
	}
	_, warn, _ := NewHotspot(0, 9, 2, 0.5)
	if len(warn) != 1 || !strings.Contains(warn[0], "Hotset fraction out of range") {
		t.Errorf("warning = %q, want Java's \"Hotset fraction out of range…\"", warn)
	}
}

// TestExponential checks exponential(95, 1000): 95 % of draws fall below the
// range, the mean is range/ln 20 ≈ 333.8, and Next truncates NextFloat.
func TestExponential(t *testing.T) {
	const n = 100_000
	e, err := NewExponential(95, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1000 / math.Log(20); math.Abs(e.Mean()-want) > 1e-9 {
		t.Errorf("Mean() = %v, want %v", e.Mean(), want)
	}
	r := NewRand(14, 0)
	below, sum := 0, 0.0
	for range n {
		f := e.NextFloat(r)
		if f < 0 {
			t.Fatalf("NextFloat() = %v, want >= 0", f)
		}
		if f < 1000 {
			below++
		}
		sum += f
	}
	if got, tol := float64(below)/n, binomTol(0.95, n); math.Abs(got-0.95) > tol {
		t.Errorf("share below the range = %.4f, want 0.95 ± %.4f", got, tol)
	}
	// The standard deviation equals the mean, so the mean of n draws has
	// sd mean/√n ≈ 1.06; allow 5.
	if got := sum / n; math.Abs(got-e.Mean()) > 5 {
		t.Errorf("mean of draws = %.2f, want %.2f ± 5", got, e.Mean())
	}
	r1, r2 := NewRand(15, 0), NewRand(15, 0)
	for range 100 {
		if f, v := e.NextFloat(r1), e.Next(r2); v != int64(f) {
			t.Fatalf("Next() = %d, want trunc(NextFloat()) = %d", v, int64(f))
		}
	}
	m, err := NewExponentialMean(50)
	if err != nil || m.Mean() != 50 {
		t.Errorf("NewExponentialMean(50).Mean() = %v, %v; want 50", m.Mean(), err)
	}
	for _, c := range []struct{ p, rng float64 }{{0, 1}, {100, 1}, {95, 0}, {95, -1}, {95, math.Inf(1)}, {math.NaN(), 1}} {
		if _, err := NewExponential(c.p, c.rng); err == nil {
			t.Errorf("NewExponential(%v, %v): want an error", c.p, c.rng)
		}
	}
}

func TestJavaLong(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want int64
	}{
		{math.NaN(), 0}, {math.Inf(1), math.MaxInt64}, {math.Inf(-1), math.MinInt64},
		{1e300, math.MaxInt64}, {-1e300, math.MinInt64}, {2.9, 2}, {-2.9, -2},
		{9.223372036854775e18, 9223372036854774784},
	} {
		if got := javaLong(c.in); got != c.want {
			t.Errorf("javaLong(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

// TestDiscrete checks the op-mix use: proportions match the normalised
// weights within 4.5 binomial standard deviations, zero weights are never
// drawn, and weights need not sum to 1.
func TestDiscrete(t *testing.T) {
	const n = 100_000
	d, err := NewDiscrete(
		Weighted[int]{0.5, 0}, Weighted[int]{0, 1}, Weighted[int]{1.5, 2}, Weighted[int]{0.5, 3},
	)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(16, 0)
	var counts [4]int
	for range n {
		counts[d.Next(r)]++
	}
	for i, want := range []float64{0.2, 0, 0.6, 0.2} {
		got := float64(counts[i]) / n
		if tol := binomTol(want, n); math.Abs(got-want) > tol || (want == 0 && counts[i] != 0) {
			t.Errorf("share of value %d = %.4f, want %.4f ± %.4f", i, got, want, tol)
		}
	}
	// Java's walk order: with weights 1,1 a u below 0.5 picks the first.
	two, _ := NewDiscrete(Weighted[string]{1, "a"}, Weighted[string]{1, "b"})
	ra, rb := NewRand(17, 0), NewRand(17, 0)
	for range 100 {
		u := ra.Float64()
		want := "b"
		if u < 0.5 {
			want = "a"
		}
		if got := two.Next(rb); got != want {
			t.Fatalf("u = %v: Next() = %q, want %q", u, got, want)
		}
	}
	for _, c := range [][]Weighted[int]{
		nil,
		{{0, 1}, {0, 2}},
		{{-1, 1}, {2, 2}},
		{{math.NaN(), 1}},
		{{math.Inf(1), 1}},
		{{math.MaxFloat64, 1}, {math.MaxFloat64, 2}},
	} {
		if _, err := NewDiscrete(c...); err == nil {
			t.Errorf("NewDiscrete(%v): want an error", c)
		}
	}
}
