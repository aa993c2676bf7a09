package measure

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Recorder records samples for one or more worker goroutines. Get one from
// [Collector.NewRecorder]; several workers may share it. Its methods are
// safe for concurrent use, lock-free (atomic adds inside a writer-reader
// phaser critical section), never block, and never allocate except for the
// first sample of a series in each of the recorder's two buffers, which
// allocates that series' counts. They may run at the same time as
// [Collector.Cut].
//
// A recorder from [Collector.NewSingleWriterRecorder] belongs to one
// goroutine at a time: inside the critical section it adds with plain
// instructions instead of atomic ones (the phaser's atomic add at enter
// and its release store at exit still order them before the collector
// reads the buffer), which takes four to six locked instructions off every
// operation.
//
// A recorder of a [Pool] is written only by the goroutine that claimed it,
// between [Pool.Claim] and [Recorder.Release], with plain adds and no
// phaser; a cut waits for its release.
//
// Series and code arguments are indexes into the collector's [Layout]; an
// index out of range is a programming error and panics like a slice index.
type Recorder struct {
	single bool         // one writer goroutine: plain adds inside the critical section
	ph     *phaser      // nil in a Pool: its claim is the critical section
	held   atomic.Int64 // in a Pool: 1 while claimed by a writer or by the collector, else 0
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
	done   int64                       // atomic adds
	// raw holds every sample per series when the collector keeps raw
	// samples (Options.Raw); writers append under rawMu.
	rawMu sync.Mutex
	raw   [][]RawSample
}

// Its fields are updated with atomic functions by shared recorders and
// plainly by single-writer ones; the collector reads them plainly after a
// flip.
type seriesBuf struct {
	counts []int64 // histogram counts (see geometry)
	sum    int64
	min    int64 // MaxInt64 when empty
	max    int64 // -1 when empty
	// ms counts samples in 1 ms buckets, the last one the overflow, and
	// sumSq holds the float64 bits of the sum of squared samples, when the
	// collector counts buckets (Options.Buckets).
	ms    []int64
	sumSq uint64
}

func newSeriesBuf(g *geometry) *seriesBuf {
	s := &seriesBuf{counts: make([]int64, g.countsLen)}
	if g.msBuckets > 0 {
		s.ms = make([]int64, g.msBuckets+1)
	}
	s.min, s.max = math.MaxInt64, -1
	return s
}

// RawSample is one sample kept by a collector with [Options].Raw: when the
// operation ended (Unix milliseconds, as Java's OneMeasurementRaw stamps
// it) and its latency in microseconds.
type RawSample struct {
	UnixMilli int64
	Micros    int64
}

func newBuffer(l Layout, g *geometry) *buffer {
	n := len(l.Series)
	b := &buffer{series: make([]atomic.Pointer[seriesBuf], n), codes: make([][]int64, n)}
	if g.raw {
		b.raw = make([][]RawSample, n)
	}
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
	us, idx := r.geom.sample(d)
	if r.ph == nil {
		r.add(r.active.Load(), series, us, idx)
		return
	}
	t := r.ph.enter()
	b := r.active.Load()
	r.add(b, series, us, idx)
	r.leave(t)
}

// RecordOp records one operation in a single critical section: a latency
// sample d under series, one occurrence of return code code under
// codeSeries (see [Recorder.Count]) and done completed operations (see
// [Recorder.Done]; 0 adds none). It is what Record, Count and Done do
// together, for about half their cost.
func (r *Recorder) RecordOp(series int, d time.Duration, codeSeries, code int, done int64) {
	us, idx := r.geom.sample(d)
	if r.ph == nil {
		r.recordOp(r.active.Load(), series, us, idx, codeSeries, code, done)
		return
	}
	t := r.ph.enter()
	r.recordOp(r.active.Load(), series, us, idx, codeSeries, code, done)
	r.leave(t)
}

// leave ends the critical section r.ph.enter began with ticket t.
func (r *Recorder) leave(t int64) {
	if r.single {
		r.ph.exitSingle(t)
	} else {
		r.ph.exit(t)
	}
}

func (r *Recorder) recordOp(b *buffer, series int, us int64, idx int, codeSeries, code int, done int64) {
	r.add(b, series, us, idx)
	r.count(b, codeSeries, code)
	r.addDone(b, done)
}

// sample returns d in whole microseconds, clamped to [0, highest], and its
// counts index.
func (g *geometry) sample(d time.Duration) (int64, int) {
	us := int64(d) / int64(time.Microsecond)
	if us < 0 {
		us = 0
	} else if us > g.highest {
		us = g.highest
	}
	return us, g.index(us)
}

// add records sample us (counts index idx) under series in b; the caller
// is inside a phaser critical section.
func (r *Recorder) add(b *buffer, series int, us int64, idx int) {
	s := b.series[series].Load()
	if s == nil {
		s = newSeriesBuf(r.geom)
		if !b.series[series].CompareAndSwap(nil, s) {
			s = b.series[series].Load() // another writer won
		}
	}
	if r.single {
		s.counts[idx]++
		s.sum += us
		s.min = min(s.min, us)
		s.max = max(s.max, us)
		if s.ms != nil {
			s.ms[min(us/1000, int64(len(s.ms)-1))]++
			s.sumSq = math.Float64bits(math.Float64frombits(s.sumSq) + float64(us)*float64(us))
		}
	} else {
		s.addShared(us, idx)
	}
	if b.raw != nil {
		now := time.Now().UnixMilli()
		b.rawMu.Lock()
		b.raw[series] = append(b.raw[series], RawSample{UnixMilli: now, Micros: us})
		b.rawMu.Unlock()
	}
}

// addShared is add's update of s for a recorder that several goroutines
// write at once.
func (s *seriesBuf) addShared(us int64, idx int) {
	atomic.AddInt64(&s.counts[idx], 1)
	atomic.AddInt64(&s.sum, us)
	for m := atomic.LoadInt64(&s.min); us < m && !atomic.CompareAndSwapInt64(&s.min, m, us); m = atomic.LoadInt64(&s.min) {
	}
	for m := atomic.LoadInt64(&s.max); us > m && !atomic.CompareAndSwapInt64(&s.max, m, us); m = atomic.LoadInt64(&s.max) {
	}
	if s.ms != nil {
		atomic.AddInt64(&s.ms[min(us/1000, int64(len(s.ms)-1))], 1)
		sq := float64(us) * float64(us)
		for {
			old := atomic.LoadUint64(&s.sumSq)
			if atomic.CompareAndSwapUint64(&s.sumSq, old, math.Float64bits(math.Float64frombits(old)+sq)) {
				break
			}
		}
	}
}

// Count adds one occurrence of return code code to series (Java YCSB counts
// status codes against the plain operation name, e.g. READ, even when the
// latency went to READ-FAILED).
func (r *Recorder) Count(series, code int) {
	if r.ph == nil {
		r.count(r.active.Load(), series, code)
		return
	}
	t := r.ph.enter()
	r.count(r.active.Load(), series, code)
	r.leave(t)
}

// Done adds n completed operations to the count that drives the status
// line's throughput and the report's Throughput(ops/sec).
func (r *Recorder) Done(n int64) {
	if r.ph == nil {
		r.addDone(r.active.Load(), n)
		return
	}
	t := r.ph.enter()
	r.addDone(r.active.Load(), n)
	r.leave(t)
}

// count and addDone add to b inside the writer's critical section: plainly
// for one writer, atomically for several.
func (r *Recorder) count(b *buffer, series, code int) {
	if c := &b.codes[series][code]; r.single {
		*c++
	} else {
		atomic.AddInt64(c, 1)
	}
}

func (r *Recorder) addDone(b *buffer, n int64) {
	if r.single {
		b.done += n
	} else if n != 0 {
		atomic.AddInt64(&b.done, n)
	}
}

// beginSwap installs the spare buffer as the active one and starts the
// phase flip; finishSwap waits for the flip and returns the old buffer,
// which no writer touches once it returns. The old buffer is the next
// spare, so drain it before the next swap. The caller holds the collector
// mutex.
//
// A pool's recorder has no phaser: finishSwap swaps its buffers under a
// claim of its own, waiting for a writer that holds it to release it.
func (r *Recorder) beginSwap() flipTicket {
	if r.ph == nil {
		return flipTicket{}
	}
	r.swap()
	return r.ph.begin()
}

func (r *Recorder) finishSwap(t flipTicket) *buffer {
	if r.ph == nil {
		waitFor(r.tryClaim)
		r.swap()
		r.Release()
	} else {
		r.ph.wait(t)
	}
	return r.spare
}

func (r *Recorder) swap() {
	old := r.active.Load()
	r.active.Store(r.spare)
	r.spare = old
}

// drainInto moves everything in b into iv, adding histogram counts to
// acc[series] (allocated on demand) and marking got[series] for series with
// samples, and clears b for reuse.
func (b *buffer) drainInto(iv *Snapshot, acc [][]int64, got []bool, g *geometry, raw [][]RawSample) {
	for i := range b.series {
		dst := &iv.Series[i]
		if b.raw != nil && len(b.raw[i]) > 0 {
			raw[i] = append(raw[i], b.raw[i]...)
			b.raw[i] = b.raw[i][:0]
		}
		if s := b.series[i].Load(); s != nil && s.max >= 0 {
			if s.ms != nil {
				if dst.Buckets == nil {
					dst.Buckets = make([]int64, len(s.ms))
				}
				for k, n := range s.ms {
					dst.Buckets[k] += n
				}
				clear(s.ms)
				dst.SumSquares += math.Float64frombits(s.sumSq)
				s.sumSq = 0
			}
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
			mn, mx := s.min, s.max
			if !got[i] {
				dst.MinMicros, dst.MaxMicros, got[i] = mn, mx, true
			} else {
				dst.MinMicros = min(dst.MinMicros, mn)
				dst.MaxMicros = max(dst.MaxMicros, mx)
			}
			dst.SumMicros += s.sum
			s.sum, s.min, s.max = 0, math.MaxInt64, -1
		}
		for c, n := range b.codes[i] {
			if n != 0 {
				dst.Codes[c] += n
				b.codes[i][c] = 0
			}
		}
	}
	iv.Ops += b.done
	b.done = 0
}
