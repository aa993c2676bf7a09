package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Weighted is one choice of a [Discrete]: a value and its relative weight.
type Weighted[T any] struct {
	Weight float64
	Value  T
}

// Discrete picks one of an ordered list of values with probability
// proportional to its weight (Java DiscreteGenerator; CoreWorkload uses it for
// the operation mix, adding READ, UPDATE, INSERT, SCAN, READMODIFYWRITE in
// that order). Weights are relative and need not sum to 1. Each draw is
// Java's walk: u ← U[0,1); return the first value with u < w/total, else
// subtract w/total and go on. The order of the list therefore decides which
// value a given u picks, as in Java.
//
// Immutable after construction and safe for concurrent use. It has no Last,
// so it is not a [Generator].
type Discrete[T any] struct {
	values  []T
	weights []float64 // w/total, precomputed; Java divides on every draw with the same result
	lastPos int       // index of the last positive weight: the fallback for rounding
}

// NewDiscrete returns a Discrete over choices, in order. Every weight must be
// finite and ≥ 0 and at least one must be positive; zero-weight values are
// never drawn. The slice is copied.
func NewDiscrete[T any](choices ...Weighted[T]) (*Discrete[T], error) {
	if len(choices) == 0 {
		return nil, fmt.Errorf("discrete generator: no values to choose from")
	}
	total := 0.0
	lastPos := -1
	for i, c := range choices {
		if !(c.Weight >= 0 && !math.IsInf(c.Weight, 1)) {
			return nil, fmt.Errorf("discrete generator: weight %v of value %d (%v) must be finite and >= 0", c.Weight, i, c.Value)
		}
		total += c.Weight
		if c.Weight > 0 {
			lastPos = i
		}
	}
	if lastPos < 0 {
		return nil, fmt.Errorf("discrete generator: all %d weights are 0", len(choices))
	}
	if math.IsInf(total, 1) {
		return nil, fmt.Errorf("discrete generator: weights sum to more than the float64 range")
	}
	d := &Discrete[T]{
		values:  make([]T, len(choices)),
		weights: make([]float64, len(choices)),
		lastPos: lastPos,
	}
	for i, c := range choices {
		d.values[i] = c.Value
		d.weights[i] = c.Weight / total
	}
	return d, nil
}

// Next returns one of the values.
func (d *Discrete[T]) Next(r *rand.Rand) T {
	u := r.Float64()
	for i, w := range d.weights {
		if u < w {
			return d.values[i]
		}
		u -= w
	}
	// Reachable only through rounding (the normalised weights sum to
	// slightly less than 1); Java throws an AssertionError here.
	return d.values[d.lastPos]
}

// Len returns the number of values, including zero-weight ones.
func (d *Discrete[T]) Len() int { return len(d.values) }
