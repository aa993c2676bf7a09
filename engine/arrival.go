package engine

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// arrivals is the arrival process of an open loop: a deterministic
// sequence of arrival times t_0 < t_1 < ... (offsets from the moment the
// arrivals begin), the same for the same settings and seed. Workers claim
// arrivals in order, so arrivals that find every worker busy wait in FIFO
// order, as in a queue served by Threads servers. Constant arrivals are
// claimed with one atomic add; Poisson arrivals under a mutex, since each
// time is the previous one plus an exponential gap.
type arrivals struct {
	poisson bool
	gap     float64 // ns between arrivals (constant) or their mean (poisson)
	limit   int64   // arrivals in all (0 = unbounded)

	next atomic.Int64 // constant: the next index to claim

	mu    sync.Mutex
	claim cursor // poisson: the next arrival to claim
	scout cursor // poisson: the first arrival not yet known to be due
}

// cursor walks the Poisson arrival times: arrival i is at t (ns).
type cursor struct {
	i   int64
	t   float64
	rng uint64 // SplitMix64 state
}

// advance moves c to the next arrival.
func (c *cursor) advance(mean float64) {
	c.rng += 0x9e3779b97f4a7c15
	z := mix64(c.rng)
	u := float64(z>>11) * 0x1p-53 // [0, 1)
	c.t += -math.Log1p(-u) * mean
	c.i++
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newArrivals returns the arrival process of s (s.OpenLoop() must hold).
func newArrivals(s *Settings) *arrivals {
	a := &arrivals{poisson: s.Arrival == ArrivalPoisson, gap: float64(time.Second) / s.Target, limit: s.Ops}
	if a.poisson {
		// Its own stream: the workers' streams are generatorRand(seed, id).
		a.claim = cursor{i: -1, rng: mix64(s.Seed ^ 0x6f70656e6c6f6f70)} // "openloop"
		a.claim.advance(a.gap)
		a.scout = a.claim
	}
	return a
}

// at returns the time of arrival i of a constant process.
func (a *arrivals) at(i int64) time.Duration { return time.Duration(float64(i) * a.gap) }

// take claims the next arrival at now (time since the arrivals began): its
// index, its time and the queue it ends, that is the number of arrivals due
// by now that no worker has started yet, this one included (0 when it is
// not yet due). ok is false when the op limit is reached.
func (a *arrivals) take(now time.Duration) (i int64, at time.Duration, queue int64, ok bool) {
	if !a.poisson {
		i = a.next.Add(1) - 1
		if a.limit > 0 && i >= a.limit {
			return 0, 0, 0, false
		}
		at = a.at(i)
		if at <= now {
			queue = a.dueConstant(now) - i
		}
		return i, at, queue, true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	i = a.claim.i
	if a.limit > 0 && i >= a.limit {
		return 0, 0, 0, false
	}
	at = time.Duration(a.claim.t)
	a.claim.advance(a.gap)
	if at <= now {
		if a.scout.i <= i {
			a.scout = a.claim
		}
		a.advanceScout(now)
		queue = a.scout.i - i
	}
	return i, at, queue, true
}

// dueConstant is the number of arrivals of a constant process due by now.
func (a *arrivals) dueConstant(now time.Duration) int64 {
	if now < 0 {
		return 0
	}
	n := int64(float64(now)/a.gap) + 1
	if a.limit > 0 && n > a.limit {
		n = a.limit
	}
	return n
}

// advanceScout moves the scout past every arrival due by now (mu held).
func (a *arrivals) advanceScout(now time.Duration) {
	for float64(now) >= a.scout.t && (a.limit == 0 || a.scout.i < a.limit) {
		a.scout.advance(a.gap)
	}
}

// backlog returns the arrivals due by end that no worker claimed, and the
// sum of their waits until end.
func (a *arrivals) backlog(end time.Duration) (n int64, wait time.Duration) {
	if !a.poisson {
		first := a.next.Load()
		due := a.dueConstant(end)
		for i := first; i < due; i++ {
			wait += end - a.at(i)
		}
		return max(due-first, 0), wait
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for c := a.claim; float64(end) >= c.t && (a.limit == 0 || c.i < a.limit); c.advance(a.gap) {
		n++
		wait += end - time.Duration(c.t)
	}
	return n, wait
}

// ArrivalTimes returns the first n arrival times of the open loop s
// describes (offsets from the moment arrivals begin), for the same seed the
// same times. s.Arrival must be constant or poisson and s.Target > 0.
func ArrivalTimes(s Settings, n int) []time.Duration {
	if !s.OpenLoop() || s.Target <= 0 {
		return nil
	}
	s.Ops = 0
	a := newArrivals(&s)
	out := make([]time.Duration, n)
	for k := range out {
		_, out[k], _, _ = a.take(-1)
	}
	return out
}
