package generator

import (
	"math"
	"testing"
)

// Reference values from ycsb.md §6.4.
func TestZeta(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want float64
		tol  float64
	}{
		{1, 1, 0},
		{2, 1 + math.Pow(2, -0.99), 1e-15},
		{1000, 7.729, 0.001},
		{100_000, 12.778, 0.001},
		{1_000_000, 15.392, 0.001},
	} {
		if got := Zeta(c.n, ZipfianConstant); math.Abs(got-c.want) > c.tol {
			t.Errorf("Zeta(%d, 0.99) = %.6f, want %.6f ± %g", c.n, got, c.want, c.tol)
		}
	}
}

// grayProb is the exact probability that Gray's algorithm (as implemented by
// Java and Zipfian.NextN) returns base+k for n items, skew theta and ζ = zeta:
// the measure of the u ∈ [0,1) that map to k. Draws with u·ζ < 1 give 0,
// those below 1+0.5^θ give 1, and the rest give ⌊n(ηu-η+1)^α⌋, which is
// increasing in u.
func grayProb(n int64, theta, zeta float64, k int64) float64 {
	alpha := 1 / (1 - theta)
	eta := (1 - math.Pow(2/float64(n), 1-theta)) / (1 - Zeta(2, theta)/zeta)
	u1 := math.Min(1/zeta, 1)
	u2 := math.Min((1+math.Pow(0.5, theta))/zeta, 1)
	// uAt(x) is the u at which n(ηu-η+1)^α reaches x.
	uAt := func(x float64) float64 {
		return (math.Pow(x/float64(n), 1/alpha) + eta - 1) / eta
	}
	overlap := func(a, b float64) float64 { // |[a,b) ∩ [u2,1)|
		a, b = math.Max(a, u2), math.Min(b, 1)
		return math.Max(b-a, 0)
	}
	p := overlap(uAt(float64(k)), uAt(float64(k+1)))
	switch k {
	case 0:
		p += u1
	case 1:
		p += u2 - u1
	}
	return p
}

// binomTol is 4.5 binomial standard deviations for share p over n draws.
func binomTol(p float64, n int) float64 { return 4.5 * math.Sqrt(p*(1-p)/float64(n)) }

// TestZipfianHead checks zipfian(0,999) against the exact probabilities of
// Gray's algorithm: item 0 has 1/ζ(1000) ≈ 12.94 % and item 1 0.5^θ/ζ ≈
// 6.50 % (ycsb.md §6.4); items 2… follow grayProb, which is within 20 % of
// the true Zipf law i^-θ/ζ for the head.
func TestZipfianHead(t *testing.T) {
	const n = 200_000
	z, err := NewZipfian(0, 999)
	if err != nil {
		t.Fatal(err)
	}
	zeta := Zeta(1000, ZipfianConstant)
	if p0 := grayProb(1000, 0.99, zeta, 0); math.Abs(p0-0.1294) > 0.0005 {
		t.Fatalf("grayProb(item 0) = %.4f, want 0.1294 (1/ζ(1000))", p0)
	}
	r := NewRand(1, 0)
	var counts [1000]int
	for range n {
		v := z.Next(r)
		if v < 0 || v > 999 {
			t.Fatalf("Next() = %d, outside [0, 999]", v)
		}
		counts[v]++
	}
	for _, item := range []int64{0, 1, 2, 3, 4, 9, 99, 999} {
		want := grayProb(1000, 0.99, zeta, item)
		got := float64(counts[item]) / n
		if tol := binomTol(want, n); math.Abs(got-want) > tol {
			t.Errorf("zipfian(0,999): share of item %d = %.5f, want %.5f ± %.5f", item, got, want, tol)
		}
	}
	for i := 1; i < 10; i++ {
		if counts[i] > counts[i-1] {
			t.Errorf("item %d drawn %d times, more than item %d (%d)", i, counts[i], i-1, counts[i-1])
		}
	}
}

// TestZipfianSteep checks a skew above 1 (gobench.zipfianconstant allows
// it, Java does not check): Gray's formula with η < 0 and a negative
// exponent still gives item k the exact probability grayProb computes, the
// head stays 1/ζ and 2^-θ/ζ, and every draw is in range, for 1000 items and
// for 10^12 (whose set-up is O(1)).
func TestZipfianSteep(t *testing.T) {
	const n = 200_000
	for _, items := range []int64{1000, 1e12} {
		z, err := NewZipfianTheta(0, items-1, 1.5)
		if err != nil {
			t.Fatal(err)
		}
		zeta := Zeta(items, 1.5)
		r := NewRand(8, 0)
		counts := map[int64]int{}
		for range n {
			v := z.Next(r)
			if v < 0 || v >= items {
				t.Fatalf("%d items: Next() = %d, outside [0, %d)", items, v, items)
			}
			counts[v]++
		}
		if p0, want := grayProb(items, 1.5, zeta, 0), 1/zeta; math.Abs(p0-want) > 1e-12 {
			t.Fatalf("grayProb(item 0) = %v, want 1/ζ = %v", p0, want)
		}
		for _, item := range []int64{0, 1, 2, 3, 4, 9, 99} {
			want := grayProb(items, 1.5, zeta, item)
			got := float64(counts[item]) / n
			if tol := binomTol(want, n); math.Abs(got-want) > tol {
				t.Errorf("θ = 1.5, %d items: share of item %d = %.5f, want %.5f ± %.5f", items, item, got, want, tol)
			}
		}
	}
}

func TestZipfianMinOffset(t *testing.T) {
	z, err := NewZipfian(-50, 49)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(2, 0)
	head := 0
	for range 10_000 {
		v := z.Next(r)
		if v < -50 || v > 49 {
			t.Fatalf("Next() = %d, outside [-50, 49]", v)
		}
		if v == -50 {
			head++
		}
	}
	want := 1 / Zeta(100, ZipfianConstant) // ≈ 19.2 %
	if got := float64(head) / 10_000; math.Abs(got-want) > 0.015 {
		t.Errorf("zipfian(-50,49): share of -50 = %.4f, want %.4f ± 0.015", got, want)
	}
}

func TestZipfianConstructors(t *testing.T) {
	if _, err := NewZipfian(10, 9); err == nil {
		t.Error("NewZipfian(10, 9): want an error")
	}
	for _, theta := range []float64{0, 1, -0.5, math.Inf(1), math.NaN()} {
		if _, err := NewZipfianTheta(0, 9, theta); err == nil {
			t.Errorf("NewZipfianTheta(0, 9, %v): want an error", theta)
		}
	}
	for _, zetan := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if _, err := NewZipfianZeta(0, 9, 0.99, zetan); err == nil {
			t.Errorf("NewZipfianZeta(0, 9, 0.99, %v): want an error", zetan)
		}
	}
	// An explicit ζ gives the same generator as a computed one.
	a, _ := NewZipfianTheta(0, 499, 0.8)
	b, err := NewZipfianZeta(0, 499, 0.8, Zeta(500, 0.8))
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := NewRand(3, 0), NewRand(3, 0)
	for i := range 1000 {
		if x, y := a.Next(ra), b.Next(rb); x != y {
			t.Fatalf("draw %d: computed-ζ %d != explicit-ζ %d", i, x, y)
		}
	}
}

// TestZipfianGrowth checks NextN with a growing item count: ζ is extended
// incrementally to exactly Zeta(m), draws stay within [0, m), and η keeps the
// original count in its (2/n) term (Java quirk, ycsb.md §6.4).
func TestZipfianGrowth(t *testing.T) {
	z, err := NewZipfian(0, 99)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(4, 0)
	for _, m := range []int64{100, 150, 151, 1000, 500} {
		for range 200 {
			if v := z.NextN(r, m); v < 0 || v >= m {
				t.Fatalf("NextN(r, %d) = %d, outside [0, %d)", m, v, m)
			}
		}
		wantCount := max(m, 1000)
		if m != 500 {
			wantCount = m
		}
		zetan, count := z.Zetan()
		if count != wantCount {
			t.Errorf("after NextN(r, %d): ζ count = %d, want %d (ζ never shrinks)", m, count, wantCount)
		}
		if want := Zeta(wantCount, ZipfianConstant); math.Abs(zetan-want) > 1e-12 {
			t.Errorf("after NextN(r, %d): ζ = %.15f, want Zeta(%d) = %.15f", m, zetan, wantCount, want)
		}
	}
	_, _, eta := z.state()
	zetan, _ := z.Zetan()
	quirk := (1 - math.Pow(2.0/100, 0.01)) / (1 - Zeta(2, 0.99)/zetan)
	if math.Abs(eta-quirk) > 1e-15 {
		t.Errorf("η after growth = %v, want %v (computed with the original n = 100)", eta, quirk)
	}
}

// TestScrambledZipfian checks workload A's defaults (1001 keys): the hottest
// keynum is FNV64(0) mod 1001 = 144 with ≈ 3.9 % of draws, all draws lie in
// range, and the mean is near (min+max)/2 (ycsb.md §6.5).
func TestScrambledZipfian(t *testing.T) {
	const n = 200_000
	s, err := NewScrambledZipfian(0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(5, 0)
	var counts [1001]int
	sum := 0.0
	for range n {
		v := s.Next(r)
		if v < 0 || v > 1000 {
			t.Fatalf("Next() = %d, outside [0, 1000]", v)
		}
		counts[v]++
		sum += float64(v)
	}
	hottest := 0
	for i, c := range counts {
		if c > counts[hottest] {
			hottest = i
		}
	}
	if hottest != 144 {
		t.Errorf("hottest keynum = %d (%d draws), want 144", hottest, counts[hottest])
	}
	if got := float64(counts[144]) / n; math.Abs(got-0.039) > 0.004 {
		t.Errorf("share of keynum 144 = %.4f, want 0.039 ± 0.004", got)
	}
	if mean := sum / n; math.Abs(mean-500) > 15 {
		t.Errorf("mean = %.1f, want 500 ± 15", mean)
	}
	if _, err := NewScrambledZipfian(1, 0); err == nil {
		t.Error("NewScrambledZipfian(1, 0): want an error")
	}
}

// TestSkewedLatest checks the recency bias of "latest": the newest value
// basis.Last() is drawn with probability 1/ζ(m) (≈ 12.9 % for m = 1000), the
// newest 10 values get the share Gray's algorithm gives ranks 0…9 (≈ 40 %),
// no value exceeds basis.Last() or falls below 1, and the head follows the
// basis as it grows.
func TestSkewedLatest(t *testing.T) {
	const n = 100_000
	basis := NewAcknowledgedCounter(0)
	for v := range int64(1001) {
		basis.Next(nil)
		if err := basis.Acknowledge(v); err != nil {
			t.Fatal(err)
		}
	}
	// basis.Last() == 1000: a Zipfian over 1000 items.
	s := NewSkewedLatest(basis)
	r := NewRand(6, 0)
	newest, top10 := 0, 0
	for range n {
		v := s.Next(r)
		if v < 1 || v > 1000 {
			t.Fatalf("Next() = %d, outside [1, 1000]", v)
		}
		if v == 1000 {
			newest++
		}
		if v > 990 {
			top10++
		}
	}
	if got, want := float64(newest)/n, 1/Zeta(1000, ZipfianConstant); math.Abs(got-want) > 0.005 {
		t.Errorf("share of the newest value = %.4f, want %.4f ± 0.005", got, want)
	}
	want10 := 0.0
	for k := range int64(10) {
		want10 += grayProb(1000, 0.99, Zeta(1000, 0.99), k)
	}
	if got, tol := float64(top10)/n, binomTol(want10, n); math.Abs(got-want10) > tol {
		t.Errorf("share of the newest 10 values = %.4f, want %.4f ± %.4f", got, want10, tol)
	}
	// Grow the basis: the head moves to the new newest value.
	for v := int64(1001); v < 1501; v++ {
		basis.Next(nil)
		if err := basis.Acknowledge(v); err != nil {
			t.Fatal(err)
		}
	}
	newest = 0
	for range 20_000 {
		v := s.Next(r)
		if v < 1 || v > 1500 {
			t.Fatalf("Next() after growth = %d, outside [1, 1500]", v)
		}
		if v == 1500 {
			newest++
		}
	}
	if got, want := float64(newest)/20_000, 1/Zeta(1500, ZipfianConstant); math.Abs(got-want) > 0.01 {
		t.Errorf("after growth to 1500: share of 1500 = %.4f, want %.4f ± 0.01", got, want)
	}
	if _, count := s.zipf.Zetan(); count != 1500 {
		t.Errorf("ζ count after growth = %d, want 1500", count)
	}
}

// TestSkewedLatestTiny pins Java's behaviour for recordcount = 1 (basis at
// 0) and an empty basis: no panic, Next returns the basis value.
func TestSkewedLatestTiny(t *testing.T) {
	r := NewRand(7, 0)
	for _, last := range []int64{-1, 0} {
		s := NewSkewedLatest(NewConstant(last))
		for range 100 {
			if v := s.Next(r); v != last {
				t.Fatalf("basis %d: Next() = %d, want %d", last, v, last)
			}
		}
	}
	// Growing from 0 through the degenerate counts 1 and 2 stays in range.
	c := NewCounter(0)
	s := NewSkewedLatest(c)
	for range 50 {
		c.Next(nil)
		for range 20 {
			if m, v := c.Last(), s.Next(r); v < 0 || v > m {
				t.Fatalf("basis %d: Next() = %d, outside [0, %d]", m, v, m)
			}
		}
	}
}
