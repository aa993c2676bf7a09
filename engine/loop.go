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

// progressBatch is how many operations a worker counts before adding them
// to its progress slot (one atomic add per batch instead of per
// operation); the rest is added when the worker ends.
const progressBatch = 32

// progress counts one worker's operations into its slot in batches of
// batch (1 for paced loops, whose operations are far apart).
type progress struct {
	slot  *paddedCount
	n     int64
	batch int64
}

func (p *progress) add() {
	if p.n++; p.n == p.batch {
		p.slot.n.Add(p.n)
		p.n = 0
	}
}

func (p *progress) flush() {
	p.slot.n.Add(p.n)
	p.n = 0
}

// loop runs one worker's operations in Java's closed loop: its quota (0 =
// until stopped), paced by the per-thread target schedule when one is set.
// Unthrottled, it reads no clock of its own: each operation's intended
// start is its actual start.
func (r *Runner) loop(ctx context.Context, id int, task Task, m *Meter, slot *paddedCount, quota int64, stop <-chan struct{}) {
	paced := r.tick > 0
	prog := &progress{slot: slot, batch: progressBatch}
	if paced {
		prog.batch = 1
	}
	defer prog.flush()
	var p *pacer
	var threadStart time.Duration
	m.intended = actualStart
	if paced {
		p = r.newPacer(id)
		defer p.close()
		// Java de-synchronises slow threads (<= 1000 ops/s) with a random
		// first sleep of up to one tick.
		if r.tick >= time.Millisecond {
			if !r.sleep(m, p, time.Duration(rand.Int64N(int64(r.tick))), stop) {
				return
			}
		}
		threadStart = m.Now()
		m.intended = threadStart
	}
	// The quota counts every operation, the warm-up's included, so that a
	// load inserts exactly its key range; only measured ones reach the
	// report.
	var issued int64
	for quota == 0 || issued < quota {
		if r.stopping.Load() {
			return
		}
		if !r.step(ctx, task, m, prog) {
			return
		}
		issued++
		if paced {
			next := threadStart + time.Duration(issued)*r.tick
			m.intended = next
			if d := next - m.Now(); d > 0 && !r.sleep(m, p, d, stop) {
				return
			}
		}
	}
}

// step runs one operation and counts it; it reports whether the worker
// goes on. The operation's completion is counted with its first
// measurement (see Meter.pending), or after the step when it measured
// nothing; a step that ends the worker (Java's failed load insert) is not
// counted, as Java does not count it.
func (r *Runner) step(ctx context.Context, task Task, m *Meter, prog *progress) bool {
	on := r.measured.Load()
	m.on, m.pending = on, on
	if !task.Step(ctx) {
		if on && !m.pending {
			m.rec.Done(-1) // counted with its measurement: take it back
		}
		m.pending = false
		return false
	}
	prog.add()
	if m.pending {
		m.rec.Done(1)
		m.pending = false
	}
	return true
}
