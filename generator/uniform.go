package generator

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
)

// Uniform draws integers uniformly from [lb, ub] (Java UniformLongGenerator):
// lb + |random long| mod (ub-lb+1), so it carries the same slight modulo bias
// as Java for huge intervals. Its bounds are immutable; Last is one atomic
// word written by every Next. Safe for concurrent use.
type Uniform struct {
	lb, n int64
	last  atomic.Int64
}

// NewUniform returns a Uniform over [lb, ub] inclusive. It fails if ub < lb
// or the interval has more than 2^63-1 values.
func NewUniform(lb, ub int64) (*Uniform, error) {
	n, ok := span(lb, ub)
	if !ok {
		return nil, fmt.Errorf("uniform generator: bounds [%d, %d] must satisfy lb <= ub and span at most 2^63-1 values", lb, ub)
	}
	return &Uniform{lb: lb, n: n}, nil
}

// Next returns a value in [lb, ub].
func (u *Uniform) Next(r *rand.Rand) int64 {
	v := u.Draw(r)
	u.last.Store(v)
	return v
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (u *Uniform) Draw(r *rand.Rand) int64 { return u.lb + randLong(r)%u.n }

// Last returns the value most recently returned by Next (by any goroutine),
// or 0 before the first.
func (u *Uniform) Last() int64 { return u.last.Load() }

// Mean returns (lb+ub)/2.
func (u *Uniform) Mean() float64 { return float64(u.lb) + float64(u.n-1)/2 }

// Constant always returns the same value (Java ConstantIntegerGenerator).
// Immutable and safe for concurrent use.
type Constant struct{ v int64 }

// NewConstant returns a Constant that yields v.
func NewConstant(v int64) *Constant { return &Constant{v: v} }

// Next returns the constant; r is unused.
func (c *Constant) Next(_ *rand.Rand) int64 { return c.v }

// Draw is Next (see [Drawer]).
func (c *Constant) Draw(_ *rand.Rand) int64 { return c.v }

// Last returns the constant.
func (c *Constant) Last() int64 { return c.v }

// Sequential cycles through start, start+1, …, end, start, … (Java
// SequentialGenerator): one counter c shared by all workers, from 0, and
// next = start + c mod (end-start+1). Safe for concurrent use: Next is one
// atomic add.
type Sequential struct {
	start, n int64
	c        atomic.Int64
}

// NewSequential returns a Sequential over [start, end] inclusive; the first
// Next is start (go-ycsb starts at start+1). It fails if end < start or the
// interval has more than 2^63-1 values.
func NewSequential(start, end int64) (*Sequential, error) {
	n, ok := span(start, end)
	if !ok {
		return nil, fmt.Errorf("sequential generator: bounds [%d, %d] must satisfy start <= end and span at most 2^63-1 values", start, end)
	}
	return &Sequential{start: start, n: n}, nil
}

// Next returns the next value in the cycle; r is unused.
func (s *Sequential) Next(_ *rand.Rand) int64 {
	return s.start + (s.c.Add(1)-1)%s.n
}

// Draw is Next: the shared counter is the generator's state, and Last is
// read from it (see [Drawer]).
func (s *Sequential) Draw(r *rand.Rand) int64 { return s.Next(r) }

// Last returns the value most recently handed out, or start-1 before the
// first Next. (Java returns counter+1, which is no value the generator ever
// produced; nothing in YCSB reads it.)
func (s *Sequential) Last() int64 {
	c := s.c.Load()
	if c == 0 {
		return s.start - 1
	}
	return s.start + (c-1)%s.n
}
