package engine

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// tscClock is the runtime's monotonic clock (nanotime) read from the CPU's
// time-stamp counter: a closed-loop operation reads the clock twice, and
// on an x86 virtual machine nanotime (CLOCK_MONOTONIC through the vDSO,
// with the runtime's switch to the system stack) cost 37-48 ns a read
// where the counter costs 17-24 ns (BenchmarkClockNow). It is used only
// where the kernel itself keeps time with the counter (tscSupported:
// invariant, and the kernel's clock source), so the counter runs at one
// rate on every CPU and stops in no sleep state.
//
// A reading is an anchor's nanotime plus the ticks since the anchor at
// the measured rate. An anchor serves tscAnchorFor (2 ms): the first read
// after that takes a fresh pair of readings of nanotime and the counter
// (one that nothing interrupted: the counter read within tscMaxSpread
// around nanotime, usually 60-80 ns), so the clock strays from nanotime by
// no more than half that spread plus 2 ms times the rate's error (about
// 20 ns with the first calibration of 2 ms, below 1 ns once the rate has
// been measured over a second); it follows nanotime's own slewing the
// same way. Two anchors are published seqlock-fashion, so
// any goroutine may read (a driver's callback does) without a lock or an
// allocation; the read that re-anchors takes a compare-and-swap, and a
// read that finds another re-anchoring reads nanotime itself.
//
// A re-anchor may set the clock back by that error, tens of nanoseconds: a
// latency that spans one may come out that much short (the recorder
// clamps below zero); a tick count that goes back (a CPU whose counter
// lags) re-anchors instead of being trusted.
type tscClock struct {
	seq   atomic.Uint64 // the anchor in use is slots[seq&1]
	slots [2]tscAnchor
	limit uint64 // ticks an anchor serves
	// maxSpread is the widest pair of counter readings around nanotime
	// (tscPair) an anchor is taken from: tscMaxSpread in ticks.
	maxSpread uint64
	busy      atomic.Bool // a re-anchor is under way
	// The rate's baseline: the pair it is measured from, at least
	// tscRateEvery before the pair that measures it. Written under busy.
	baseTicks uint64
	baseNano  int64
}

type tscAnchor struct {
	ticks atomic.Uint64
	nano  atomic.Int64
	mult  atomic.Uint64 // nanoseconds per tick, times 2^32
}

const (
	tscAnchorFor   = 2 * time.Millisecond
	tscRateEvery   = time.Second
	tscCalibration = 2 * time.Millisecond
	// tscMaxSpread bounds a pair's uncertainty (half of it) and so an
	// anchor's offset from nanotime: a pair takes 60-80 ns undisturbed.
	tscMaxSpread = time.Microsecond
)

// now returns nanotime's reading, from the counter.
func (c *tscClock) now() int64 {
	for {
		s := c.seq.Load()
		a := &c.slots[s&1]
		t0, n0, mult := a.ticks.Load(), a.nano.Load(), a.mult.Load()
		d := ticks() - t0
		if c.seq.Load() != s {
			continue // a re-anchor published a new anchor: read it
		}
		if d >= c.limit {
			return c.reanchor()
		}
		// d < limit, so d*mult stays below 2 ms in ns times 2^32.
		return n0 + int64(d*mult>>32)
	}
}

// reanchor publishes a fresh anchor and returns its nanotime; the rate is
// measured again once its baseline is tscRateEvery old. A pair of
// readings that something came between (an interrupt, a preemption: more
// than maxSpread ticks around nanotime) is not used: the read gets the
// pair's nanotime, and the next read tries again.
func (c *tscClock) reanchor() int64 {
	if !c.busy.CompareAndSwap(false, true) {
		return nanotime()
	}
	t, n, spread := tscPair()
	if spread > c.maxSpread {
		c.busy.Store(false)
		return n // exact, only not paired closely enough with the counter
	}
	s := c.seq.Load()
	mult := c.slots[s&1].mult.Load()
	if n-c.baseNano >= int64(tscRateEvery) && t > c.baseTicks {
		if m, ok := tscMult(n-c.baseNano, t-c.baseTicks); ok {
			mult = m
		}
		c.baseTicks, c.baseNano = t, n
	}
	next := &c.slots[(s+1)&1]
	next.ticks.Store(t)
	next.nano.Store(n)
	next.mult.Store(mult)
	c.seq.Store(s + 1)
	c.busy.Store(false)
	return n
}

// tscPair reads the counter and nanotime at (nearly) one instant: of three
// tries, the one whose counter readings around nanotime are closest, the
// counter taken at their midpoint, and those readings' distance (the
// pair's uncertainty is half of it).
func tscPair() (t uint64, n int64, spread uint64) {
	spread = ^uint64(0)
	for range 3 {
		t1 := ticks()
		n1 := nanotime()
		t2 := ticks()
		if t2 >= t1 && t2-t1 < spread {
			spread, t, n = t2-t1, t1+(t2-t1)/2, n1
		}
	}
	return t, n, spread
}

// tscMult returns the rate of ns nanoseconds over tk ticks as nanoseconds
// per tick times 2^32, and whether it is plausible: a counter between
// 50 MHz and 20 GHz. Within those bounds an anchor's ticks times the rate
// stay below 2^62 whatever the rate it was calibrated with (at most 4e7
// ticks in 2 ms, times at most 2^32/0.05), so now's product cannot
// overflow.
func tscMult(ns int64, tk uint64) (uint64, bool) {
	if ns <= 0 || tk == 0 {
		return 0, false
	}
	perNs := float64(tk) / float64(ns)
	if perNs < 0.05 || perNs > 20 {
		return 0, false
	}
	return uint64(float64(ns) / float64(tk) * (1 << 32)), true
}

// newTSCClock calibrates a clock against nanotime over tscCalibration,
// from pairs whose uncertainty is below tscMaxSpread/2 (three tries).
func newTSCClock() (c *tscClock, err error) {
	for range 3 {
		if c, err = calibrateTSC(); err == nil {
			return c, nil
		}
	}
	return nil, err
}

func calibrateTSC() (*tscClock, error) {
	// The best of ten pairs at each end.
	pair := func() (t uint64, n int64, spread uint64) {
		spread = ^uint64(0)
		for range 10 {
			if pt, pn, ps := tscPair(); ps < spread {
				t, n, spread = pt, pn, ps
			}
		}
		return t, n, spread
	}
	t0, n0, s0 := pair()
	time.Sleep(tscCalibration)
	t1, n1, s1 := pair()
	if t1 <= t0 {
		return nil, errors.New("the time-stamp counter did not advance")
	}
	mult, ok := tscMult(n1-n0, t1-t0)
	if !ok {
		return nil, fmt.Errorf("the time-stamp counter ran at an implausible %.3f GHz", float64(t1-t0)/float64(n1-n0))
	}
	perNs := float64(t1-t0) / float64(n1-n0)
	c := &tscClock{
		limit:     uint64(float64(tscAnchorFor) * perNs),
		maxSpread: uint64(float64(tscMaxSpread) * perNs),
		baseTicks: t0, baseNano: n0,
	}
	if max(s0, s1) > c.maxSpread {
		return nil, fmt.Errorf("nanotime and the time-stamp counter could not be read within %v of each other", tscMaxSpread)
	}
	c.slots[0].ticks.Store(t1)
	c.slots[0].nano.Store(n1)
	c.slots[0].mult.Store(mult)
	return c, nil
}

// systemTSC is the process's counter clock, calibrated once, or why there
// is none.
var systemTSC = sync.OnceValues(func() (*tscClock, error) {
	if err := tscSupported(); err != nil {
		return nil, err
	}
	return newTSCClock()
})

// Clocks of Settings.Clock.
const (
	ClockAuto   = "auto"   // the time-stamp counter where tscSupported, else the system's
	ClockTSC    = "tsc"    // the time-stamp counter, or an error where it is not supported
	ClockSystem = "system" // the runtime's monotonic clock (CLOCK_MONOTONIC), as Java's System.nanoTime
)

// clockFor returns the counter clock the settings choose, or nil for the
// system's (also when ClockTSC is asked of a machine without one: Validate
// refuses that first).
func clockFor(s *Settings) *tscClock {
	if s.Clock == ClockSystem {
		return nil
	}
	c, err := systemTSC()
	if err != nil {
		return nil
	}
	return c
}

// ClockInUse names the clock a run with these settings reads: ClockTSC or
// ClockSystem.
func (s *Settings) ClockInUse() string {
	if clockFor(s) != nil {
		return ClockTSC
	}
	return ClockSystem
}
