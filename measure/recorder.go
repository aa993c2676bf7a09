package measure

import (
	"math"
	"sync/atomic"
	"time"
)

// Recorder records samples for one or more worker goroutines. Get one from
// [Collector.NewRecorder]; several workers may share it (the engine's
// runner makes min(workers, 4×GOMAXPROCS) recorders for all its workers).
// Its methods are safe for concurrent use, lock-free (atomic adds inside a
// writer-reader phaser critical section), never block, and never allocate
// except for the first sample of a series in each of the recorder's two
// buffers, which allocates that series' counts. They may run at the same
// time as [Collector.Cut].
//
// Series and code arguments are indexes into the collector's [Layout]; an
// index out of range is a programming error and panics like a slice index.
type Recorder struct {
	ph     *phaser
	active atomic.Pointer[buffer]
	spare  *buffer // owned by the collector, under its mutex
	geom   *geometry
}

// buffer is one phase's worth of a recorder's data. Writers update the
// active buffer with atomics inside phaser critical sections; after a flip
// the collector owns the other one and reads it plainly.
type buffer struct {
	series []atomic.Pointer[seriesBuf] // nil until the series' first sample
	codes  [][]int64                   // [series][code], atomic adds
	done   atomic.Int64
}

type seriesBuf struct {
	counts []int64 // histogram counts (see geometry), atomic adds
	sum    atomic.Int64
	min    atomic.Int64 // MaxInt64 when empty
	max    atomic.Int64 // -1 when empty
}

func newSeriesBuf(g *geometry) *seriesBuf {
	s := &seriesBuf{counts: make([]int64, g.countsLen)}
	s.min.Store(math.MaxInt64)
	s.max.Store(-1)
	return s
}

func newBuffer(l Layout) *buffer {
	n := len(l.Series)
	b := &buffer{series: make([]atomic.Pointer[seriesBuf], n), codes: make([][]int64, n)}
	flat := make([]int64, n*len(l.Codes))
	for i := range b.codes {
		b.codes[i] = flat[i*len(l.Codes) : (i+1)*len(l.Codes) : (i+1)*len(l.Codes)]
	}
	return b
}

// Record adds one latency sample to series. The duration is truncated to
// whole microseconds (as Java YCSB does), negative values count as 0 and
// values above the collector's highest trackable value as that value.
func (r *Recorder) Record(series int, d time.Duration) {
	us := int64(d) / int64(time.Microsecond)
	if us < 0 {
		us = 0
	} else if us > r.geom.highest {
		us = r.geom.highest
	}
	idx := r.geom.index(us)
	t := r.ph.enter()
	b := r.active.Load()
	s := b.series[series].Load()
	if s == nil {
		s = newSeriesBuf(r.geom)
		if !b.series[series].CompareAndSwap(nil, s) {
			s = b.series[series].Load() // another writer won
		}
	}
	atomic.AddInt64(&s.counts[idx], 1)
	s.sum.Add(us)
	for m := s.min.Load(); us < m && !s.min.CompareAndSwap(m, us); m = s.min.Load() {
	}
	for m := s.max.Load(); us > m && !s.max.CompareAndSwap(m, us); m = s.max.Load() {
	}
	r.ph.exit(t)
}

// Count adds one occurrence of return code code to series (Java YCSB counts
// status codes against the plain operation name, e.g. READ, even when the
// latency went to READ-FAILED).
func (r *Recorder) Count(series, code int) {
	t := r.ph.enter()
	atomic.AddInt64(&r.active.Load().codes[series][code], 1)
	r.ph.exit(t)
}

// Done adds n completed operations to the count that drives the status
// line's throughput and the report's Throughput(ops/sec).
func (r *Recorder) Done(n int64) {
	t := r.ph.enter()
	r.active.Load().done.Add(n)
	r.ph.exit(t)
}

// beginSwap installs the spare buffer as the active one and starts the
// phase flip; finishSwap waits for the flip and returns the old buffer,
// which no writer touches once it returns. The old buffer is the next
// spare, so drain it before the next swap. The caller holds the collector
// mutex.
func (r *Recorder) beginSwap() flipTicket {
	old := r.active.Load()
	r.active.Store(r.spare)
	r.spare = old
	return r.ph.begin()
}

func (r *Recorder) finishSwap(t flipTicket) *buffer {
	r.ph.wait(t)
	return r.spare
}

// drainInto moves everything in b into iv, adding histogram counts to
// acc[series] (allocated on demand) and marking got[series] for series with
// samples, and clears b for reuse.
func (b *buffer) drainInto(iv *Snapshot, acc [][]int64, got []bool, g *geometry) {
	for i := range b.series {
		dst := &iv.Series[i]
		if s := b.series[i].Load(); s != nil && s.max.Load() >= 0 {
			if acc[i] == nil {
				acc[i] = make([]int64, g.countsLen)
			}
			a := acc[i]
			for k, n := range s.counts {
				if n != 0 {
					a[k] += n
				}
			}
			clear(s.counts)
			mn, mx := s.min.Load(), s.max.Load()
			if !got[i] {
				dst.MinMicros, dst.MaxMicros, got[i] = mn, mx, true
			} else {
				dst.MinMicros = min(dst.MinMicros, mn)
				dst.MaxMicros = max(dst.MaxMicros, mx)
			}
			dst.SumMicros += s.sum.Load()
			s.sum.Store(0)
			s.min.Store(math.MaxInt64)
			s.max.Store(-1)
		}
		for c, n := range b.codes[i] {
			if n != 0 {
				dst.Codes[c] += n
				b.codes[i][c] = 0
			}
		}
	}
	iv.Ops += b.done.Load()
	b.done.Store(0)
}
