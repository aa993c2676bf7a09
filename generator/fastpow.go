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

// exponent is a draw's fixed exponent α with what its powers need, set up
// once. For an α within 2^-40 of an integer n in [2, 1024] (Java's θ = 0.99
// gives α = 99.99999999999991) and x in [0.75, 1.25] (a draw's x is in
// (0.78, 1] for Java's 10^10-item scrambled zipfian), x^α = x^n · e^(f·ln x),
// f = α-n, is taken as x^n by repeated squaring times 1 + f·ln x, with ln x
// from its series to the 4th power. For n = 100 that is 6 squarings and 3
// products, and only the squarings are on the draw's chain of dependent
// operations: 19-20 ns chained against 40-42 for fastLog and fastExp
// (BenchmarkExponentPowChained, BenchmarkPowChained; as throughput both take
// 14-16 ns). The truncated series and the dropped (f·ln x)²/2 are below
// 2^-52 relative; the squarings' rounding (at most about n ulps, far less
// typically) is of the order of pow's 10^-14 (TestExponentDraws: no draw of
// 2 000 000 differs from math.Pow's). Other α or x take pow.
type exponent struct {
	value float64 // α
	n     uint64  // α rounded, when the squaring path applies, else 0
	f     float64 // α - n
}

func newExponent(alpha float64) exponent {
	e := exponent{value: alpha}
	n := math.Round(alpha)
	if f := alpha - n; n >= 2 && n <= 1024 && math.Abs(f) <= 0x1p-40 {
		e.n, e.f = uint64(n), f
	}
	return e
}

// pow returns x^α.
func (e *exponent) pow(x float64) float64 {
	if e.n == 0 || !(x >= 0.75 && x <= 1.25) {
		return pow(x, e.value)
	}
	// ln x = t - t²/2 + t³/3 - t⁴/4 (+ t⁵/5, below 2^-12.3 for |t| <= 1/4,
	// times |f| <= 2^-40).
	t := x - 1
	t2 := t * t
	lnx := t + t2*(math.FMA(t, 1.0/3, -0.5)-0.25*t2)
	p, b := 1.0, x
	for k := e.n; ; {
		if k&1 != 0 {
			p *= b
		}
		if k >>= 1; k == 0 {
			break
		}
		b *= b
	}
	return math.FMA(p, e.f*lnx, p)
}
