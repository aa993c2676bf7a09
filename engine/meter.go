package engine

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// Meter is one worker's handle on measurement: a clock, the recorder and the
// intended start time the runner's schedule gave the current operation. A
// Task times each driver call with it. It is used by one goroutine and
// allocates nothing.
type Meter struct {
	t *SeriesMap
	// rec is the worker's own recorder; or, with many workers, nil and
	// pool the run's shared recorders, one claimed for each operation's
	// measurements (see claim).
	rec   *measure.Recorder
	pool  *measure.Pool
	first *firstError // the run's first failed operation
	base  int64       // the run's start on the runtime's monotonic clock (nanotime)
	tsc   *tscClock   // nanotime from the time-stamp counter; nil: nanotime itself
	// intended is the current operation's scheduled start, or actualStart
	// when no schedule applies (unthrottled closed loop): then the start a
	// task measures from is its intended start, and no clock is read for
	// it.
	intended time.Duration
	// on is false during the warm-up: the operation runs but records
	// nothing. The runner sets it before each operation, so an operation is
	// either wholly in the report or wholly out of it.
	on bool
	// pending is set while the current operation's completion is still to
	// be counted: the first measurement of the operation counts it in the
	// same critical section (the runner counts it after the step
	// otherwise).
	pending bool
	// last is the end of the last call measured (the clock read that
	// timed it), for the loop's yields (see yieldEvery): no clock read of
	// its own.
	last time.Duration
}

// actualStart as an intended start means "the operation's actual start".
const actualStart time.Duration = -1

// Now returns the time since the run began (monotonic).
// Any goroutine may call it.
func (m *Meter) Now() time.Duration {
	if m.tsc != nil {
		return time.Duration(m.tsc.now() - m.base)
	}
	return time.Duration(nanotime() - m.base)
}

// Measure records one call of operation op that started at start and ended
// now with err, the way Java's DBWrapper does, and returns its return code.
func (m *Meter) Measure(op int, start time.Duration, err error) drivers.Status {
	return m.MeasureSpan(op, start, m.Now(), m.intended, err)
}

// Intended returns the start time the runner's schedule gave the current
// operation: its slot under a closed loop's -target, its arrival under an
// open loop, and a negative value, meaning "its actual start", when
// unthrottled. A task whose operation completes later (an asynchronous
// send) keeps it for [Meter.MeasureSpan].
func (m *Meter) Intended() time.Duration { return m.intended }

// MeasureSpan records an operation of op that started at start (scheduled
// at intended; a negative intended means start) and ended at end, for
// tasks that learn the outcome after the operation's step (asynchronous
// sends acknowledged later). Call it on the worker's goroutine.
func (m *Meter) MeasureSpan(op int, start, end, intended time.Duration, err error) drivers.Status {
	st := drivers.Classify(err)
	m.last = end
	if !m.on {
		return st
	}
	if !st.IsOK() && m.first != nil && m.first.p.Load() == nil {
		m.first.set(m.t.opName(op), st, err)
	}
	if intended < 0 {
		intended = start
	}
	var done int64
	if m.pending {
		done, m.pending = 1, false
	}
	s := m.t.failed[op][st]
	rec := m.claim()
	if m.t.intendedUnderPlain {
		rec.RecordOp(s, end-intended, m.t.plain[op], int(st), done)
	} else {
		rec.RecordOp(s, end-start, m.t.plain[op], int(st), done)
		if m.t.recordIntended {
			rec.Record(m.t.intended[s], end-intended)
		}
	}
	m.release(rec)
	return st
}

// claim returns the recorder to write: the worker's own, or one claimed
// from the run's pool, which release gives back. Measurements written
// between the two land in the same interval.
func (m *Meter) claim() *measure.Recorder {
	if m.pool == nil {
		return m.rec
	}
	return m.pool.Claim()
}

func (m *Meter) release(rec *measure.Recorder) {
	if m.pool != nil {
		rec.Release()
	}
}

// done adds n to the completed operations.
func (m *Meter) done(n int64) {
	rec := m.claim()
	rec.Done(n)
	m.release(rec)
}

// Sample records a latency under series s (see [SeriesMap.Extra]) from start to
// now, without a return code.
func (m *Meter) Sample(s int, start time.Duration) {
	if m.on {
		m.sample(s, start, m.Now())
	}
}

// Count counts return code st against series s.
func (m *Meter) Count(s int, st drivers.Status) {
	if m.on {
		rec := m.claim()
		rec.Count(s, int(st))
		m.release(rec)
	}
}

// sample applies measurement.interval: op (actual start), intended (the
// schedule's start, under the plain name) or both.
func (m *Meter) sample(s int, start, end time.Duration) {
	intended := m.intended
	if intended < 0 {
		intended = start
	}
	rec := m.claim()
	if m.t.intendedUnderPlain {
		rec.Record(s, end-intended)
	} else {
		rec.Record(s, end-start)
		if m.t.recordIntended {
			rec.Record(m.t.intended[s], end-intended)
		}
	}
	m.release(rec)
}

// SampleValue records v under series s as a latency sample, without
// applying measurement.interval: for derived measurements such as YCSB
// master's SCAN-LATENCY-PER-RECORD (a scan's latency per row returned).
func (m *Meter) SampleValue(s int, v time.Duration) {
	if m.on {
		rec := m.claim()
		rec.Record(s, v)
		m.release(rec)
	}
}

// Plain returns the series of operation op's successes, against which its
// return codes are counted.
func (m *Meter) Plain(op int) int { return m.t.Plain(op) }

// Extra returns the series of the job's extra measurement name (see
// [Job.Extra]), or -1 when the run does not record it (such as
// [NameScanLatencyPerRecord] without Settings.ScanLatencyPerRecord).
func (m *Meter) Extra(name string) int { return m.t.Extra(name) }

// NewMeter returns a Meter for job's series under set that records into a
// collector of its own, outside any Runner: for tests and benchmarks of a
// Job's tasks (the zero-allocation checks, for one).
func NewMeter(set Settings, job Job) *Meter {
	sm := NewSeriesMap(job.Ops(), job.Extra(), &set)
	c := measure.NewCollector(sm.Layout(), measure.Options{})
	return &Meter{t: sm, rec: c.NewSingleWriterRecorder(), base: nanotime(), tsc: clockFor(&set), on: true, first: &firstError{}, intended: actualStart}
}

// OpError is a failed operation: its name, return code and error.
type OpError struct {
	Op     string
	Status drivers.Status
	Err    error // nil when the operation failed without one (a NOT_FOUND scan, say)
}

func (e *OpError) Error() string {
	if e.Err == nil {
		return e.Op + ": " + e.Status.String()
	}
	st, msg := e.Status.String(), e.Err.Error()
	if msg == st || strings.HasPrefix(msg, st+": ") { // a drivers.StatusError names its status itself
		return e.Op + ": " + msg
	}
	return e.Op + ": " + st + ": " + msg
}

func (e *OpError) Unwrap() error { return e.Err }

// firstError keeps the first failed operation of a run; the hot path pays
// one atomic load per failed operation and nothing per successful one.
type firstError struct{ p atomic.Pointer[OpError] }

func (f *firstError) set(op string, st drivers.Status, err error) {
	f.p.CompareAndSwap(nil, &OpError{Op: op, Status: st, Err: err})
}
