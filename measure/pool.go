package measure

import "runtime"

// Pool is a set of recorders that any number of writer goroutines share
// without atomic adds: a writer claims a recorder that no other goroutine
// holds ([Pool.Claim], one compare-and-swap), writes it with plain adds as
// a single-writer recorder does, and releases it ([Recorder.Release], one
// release store: a plain one on amd64). The claim is the recorder's critical section: the
// collector swaps a pooled recorder's buffers while holding its claim, so
// a pooled recorder needs no phaser.
//
// A pool costs a writer one locked instruction per claim, where a
// recorder shared through [Collector.NewRecorder] costs two phaser adds
// plus an atomic add for each count, sum and code it touches (five to
// seven in all per operation). A writer starts its claim at the recorders
// of the CPU it runs on, so two writers collide only when one of them was
// descheduled inside its claim (or moved to another CPU); the other then
// tries the next recorder. A writer waits only when every recorder is
// held; it then yields and tries again.
type Pool struct {
	recs []*Recorder
	per  int // recorders per P: P k starts its claims at recorder k×per
}

// NewPool returns a pool of n recorders (at least 1; a multiple of
// GOMAXPROCS spreads them evenly over the CPUs). Like
// [Collector.NewRecorder], each recorder costs two buffers of lazily
// allocated per-series counts.
func (c *Collector) NewPool(n int) *Pool {
	p := &Pool{recs: make([]*Recorder, max(n, 1))}
	p.per = max(len(p.recs)/runtime.GOMAXPROCS(0), 1)
	for i := range p.recs {
		p.recs[i] = c.newRecorder(recorderPooled)
	}
	return p
}

// Len returns the number of recorders in the pool.
func (p *Pool) Len() int { return len(p.recs) }

// Claim returns a recorder of the pool that no other goroutine holds,
// trying first the recorders of the P (the Go scheduler's processor) the
// caller runs on, then the next ones: goroutines on one CPU mostly write
// the same few recorders, warm in that CPU's cache, and the CPUs do not
// pass the recorders' cache lines to one another on every operation (that
// cost a third of recording at 1000 workers on 2 CPUs). The caller writes
// the recorder from its goroutine only and calls [Recorder.Release] when
// done; it must not claim a second one before that. Claim never
// allocates.
func (p *Pool) Claim() *Recorder {
	n := len(p.recs)
	i := procID() * p.per
	if i >= n { // GOMAXPROCS was raised after the pool was made
		i %= n
	}
	for tries := 1; ; tries++ {
		if r := p.recs[i]; r.tryClaim() {
			return r
		}
		if i++; i == n {
			i = 0
		}
		if tries%n == 0 {
			// Every recorder is held: by descheduled writers, mostly, that
			// need a CPU to release theirs.
			runtime.Gosched()
		}
	}
}

// tryClaim claims a pool's recorder if nobody holds it (a plain load
// first, so that a held recorder costs no locked instruction).
func (r *Recorder) tryClaim() bool {
	return r.held.Load() == 0 && r.held.CompareAndSwap(0, 1)
}

// Release gives back a recorder claimed from a [Pool]. Its writes so far
// happen before the next claimer's, the collector's included.
// On amd64 that is one plain store (see releaseInt64).
func (r *Recorder) Release() { releaseInt64(&r.held, 0) }
