package workload

import (
	"context"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/measure"
)

// Run runs spec's phase of YCSB's core workload against db (any drivers.DB:
// a registered driver's, or a caller's own) and returns what it measured. It
// is New followed by Runner.Run.
func Run(ctx context.Context, spec Spec, db drivers.DB, opts ...Option) (*Result, error) {
	r, err := New(spec, db, opts...)
	if err != nil {
		return nil, err
	}
	return r.Run(ctx)
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

// Histogram returns the latency histogram (microseconds) of op's successful
// calls, or an empty histogram when there were none. The histogram belongs
// to the Result.
func (r *Result) Histogram(op Op) *hdrhistogram.Histogram {
	if s := r.Series(op.String()); s != nil && s.Hist != nil {
		return s.Hist
	}
	return hdrhistogram.New(1, 1, 1)
}

// Count returns how many calls of op ended with return code st.
func (r *Result) Count(op Op, st drivers.Status) int64 {
	if s := r.Series(op.String()); s != nil && int(st) < len(s.Codes) {
		return s.Codes[st]
	}
	return 0
}
