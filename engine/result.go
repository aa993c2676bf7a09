package engine

import (
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// Result is what a run measured.
type Result struct {
	Settings Settings // effective, with the seed filled in
	Threads  int      // workers, after Java's clamp to the op count
	Start    time.Time
	RunTime  time.Duration // measured part: after warm-up until all workers ended
	Ops      int64         // measured operations completed (YCSB's count for throughput)
	Snapshot *measure.Snapshot
	// Stopped says why the run ended early: "" (completed),
	// "maxexecutiontime", or "interrupted" (the context was cancelled).
	Stopped string
	// OpenErrors are errors opening connections (those workers did no work).
	OpenErrors []error
	// OpNames are the job's operations (see [Job.Ops]).
	OpNames []string
	// FirstError is the first measured operation that failed (nil when
	// none did), so that a run against a server that cannot be reached
	// says why.
	FirstError *OpError
	// Notes are facts the driver reported about the run (drivers.Noter),
	// added by package workload.
	Notes []string
	// OpenLoop is what an open loop (Settings.Arrival) measured besides
	// latencies; nil for YCSB's closed loop.
	OpenLoop *OpenLoopStats
}

// ReportLines are the lines gobench adds to YCSB's report after the
// [OVERALL] (and GC) lines (measure.LineOptions.Extra): the open loop's
// offered and achieved rates, queue and late starts; none for a closed
// loop, so that its report keeps YCSB 0.17.0's shape.
func (r *Result) ReportLines() []measure.Line {
	if r.OpenLoop == nil {
		return nil
	}
	return r.OpenLoop.Lines()
}

// Throughput returns measured operations per second over RunTime (0 when
// nothing ran).
func (r *Result) Throughput() float64 {
	if r.RunTime <= 0 {
		return 0
	}
	return float64(r.Ops) / r.RunTime.Seconds()
}

// Series returns the measurement named name ("READ", "UPDATE-FAILED",
// "Intended-READ", "CLEANUP", ...), or nil if nothing was recorded under it.
func (r *Result) Series(name string) *measure.Series {
	s := r.Snapshot.Lookup(name)
	if s == nil || !s.Active() {
		return nil
	}
	return s
}

// Percentile returns the latency in microseconds at percentile p (0-100]
// of the successful calls recorded under name, with the rank rule of every
// report gobench prints (Java HdrHistogram's); 0 when there were none.
func (r *Result) Percentile(name string, p float64) int64 {
	if s := r.Series(name); s != nil {
		return s.Percentile(p)
	}
	return 0
}

// Count returns how many calls recorded under name ended with return code
// st.
func (r *Result) Count(name string, st drivers.Status) int64 {
	if s := r.Series(name); s != nil && int(st) < len(s.Codes) {
		return s.Codes[st]
	}
	return 0
}

// Failed returns the number of measured operations of the job that did
// not succeed (every return code other than OK and BATCHED_OK).
func (r *Result) Failed() int64 {
	var n int64
	for _, name := range r.OpNames {
		s := r.Series(name)
		if s == nil {
			continue
		}
		for st, c := range s.Codes {
			if !drivers.Status(st).IsOK() {
				n += c
			}
		}
	}
	return n
}

// Attempted returns the number of measured operations of the job,
// whatever their outcome.
func (r *Result) Attempted() int64 {
	var n int64
	for _, name := range r.OpNames {
		if s := r.Series(name); s != nil {
			for _, c := range s.Codes {
				n += c
			}
		}
	}
	return n
}
