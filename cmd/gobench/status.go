package main

import (
	"io"
	"sync"
	"time"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/workload"
)

// status prints YCSB's -s status lines from the runner's intervals.
type status struct {
	w       io.Writer
	out     *workload.Output
	cut     time.Duration // how often the runner cuts intervals
	every   time.Duration // how often a status line is printed
	total   int64
	mu      sync.Mutex
	t0      time.Time
	last    time.Time
	ops     int64
	prevOps int64
	pending *measure.Snapshot
	hooks   []func(*measure.Snapshot) // HDR logs, result intervals
}

func newStatus(w io.Writer, s *workload.Output) *status {
	st := &status{w: w, out: s, every: s.StatusInterval, cut: s.StatusInterval}
	if s.MeasurementType == "timeseries" && s.TimeseriesGranularity < st.cut {
		st.cut = s.TimeseriesGranularity
	}
	return st
}

func (st *status) start(now time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.t0, st.last = now, now
	if st.out.Status {
		st.print(now, measure.NewSnapshot(measure.Layout{}, now, now))
	}
}

// interval receives every interval the runner cuts.
func (st *status) interval(iv *measure.Snapshot) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, h := range st.hooks {
		h(iv)
	}
	st.ops += iv.Ops
	if st.pending == nil {
		st.pending = iv.Clone()
	} else if err := st.pending.Merge(iv); err != nil {
		st.pending = iv.Clone()
	}
	if !st.out.Status || iv.End.Sub(st.last) < st.every-st.cut/2 && st.ops != st.total {
		return
	}
	st.print(iv.End, st.pending)
	st.pending = nil
}

func (st *status) print(now time.Time, iv *measure.Snapshot) {
	remaining := int64(0)
	if st.total > 0 {
		remaining = st.total - st.ops
	}
	line := measure.StatusLine{
		Label: st.out.Label, Now: now, Elapsed: now.Sub(st.t0), Ops: st.ops, PrevOps: st.prevOps,
		Interval: now.Sub(st.last), Remaining: remaining, Type: measureType(*st.out),
	}
	measure.WriteStatus(st.w, line, iv)
	st.prevOps, st.last = st.ops, now
}
