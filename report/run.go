package report

import (
	"fmt"
	"time"

	"github.com/gobench/gobench/measure"
)

// Run is one run to draw: its total snapshot and its interval snapshots
// (oldest first; may be empty, which leaves out the plots over time).
type Run struct {
	// Name labels the run in legends and headings.
	Name      string
	Total     *measure.Snapshot
	Intervals []*measure.Snapshot
	// RunTime is the run's wall time (Throughput = Ops / RunTime).
	RunTime time.Duration
	// Throughput in ops/s; 0 means Total.Ops / RunTime.
	Throughput float64
	// Config is the run's effective configuration, shown in the page.
	Config map[string]string
	// Warnings are shown above the run's figures (saturation, overlap).
	Warnings []string
}

// RunFromResult decodes a result document into a Run called name.
func RunFromResult(name string, r *measure.Document) (Run, error) {
	total, err := r.Total()
	if err != nil {
		return Run{}, fmt.Errorf("run %q: %w", name, err)
	}
	ivs, err := r.IntervalSnapshots()
	if err != nil {
		return Run{}, fmt.Errorf("run %q: %w", name, err)
	}
	return Run{Name: name, Total: total, Intervals: ivs, RunTime: time.Duration(r.RunTimeMs) * time.Millisecond,
		Throughput: r.Throughput, Config: r.Config}, nil
}

// throughput returns the run's ops/s.
func (r *Run) throughput() float64 {
	if r.Throughput > 0 || r.RunTime <= 0 {
		return r.Throughput
	}
	return float64(r.Total.Ops) / r.RunTime.Seconds()
}

// operations lists the run's operation series with samples, in the
// report's order of first appearance.
func (r *Run) operations() []string {
	var out []string
	add := func(i int) {
		name := r.Total.Layout.Series[i]
		if IsOperation(name) && r.Total.Series[i].Count() > 0 {
			for _, o := range out {
				if o == name {
					return
				}
			}
			out = append(out, name)
		}
	}
	for _, i := range r.Total.Seen {
		add(i)
	}
	for i := range r.Total.Series {
		add(i)
	}
	return out
}

// SweepStep is one step of a thread sweep, or of a rate sweep (Target > 0:
// the step's -target, at the same Threads in every step).
type SweepStep struct {
	Threads    int
	Target     float64 // ops/s; 0 in a thread sweep
	Throughput float64 // ops/s
	Summary    Summary
	// ClientSaturated: the client itself may have limited this step, so
	// its figures understate the system under test.
	ClientSaturated bool
	// OpenLoop is what an open-loop step (gobench.arrival) measured
	// besides latencies; nil for a closed loop.
	OpenLoop *OpenLoopStep
}

// OpenLoopStep is an open-loop step's queueing: the rate its workers
// achieved against the one offered, the most arrivals waiting at once
// and the operations that started more than 1 ms after their arrival.
type OpenLoopStep struct {
	Offered, Achieved float64 // ops/s
	PeakQueue         int64
	Late              int64
}

// OpenLoopOf is the sweep step's view of a result document's open loop;
// nil for a closed loop.
func OpenLoopOf(r *measure.OpenLoopRecord) *OpenLoopStep {
	if r == nil {
		return nil
	}
	return &OpenLoopStep{Offered: r.Offered, Achieved: r.Achieved, PeakQueue: r.PeakQueue, Late: r.Late}
}

// Knee returns the index of the knee of a sweep: the first step after
// which throughput grows by less than 5 % while p99 latency grows; -1 when
// there is none (throughput keeps scaling, or fewer than two steps).
func Knee(steps []SweepStep) int {
	for i := 0; i+1 < len(steps); i++ {
		a, b := steps[i], steps[i+1]
		if b.Throughput < a.Throughput*1.05 && b.Summary.P99 > a.Summary.P99 {
			return i
		}
	}
	return -1
}
