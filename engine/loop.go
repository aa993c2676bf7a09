package engine

import (
	"context"
	"math/rand/v2"
	"runtime"
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

// yieldEvery is how long a worker runs operations that never block (a
// no-op or in-memory driver) before it yields its goroutine between two of
// them. Without yields the Go runtime preempts such a worker every 10 ms
// wherever it is, inside a timed call or inside its recorder's critical
// section too; with more workers than CPUs the preempted one then waits
// behind every other runnable worker (1000 workers on 2 CPUs: seconds),
// and an interval's cut, which waits until every writer has left the
// critical section it was in, waits as long: status lines came 10-20 s
// apart at 1000 threads. A worker whose operations block (a network
// driver) parks in them and is never preempted; its yields are rare and
// cost nothing it would not have spent; a paced worker sleeps between
// operations and does not yield. The time is read from the meter's last
// measurement: no clock read of its own. (bench/README.md: at 1000
// threads on the basic driver, status lines every second again, and
// 8.0-9.5 against 6.7-7.5 M ops/s.)
const yieldEvery = 2 * time.Millisecond

// yield is runtime.Gosched; a test counts the calls.
var yield = runtime.Gosched

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
	// slice is when the worker's current run began: the end of its first
	// measured operation, at the start and after each yield (-1 until
	// then), so that neither the time before a worker first ran nor the
	// time a yielded worker waited for a CPU counts. (Counted from the
	// run's start, every worker that started 2 ms late yielded after its
	// first operation: 10 000 workers all under way at once, 20 MB more.)
	slice := time.Duration(-1)
	for quota == 0 || issued < quota {
		if r.stopping.Load() {
			return
		}
		if !r.step(ctx, task, m, prog) {
			return
		}
		issued++
		if !paced {
			if slice < 0 {
				slice = m.last
			} else if m.last-slice >= yieldEvery {
				yield()
				slice = -1
			}
			continue
		}
		next := threadStart + time.Duration(issued)*r.tick
		m.intended = next
		if d := next - m.Now(); d > 0 && !r.sleep(m, p, d, stop) {
			return
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
			m.done(-1) // counted with its measurement: take it back
		}
		m.pending = false
		return false
	}
	prog.add()
	if m.pending {
		m.done(1)
		m.pending = false
	}
	return true
}
