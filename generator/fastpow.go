package generator

import "math"

// The zipfian draw's x^α was most of a draw's cost with
// math.Exp(α·math.Log(x)) (34-40 ns). fastLog and fastExp below are the
// table-driven algorithms of modern C libraries (a 128-entry table and a
// short polynomial each) and take 24-29 ns together (BenchmarkPow,
// BenchmarkPowStd). Their x^α agrees with math.Exp(α·math.Log(x)) to about
// 10^-14 relative; a draw of Java's 10^10-item scrambled zipfian differs from
// the one math.Pow gives in 1 of 2 000 000 draws, by one item, as with
// math.Exp(α·math.Log(x)) (TestFastPowDraws).

const (
	tabBits = 7
	tabN    = 1 << tabBits
	// logOff is the bits of √½: x's bits minus it split x into 2^k·z with z
	// in [√½, √2) and pick z's table entry from the top mantissa bits.
	logOff = 0x3fe6a09e667f3bcd
	ln2Hi  = 0x1.62e42fefa3800p-1 // ln 2 in two parts: k·ln2Hi is exact for |k| < 2^11
	ln2Lo  = 0x1.ef35793c76730p-45
)

// logTab[i] holds 1/c and log(1/c)·-1 for the centre c of table interval i.
var logTab = func() (t [tabN]struct{ invc, logc float64 }) {
	for i := range t {
		c := math.Float64frombits(logOff + uint64(i)<<(52-tabBits) + 1<<(51-tabBits))
		t[i].invc = 1 / c
		t[i].logc = -math.Log(t[i].invc)
	}
	return t
}()

// exp2Tab[j] is 2^(j/128).
var exp2Tab = func() (t [tabN]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / tabN)
	}
	return t
}()

// fastLog returns ln x for positive, normal, finite x (the caller checks).
func fastLog(x float64) float64 {
	ix := math.Float64bits(x)
	tmp := ix - logOff
	i := (tmp >> (52 - tabBits)) % tabN
	k := int64(tmp) >> 52
	z := math.Float64frombits(ix - tmp&(0xfff<<52)) // x / 2^k, in [√½, √2)
	e := &logTab[i]
	r := math.FMA(z, e.invc, -1) // z/c - 1, |r| < 2^-7
	// log1p(r) to r^6 (|r| < 2^-7.9: the next term is below 2^-58), in
	// Estrin's order, whose chain of dependent operations is half of
	// Horner's: r + r²·((-1/2 + r/3) + r²·((-1/4 + r/5) - r²/6)).
	r2 := r * r
	a := math.FMA(r, 1.0/3, -0.5)
	b := math.FMA(r2, -1.0/6, math.FMA(r, 0.2, -0.25))
	p := r2 * math.FMA(r2, b, a)
	kd := float64(k)
	return (kd*ln2Hi + e.logc) + (r + (p + kd*ln2Lo))
}

// fastExp returns e^y for y in (-700, 700) (the caller checks).
func fastExp(y float64) float64 {
	const invLn2N = tabN / math.Ln2
	kd := math.Floor(y*invLn2N + 0.5)
	k := int64(kd)
	// r = y - k·ln2/128, in two steps so it is exact to well below r's ulp.
	r := math.FMA(-kd, ln2Hi/tabN, y)
	r = math.FMA(-kd, ln2Lo/tabN, r)
	// e^r - 1 to r^5 (|r| <= ln2/256: the next term is below 2^-60), in
	// Estrin's order: r + r²·((1/2 + r/6) + r²·(1/24 + r/120)).
	r2 := r * r
	p := math.FMA(r2, math.FMA(r2, math.FMA(r, 1.0/120, 1.0/24), math.FMA(r, 1.0/6, 0.5)), r)
	scale := math.Float64frombits(math.Float64bits(exp2Tab[k&(tabN-1)]) + uint64(k>>tabBits)<<52)
	return scale + scale*p
}
