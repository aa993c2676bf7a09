package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gobench/gobench/measure"
)

// lateAfter is how late an operation may start after its arrival before
// the open loop counts it as started late.
const lateAfter = time.Millisecond

// openStats is what one worker of an open loop saw of its measured
// operations; the worker owns it until it ends.
type openStats struct {
	started     int64
	late        int64         // started more than lateAfter after arrival
	wait        time.Duration // summed time arrivals waited for this worker
	first, last time.Duration // first arrival and last start
	lastAt      time.Duration // the arrival of the last start
	peak        int64         // longest queue a claim ended
	all         int64         // operations started, warm-up included
}

// openLoop runs one worker of an open loop: it claims the next arrival,
// waits for its time when it is early, and runs it with the arrival as the
// operation's intended start, until the arrivals or the run end.
func (r *Runner) openLoop(ctx context.Context, id int, task Task, m *Meter, slot *paddedCount, stop <-chan struct{}, st *openStats) {
	p := r.newPacer(id)
	defer p.close()
	prog := &progress{slot: slot, batch: 1}
	defer prog.flush()
	for !r.stopping.Load() {
		now := m.Now() - r.origin
		_, at, queue, ok := r.arr.take(now)
		if !ok {
			return
		}
		if at > now {
			if !r.sleep(m, p, at-now, stop) {
				return
			}
			now = m.Now() - r.origin
		}
		m.intended = r.origin + at
		if r.measured.Load() {
			if st.started == 0 {
				st.first = at
			}
			st.started++
			st.last, st.lastAt = now, at
			if late := now - at; late > lateAfter {
				st.late++
			}
			if queue > 0 {
				st.wait += now - at
				st.peak = max(st.peak, queue)
			}
		}
		st.all++
		if !r.step(ctx, task, m, prog) {
			return
		}
	}
}

// OpenLoopStats is what an open loop measured besides latencies: the
// arrival rate offered and achieved, the queue of arrivals waiting for a
// free worker, and how many operations started late. Only operations after
// the warm-up count.
type OpenLoopStats struct {
	Arrival string  // constant or poisson
	Offered float64 // arrivals per second (the target)
	Threads int     // the most operations in flight
	// Achieved is the rate at which measured operations started: (started
	// - 1) / (last start - first arrival, or the end of the warm-up if
	// later); Offered when every arrival starts on time (for Poisson
	// arrivals, the seed's sample of it: a few per cent off over a short
	// run), below it when the workers could not keep up.
	Achieved float64
	Started  int64 // measured operations started
	// PeakQueue is the most arrivals that were due and not started at
	// once; MeanQueue the time average of that number over the measured
	// window (Little's law: the arrivals' summed waits over the window,
	// arrivals still waiting at the end included).
	PeakQueue int64
	MeanQueue float64
	// Late counts operations that started more than 1 ms after their
	// arrival (queued, or woken late by the scheduler).
	Late int64
	// Unstarted counts arrivals that were due before the run ended (time
	// limit, interruption) but never started.
	Unstarted int64
	// arrived is the rate at which the started arrivals came over the same
	// window as Achieved: Offered for constant arrivals, this seed's sample
	// of it for Poisson ones (a few per cent off over a short run); 0 when
	// it is not known (every measured start was an arrival of the warm-up).
	arrived float64
}

// Short reports whether the achieved rate fell short by more than 1 % of
// the rate at which the arrivals came (the offered rate, or for Poisson
// arrivals the seed's sample of it), or arrivals were left unstarted.
func (s *OpenLoopStats) Short() bool {
	if s.Unstarted > 0 {
		return true
	}
	rate := s.Offered
	if s.arrived > 0 {
		rate = s.arrived
	}
	return s.Achieved < 0.99*rate
}

// Lines are the report lines of the open loop, for the report's extra
// [OVERALL] lines (measure.LineOptions.Extra).
func (s *OpenLoopStats) Lines() []measure.Line {
	return []measure.Line{
		{Metric: "OVERALL", Measurement: "Arrival", Value: measure.Text(s.Arrival)},
		{Metric: "OVERALL", Measurement: "OfferedRate(ops/sec)", Value: measure.Float(s.Offered)},
		{Metric: "OVERALL", Measurement: "AchievedRate(ops/sec)", Value: measure.Float(s.Achieved)},
		{Metric: "OVERALL", Measurement: "PeakQueueLength", Value: measure.Int(s.PeakQueue)},
		{Metric: "OVERALL", Measurement: "MeanQueueLength", Value: measure.Float(s.MeanQueue)},
		{Metric: "OVERALL", Measurement: "StartedLate(>1ms)", Value: measure.Int(s.Late)},
		{Metric: "OVERALL", Measurement: "Unstarted", Value: measure.Int(s.Unstarted)},
	}
}

// Record is s as the result document holds it.
func (s *OpenLoopStats) Record() *measure.OpenLoopRecord {
	return &measure.OpenLoopRecord{Arrival: s.Arrival, Offered: s.Offered, Achieved: s.Achieved, Started: s.Started,
		PeakQueue: s.PeakQueue, MeanQueue: s.MeanQueue, Late: s.Late, Unstarted: s.Unstarted}
}

// Warning says what a short open loop means, or "" when it was not short.
func (s *OpenLoopStats) Warning() string {
	if !s.Short() {
		return ""
	}
	return fmt.Sprintf("open loop: achieved %s ops/s of the %s offered (%.1f %%); the %d threads could not keep up, "+
		"so arrivals queued (peak %d, mean %s) and their latency counts from arrival; %d operations started more than 1 ms late",
		measure.FormatDecimal2(s.Achieved), measure.FormatDecimal2(s.Offered), 100*s.Achieved/s.Offered,
		s.Threads, s.PeakQueue, measure.FormatDecimal2(s.MeanQueue), s.Late)
}

// openResult sums the workers' stats at end (time since base) over the
// measured window, which began at measureFrom (time since base).
func (r *Runner) openResult(stats []openStats, end, measureFrom time.Duration, log io.Writer) *OpenLoopStats {
	res := &OpenLoopStats{Arrival: r.set.Arrival, Offered: r.set.Target, Threads: r.threads}
	var wait time.Duration
	first, last, lastAt := time.Duration(-1), time.Duration(0), time.Duration(0)
	for i := range stats {
		s := &stats[i]
		res.Started += s.started
		res.Late += s.late
		wait += s.wait
		res.PeakQueue = max(res.PeakQueue, s.peak)
		if s.started > 0 {
			if first < 0 || s.first < first {
				first = s.first
			}
			last, lastAt = max(last, s.last), max(lastAt, s.lastAt)
		}
	}
	// From the first measured arrival, or from the end of the warm-up when
	// that arrival had been waiting through it.
	from := max(first, measureFrom-r.origin)
	if res.Started >= 2 && last > from {
		res.Achieved = float64(res.Started-1) / (last - from).Seconds()
		if lastAt > from {
			res.arrived = float64(res.Started-1) / (lastAt - from).Seconds()
		}
	}
	n, w := r.arr.backlog(end - r.origin)
	res.Unstarted = n
	wait += w
	res.PeakQueue = max(res.PeakQueue, n)
	if window := end - max(measureFrom, r.origin); window > 0 {
		res.MeanQueue = float64(wait) / float64(window)
	}
	if msg := res.Warning(); msg != "" {
		fmt.Fprintf(log, "Warning: %s\n", msg)
	}
	return res
}
