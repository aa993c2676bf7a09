package measure

import (
	"math"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Recorder records one worker's samples. Get one per worker goroutine from
// [Collector.NewRecorder]. Its methods must be called only by the goroutine
// that owns it; they never block, never allocate (except the first sample of
// a series, which allocates that series' histogram once per buffer), and may
// run at the same time as the collector's [Collector.Cut].
//
// Series and code arguments are indexes into the collector's [Layout]; an
// index out of range is a programming error and panics like a slice index.
type Recorder struct {
	ph        *phaser
	active    atomic.Pointer[buffer]
	spare     *buffer // owned by the collector, under its mutex
	maxMicros int64
	opts      Options
	_         [64]byte // keep the next recorder's hot fields off this cache line
}

// buffer is one phase's worth of a recorder's data. The worker writes the
// active buffer inside phaser critical sections; after a flip the collector
// owns the other one.
type buffer struct {
	hist  []*hdrhistogram.Histogram // per series; nil until first sample
	sum   []int64                   // per series, µs
	min   []int64                   // per series, µs; MaxInt64 when empty
	max   []int64                   // per series, µs; -1 when empty
	codes [][]int64                 // [series][code]
	done  int64
}

func newBuffer(l Layout) *buffer {
	n := len(l.Series)
	b := &buffer{
		hist:  make([]*hdrhistogram.Histogram, n),
		sum:   make([]int64, n),
		min:   make([]int64, n),
		max:   make([]int64, n),
		codes: make([][]int64, n),
	}
	flat := make([]int64, n*len(l.Codes))
	for i := range b.codes {
		b.codes[i] = flat[i*len(l.Codes) : (i+1)*len(l.Codes) : (i+1)*len(l.Codes)]
	}
	b.clearStats()
	return b
}

func (b *buffer) clearStats() {
	for i := range b.min {
		b.min[i] = math.MaxInt64
		b.max[i] = -1
		b.sum[i] = 0
	}
}

// Record adds one latency sample to series. The duration is truncated to
// whole microseconds (as Java YCSB does), negative values count as 0 and
// values above the collector's highest trackable value as that value.
func (r *Recorder) Record(series int, d time.Duration) {
	us := int64(d) / int64(time.Microsecond)
	if us < 0 {
		us = 0
	} else if us > r.maxMicros {
		us = r.maxMicros
	}
	t := r.ph.enter()
	b := r.active.Load()
	h := b.hist[series]
	if h == nil {
		h = r.opts.newHist()
		b.hist[series] = h
	}
	// Cannot fail: us is within [0, highest trackable value].
	_ = h.RecordValue(us)
	b.sum[series] += us
	if us < b.min[series] {
		b.min[series] = us
	}
	if us > b.max[series] {
		b.max[series] = us
	}
	r.ph.exit(t)
}

// Count adds one occurrence of return code code to series (Java YCSB counts
// status codes against the plain operation name, e.g. READ, even when the
// latency went to READ-FAILED).
func (r *Recorder) Count(series, code int) {
	t := r.ph.enter()
	r.active.Load().codes[series][code]++
	r.ph.exit(t)
}

// Done adds n completed operations to the count that drives the status
// line's throughput and the report's Throughput(ops/sec).
func (r *Recorder) Done(n int64) {
	t := r.ph.enter()
	r.active.Load().done += n
	r.ph.exit(t)
}

// beginSwap installs the spare buffer as the active one and starts the
// phase flip; finishSwap waits for the flip and returns the old buffer,
// which the worker no longer touches once it returns. The old buffer is the
// next spare, so drain it before the next swap. The caller holds the
// collector mutex.
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

// drainInto moves everything in b into iv and clears b for reuse.
func (b *buffer) drainInto(iv *Snapshot, o Options) {
	for s, h := range b.hist {
		dst := &iv.Series[s]
		if h != nil && h.TotalCount() > 0 {
			if dst.Hist == nil {
				dst.Hist = o.newHist()
				dst.MinMicros, dst.MaxMicros = b.min[s], b.max[s]
			}
			dst.Hist.Merge(h)
			h.Reset()
			dst.SumMicros += b.sum[s]
			dst.MinMicros = min(dst.MinMicros, b.min[s])
			dst.MaxMicros = max(dst.MaxMicros, b.max[s])
		}
		for c, n := range b.codes[s] {
			if n != 0 {
				dst.Codes[c] += n
				b.codes[s][c] = 0
			}
		}
	}
	b.clearStats()
	iv.Ops += b.done
	b.done = 0
}
