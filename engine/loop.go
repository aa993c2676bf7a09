package engine

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// paddedCount is a counter on its own cache line, so workers counting on
// different slots do not slow each other down.
type paddedCount struct {
	n atomic.Int64
	_ [56]byte
}

// loop runs one worker's operations: its quota (0 = until stopped), paced by
// the target schedule when one is set.
func (r *Runner) loop(ctx context.Context, task Task, m *Meter, slot *paddedCount, quota int64, stop <-chan struct{}) {
	var timer *time.Timer
	threadStart := m.Now()
	if r.tick > 0 {
		timer = time.NewTimer(time.Hour)
		timer.Stop()
		// Java de-synchronises slow threads (<= 1000 ops/s) with a random
		// first sleep of up to one tick.
		if r.tick >= time.Millisecond {
			if !r.sleep(m, timer, time.Duration(rand.Int64N(int64(r.tick))), stop) {
				return
			}
		}
		threadStart = m.Now()
	}
	// The quota counts every operation, the warm-up's included, so that a
	// load inserts exactly its key range; only measured ones reach the
	// report.
	var issued int64
	for quota == 0 || issued < quota {
		select {
		case <-stop:
			return
		default:
		}
		if r.tick <= 0 || issued == 0 {
			m.intended = m.Now()
		}
		m.on = r.measured.Load()
		if !task.Step(ctx) {
			return
		}
		issued++
		slot.n.Add(1)
		if m.on {
			m.rec.Done(1)
		}
		if r.tick > 0 {
			next := threadStart + time.Duration(issued)*r.tick
			m.intended = next
			if d := next - m.Now(); d > 0 && !r.sleep(m, timer, d, stop) {
				return
			}
		}
	}
}

// sleep waits d (busy-waiting with spin.sleep), or until stop. It reports
// whether the worker should go on.
func (r *Runner) sleep(m *Meter, t *time.Timer, d time.Duration, stop <-chan struct{}) bool {
	if r.set.SpinSleep {
		end := m.Now() + d
		for m.Now() < end {
			select {
			case <-stop:
				return false
			default:
			}
		}
		return true
	}
	t.Reset(d)
	select {
	case <-t.C:
		return true
	case <-stop:
		t.Stop()
		return false
	}
}
