package measure

import (
	"math"
	"sync/atomic"
	"time"
	"unsafe"
)

// phaser is a writer-reader phaser after HdrHistogram's WriterReaderPhaser
// (Gil Tene): writers bracket each update with enter/exit, which are one
// atomic add each and never block (exitSingle, for a phaser one goroutine
// enters, is a release store); a reader that has swapped the data a
// writer uses calls flip, which waits until every writer that might still
// hold the old data has left its critical section.
//
// The sign of start tells the phase: writers entering in the even phase get
// a non-negative ticket and count their exit on evenEnd; in the odd phase the
// tickets start at MinInt64 and exits count on oddEnd. flip resets the other
// phase's end counter, swaps start, and waits until the old phase's end
// counter reaches the ticket count returned by the swap.
//
// A writer's enter and exit are locked adds on the phaser's line, so each
// phaser fills whole cache lines of its own (phaserSize): unpadded, the
// phasers of two workers' recorders were allocated side by side, in one
// line, and every operation of either worker took the line from the
// other's CPU; at 2 threads on the basic driver the lock add after enter
// was a quarter of the profile, and a worker's CPU per operation 0.27-0.31
// us against 0.23-0.27 padded (bench/README.md, 2026-12-05 evening).
type phaser struct {
	phaserCounters
	_ [phaserSize - unsafe.Sizeof(phaserCounters{})]byte
}

type phaserCounters struct {
	start   atomic.Int64
	evenEnd atomic.Int64
	oddEnd  atomic.Int64
}

// phaserSize is a phaser's size: two 64-byte cache lines, as the CPU's
// adjacent-line prefetch fetches lines in 128-byte aligned pairs. The
// allocator places objects of this size class at multiples of 128 from a
// page boundary, so a phaser shares its lines with nothing else.
const phaserSize = 128

func newPhaser() *phaser {
	p := &phaser{}
	p.oddEnd.Store(math.MinInt64)
	return p
}

// enter starts a writer critical section and returns its ticket.
func (p *phaser) enter() int64 { return p.start.Add(1) - 1 }

// exit ends the critical section that enter opened with ticket t.
func (p *phaser) exit(t int64) {
	if t < 0 {
		p.oddEnd.Add(1)
	} else {
		p.evenEnd.Add(1)
	}
}

// exitSingle is exit for a phaser that one goroutine at a time enters (a
// single-writer recorder's): its end counters then have one writer, and
// the add is a load and a release store instead of a locked add.
func (p *phaser) exitSingle(t int64) {
	e := &p.evenEnd
	if t < 0 {
		e = &p.oddEnd
	}
	releaseInt64(e, e.Load()+1)
}

// flipTicket is what wait needs to finish a flip started by begin.
type flipTicket struct {
	nextEven bool
	atFlip   int64
}

// begin moves writers to the next phase without waiting; wait(ticket)
// completes the flip. Splitting the two lets a collector start the flips of
// all recorders first and then wait for all of them, so the waits overlap.
func (p *phaser) begin() flipTicket {
	nextEven := p.start.Load() < 0
	var initial int64
	if nextEven {
		p.evenEnd.Store(0)
	} else {
		initial = math.MinInt64
		p.oddEnd.Store(math.MinInt64)
	}
	return flipTicket{nextEven: nextEven, atFlip: p.start.Swap(initial)}
}

// wait returns once every writer that entered before begin has exited.
func (p *phaser) wait(t flipTicket) {
	waitFor(func() bool {
		if t.nextEven {
			return p.oddEnd.Load() == t.atFlip
		}
		return p.evenEnd.Load() == t.atFlip
	})
}

// waitFor returns once done reports true: it is how the collector waits
// for a writer to leave its critical section. A writer's critical section
// is a few dozen nanoseconds, so it spins briefly. The section lasts longer
// only when the writer's goroutine was descheduled inside it; then it
// sleeps (with backoff up to 1 ms) rather than calling runtime.Gosched,
// which queues the waiter behind every runnable worker and can starve it
// for many time slices.
func waitFor(done func() bool) {
	backoff := 10 * time.Microsecond
	for spins := 0; !done(); spins++ {
		if spins < 64 {
			continue
		}
		time.Sleep(backoff)
		backoff = min(2*backoff, time.Millisecond)
	}
}
