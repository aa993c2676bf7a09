package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
)

// Hotspot sends a fraction of draws to a "hot" set made of the lowest
// keynums of [lb, ub] and the rest to the remaining "cold" ones, uniformly
// within each (Java HotspotIntegerGenerator). With interval n = ub-lb+1,
// hot = (int64)(n·hotsetFraction) (Java truncates it to a 32-bit int, which
// breaks key spaces above 2^31; here it stays 64-bit) and cold = n-hot:
// if U < hotOpnFraction → lb + |random long| mod hot,
// else lb + hot + |random long| mod cold.
//
// Unlike Java, an empty side never divides by zero: with hot = 0 every draw
// is cold, and with cold = 0 every draw is hot. Immutable parameters; Last is
// one atomic word written by every Next. Safe for concurrent use.
type Hotspot struct {
	lb, hot, cold int64
	hotOpn        float64
	last          atomic.Int64
}

// NewHotspot returns a Hotspot over [lb, ub]. As Java does, it replaces a
// fraction outside [0, 1] (or NaN) by 0 and swaps reversed bounds; each such
// correction is described in warnings, in Java's words, for the caller to
// print. err is non-nil only when the interval has more than 2^63-1 values.
func NewHotspot(lb, ub int64, hotsetFraction, hotOpnFraction float64) (h *Hotspot, warnings []string, err error) {
	if !(hotsetFraction >= 0 && hotsetFraction <= 1) {
		warnings = append(warnings, fmt.Sprintf("Hotset fraction out of range (%v). Setting to 0.0", hotsetFraction))
		hotsetFraction = 0
	}
	if !(hotOpnFraction >= 0 && hotOpnFraction <= 1) {
		warnings = append(warnings, fmt.Sprintf("Hot operation fraction out of range (%v). Setting to 0.0", hotOpnFraction))
		hotOpnFraction = 0
	}
	if lb > ub {
		warnings = append(warnings, fmt.Sprintf("Upper bound of Hotspot generator (%d) smaller than the lower bound (%d). Swapping the values.", ub, lb))
		lb, ub = ub, lb
	}
	n, ok := span(lb, ub)
	if !ok {
		return nil, warnings, fmt.Errorf("hotspot generator: bounds [%d, %d] span more than 2^63-1 values", lb, ub)
	}
	hot := javaLong(float64(n) * hotsetFraction)
	hot = min(max(hot, 0), n) // float rounding of n near 2^63
	return &Hotspot{lb: lb, hot: hot, cold: n - hot, hotOpn: hotOpnFraction}, warnings, nil
}

// Next returns a value in [lb, ub].
func (h *Hotspot) Next(r *rand.Rand) int64 {
	v := h.Draw(r)
	h.last.Store(v)
	return v
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (h *Hotspot) Draw(r *rand.Rand) int64 {
	hotDraw := r.Float64() < h.hotOpn
	if (hotDraw && h.hot > 0) || h.cold == 0 {
		return h.lb + randLong(r)%h.hot
	}
	return h.lb + h.hot + randLong(r)%h.cold
}

// Last returns the value most recently returned by Next (by any goroutine),
// or 0 before the first.
func (h *Hotspot) Last() int64 { return h.last.Load() }

// HotSet returns the size of the hot and cold sets.
func (h *Hotspot) HotSet() (hot, cold int64) { return h.hot, h.cold }

// Mean returns hotOpn·(lb + hot/2) + (1-hotOpn)·(lb + hot + cold/2), Java's
// formula (with the empty-side fallback applied).
func (h *Hotspot) Mean() float64 {
	p := h.hotOpn
	if h.hot == 0 {
		p = 0
	} else if h.cold == 0 {
		p = 1
	}
	lb := float64(h.lb)
	return p*(lb+float64(h.hot)/2) + (1-p)*(lb+float64(h.hot)+float64(h.cold)/2)
}

// Exponential draws exponentially distributed values (Java
// ExponentialGenerator): NextFloat = -ln(U)/γ. YCSB's "exponential" request
// distribution subtracts the truncated draw from the newest keynum. Its
// parameter is immutable; Last is one atomic word written by every Next.
// Safe for concurrent use.
type Exponential struct {
	gamma float64
	last  atomic.Int64
}

// NewExponential returns an Exponential for which percentile per cent of
// draws fall below rng: γ = -ln(1 - percentile/100)/rng. percentile must lie
// in (0, 100) and rng must be positive and finite. YCSB's defaults are
// exponential.percentile=95 and rng = recordcount × exponential.frac
// (0.8571428571).
func NewExponential(percentile, rng float64) (*Exponential, error) {
	if !(percentile > 0 && percentile < 100) {
		return nil, fmt.Errorf("exponential generator: percentile %v out of range (0, 100)", percentile)
	}
	if !(rng > 0 && !math.IsInf(rng, 1)) {
		return nil, fmt.Errorf("exponential generator: range %v must be positive and finite", rng)
	}
	return &Exponential{gamma: -math.Log(1-percentile/100) / rng}, nil
}

// NewExponentialMean returns an Exponential with the given mean (γ =
// 1/mean), Java's second constructor. mean must be positive and finite.
func NewExponentialMean(mean float64) (*Exponential, error) {
	if !(mean > 0 && !math.IsInf(mean, 1)) {
		return nil, fmt.Errorf("exponential generator: mean %v must be positive and finite", mean)
	}
	return &Exponential{gamma: 1 / mean}, nil
}

// NextFloat returns one draw, ≥ 0 and possibly +Inf (when U = 0, probability
// 2^-53). It does not update Last.
func (e *Exponential) NextFloat(r *rand.Rand) float64 {
	return -math.Log(r.Float64()) / e.gamma
}

// Next returns NextFloat truncated toward zero, saturating at
// math.MaxInt64 as a Java (long) cast does.
func (e *Exponential) Next(r *rand.Rand) int64 {
	v := e.Draw(r)
	e.last.Store(v)
	return v
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (e *Exponential) Draw(r *rand.Rand) int64 { return javaLong(e.NextFloat(r)) }

// Last returns the value most recently returned by Next (by any goroutine),
// or 0 before the first.
func (e *Exponential) Last() int64 { return e.last.Load() }

// Mean returns 1/γ.
func (e *Exponential) Mean() float64 { return 1 / e.gamma }
