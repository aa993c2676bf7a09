package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobench/gobench/measure"
)

// Saturation thresholds: above them the client itself may be what limits
// the run, so its figures understate the system under test.
const (
	satCPU       = 0.85                  // process CPU / (wall × GOMAXPROCS)
	satRunnable  = 2.0                   // mean goroutines waiting for a CPU, per GOMAXPROCS
	satSchedP99  = 25 * time.Millisecond // p99 time from runnable to running
	satTarget    = 0.9                   // achieved / -target
	satMinWindow = 500 * time.Millisecond
)

// satSample is what the saturation check looks at over one window.
type satSample struct {
	Wall     time.Duration // length of the window
	CPU      time.Duration // process CPU (user + system) in the window; -1 = unknown
	Procs    int           // GOMAXPROCS: the cores the Go scheduler may use
	Runnable float64       // mean goroutines runnable but not running
	SchedP99 time.Duration // p99 scheduler latency in the window; -1 = unknown
	Target   float64       // -target ops/s over all threads; 0 = unthrottled
	Achieved float64       // ops/s done in the window
}

// satVerdict says whether the client may be the bottleneck, and why.
type satVerdict struct {
	Saturated bool
	Reasons   []string
}

// String is the warning text ("" when not saturated).
func (v satVerdict) String() string {
	if !v.Saturated {
		return ""
	}
	return "the client itself may be the bottleneck: " + strings.Join(v.Reasons, "; ")
}

// judgeSaturation is the pure decision: the client may be the bottleneck
// when its process uses nearly all the cores it may use, when goroutines
// queue for a CPU (on average at least two per GOMAXPROCS, or a scheduler
// latency p99 of 25 ms or more; a machine shared with other busy processes
// reaches a few ms and about one runnable goroutine per P on a throttled
// run), or when a -target rate is missed by more
// than 10 %. Windows shorter than 500 ms are not judged.
func judgeSaturation(s satSample) satVerdict {
	var v satVerdict
	if s.Wall < satMinWindow || s.Procs < 1 {
		return v
	}
	add := func(format string, args ...any) {
		v.Saturated = true
		v.Reasons = append(v.Reasons, fmt.Sprintf(format, args...))
	}
	cpu := -1.0
	if s.CPU >= 0 {
		cpu = s.CPU.Seconds() / (s.Wall.Seconds() * float64(s.Procs))
	}
	if cpu >= satCPU {
		add("process CPU at %.0f%% of the %d core(s) it may use (GOMAXPROCS=%d)", 100*cpu, s.Procs, s.Procs)
	}
	if s.Runnable >= satRunnable*float64(s.Procs) {
		add("on average %.1f goroutines waited for a CPU (GOMAXPROCS=%d)", s.Runnable, s.Procs)
	}
	if s.SchedP99 >= satSchedP99 {
		add("Go scheduler latency p99 %v", s.SchedP99.Round(100*time.Microsecond))
	}
	if s.Target > 0 && s.Achieved < satTarget*s.Target {
		add("-target %.0f ops/s not reached (%.0f ops/s): too few threads, too little CPU, or a slow server", s.Target, s.Achieved)
	}
	return v
}

// satPoint is a reading of the process's counters.
type satPoint struct {
	at    time.Time
	cpu   time.Duration // -1 = unknown
	sched metrics.Float64Histogram
}

// saturationMonitor watches the client while a run goes: process CPU
// (/proc/self/stat), runnable goroutines (sampled every 100 ms) and the
// scheduler latency histogram (runtime/metrics). Feed Interval from the
// interval hook and call Finish once at the end. Safe for concurrent use.
type saturationMonitor struct {
	target float64
	procs  int

	mu       sync.Mutex
	first    satPoint
	last     satPoint
	runSum   [2]float64 // runnable samples: sum since start, since last interval
	runN     [2]int
	warned   bool
	stop     chan struct{}
	stopped  chan struct{}
	haltOnce sync.Once
}

// halt stops the sampling goroutine; it may be called more than once.
func (m *saturationMonitor) halt() {
	m.haltOnce.Do(func() {
		close(m.stop)
		<-m.stopped
	})
}

// newSaturationMonitor starts watching; target is the run's -target rate
// (0 = unthrottled).
func newSaturationMonitor(target float64) *saturationMonitor {
	m := &saturationMonitor{target: target, procs: runtime.GOMAXPROCS(0), stop: make(chan struct{}), stopped: make(chan struct{})}
	m.first = readSatPoint()
	m.last = m.first
	go m.sample()
	return m
}

func (m *saturationMonitor) sample() {
	defer close(m.stopped)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	s := []metrics.Sample{{Name: "/sched/goroutines/runnable:goroutines"}}
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			return // metric unknown to this Go version
		}
		n := float64(s[0].Value.Uint64())
		m.mu.Lock()
		for i := range m.runSum {
			m.runSum[i] += n
			m.runN[i]++
		}
		m.mu.Unlock()
	}
}

// Interval judges the window since the previous call (or the start) and
// returns the warning to print the first time the client looks saturated,
// "" otherwise.
func (m *saturationMonitor) Interval(iv *measure.Snapshot) string {
	p := readSatPoint()
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sampleBetween(m.last, p, 1)
	if d := iv.End.Sub(iv.Start); d > 0 {
		s.Achieved = float64(iv.Ops) / d.Seconds()
	}
	m.last = p
	m.runSum[1], m.runN[1] = 0, 0
	v := judgeSaturation(s)
	if !v.Saturated || m.warned {
		return ""
	}
	m.warned = true
	return v.String()
}

// Finish stops the monitor and judges the whole run: ops operations in
// runTime.
func (m *saturationMonitor) Finish(ops int64, runTime time.Duration) satVerdict {
	m.halt()
	p := readSatPoint()
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sampleBetween(m.first, p, 0)
	if runTime > 0 {
		s.Achieved = float64(ops) / runTime.Seconds()
	}
	return judgeSaturation(s)
}

// sampleBetween builds the sample of the window a..b with runnable samples
// from accumulator k. Callers hold m.mu.
func (m *saturationMonitor) sampleBetween(a, b satPoint, k int) satSample {
	s := satSample{Wall: b.at.Sub(a.at), CPU: -1, Procs: m.procs, Target: m.target, SchedP99: -1}
	if a.cpu >= 0 && b.cpu >= 0 {
		s.CPU = b.cpu - a.cpu
	}
	if m.runN[k] > 0 {
		s.Runnable = m.runSum[k] / float64(m.runN[k])
	}
	s.SchedP99 = histP99(a.sched, b.sched)
	return s
}

func readSatPoint() satPoint {
	p := satPoint{at: time.Now(), cpu: processCPU()}
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindFloat64Histogram {
		h := s[0].Value.Float64Histogram()
		p.sched = metrics.Float64Histogram{Counts: append([]uint64(nil), h.Counts...), Buckets: h.Buckets}
	}
	return p
}

// histP99 returns the p99 of the samples added between two readings of a
// cumulative runtime/metrics histogram (the bucket's upper bound), -1 when
// unknown or empty.
func histP99(a, b metrics.Float64Histogram) time.Duration {
	if len(a.Counts) != len(b.Counts) || len(b.Counts) == 0 {
		return -1
	}
	var total uint64
	for i := range b.Counts {
		total += b.Counts[i] - a.Counts[i]
	}
	if total == 0 {
		return -1
	}
	rank := uint64(math.Ceil(0.99 * float64(total)))
	var cum uint64
	for i := range b.Counts {
		cum += b.Counts[i] - a.Counts[i]
		if cum >= rank {
			ub := b.Buckets[i+1]
			if math.IsInf(ub, 1) {
				ub = b.Buckets[i]
			}
			return time.Duration(ub * float64(time.Second))
		}
	}
	return -1
}

// clockTicks is Linux's USER_HZ, the unit of /proc/self/stat's times.
const clockTicks = 100

// processCPU returns the user + system CPU time of this process from
// /proc/self/stat, -1 where that file does not exist.
func processCPU() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return -1
	}
	return parseProcStat(string(b))
}

// parseProcStat reads utime and stime (fields 14 and 15) of a
// /proc/<pid>/stat line; the command name (field 2) may hold spaces and
// parentheses, so fields are counted after its last ')'.
func parseProcStat(line string) time.Duration {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(line[i+1:])
	if len(f) < 13 {
		return -1
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(u+s) * time.Second / clockTicks
}

// observers are the watchers of one load or run besides the report: the
// saturation monitor and, with gobench.prometheus, the /metrics server.
// bench starts them before the run, appends Interval to the status hooks,
// and calls Finish then Close after it.
type observers struct {
	stderr io.Writer
	sat    *saturationMonitor
	prom   *promServer // nil without gobench.prometheus
}

// startObservers starts the saturation monitor for a run at target ops/s
// (0 = unthrottled) and, when promAddr is not empty, the Prometheus
// endpoint (an error names gobench.prometheus and the address).
func startObservers(target float64, promAddr string, stderr io.Writer) (*observers, error) {
	o := &observers{stderr: stderr}
	if promAddr != "" {
		p, err := startPrometheus(promAddr)
		if err != nil {
			return nil, err
		}
		o.prom = p
		fmt.Fprintf(stderr, "Serving Prometheus metrics on http://%s/metrics\n", p.Addr())
	}
	o.sat = newSaturationMonitor(target)
	return o, nil
}

// Interval feeds one measurement interval to the watchers and prints the
// saturation warning the first time the client looks saturated.
func (o *observers) Interval(iv *measure.Snapshot) {
	if o.prom != nil {
		o.prom.Hook(iv)
	}
	if w := o.sat.Interval(iv); w != "" {
		fmt.Fprintf(o.stderr, "Warning: %s\n", w)
		if o.prom != nil {
			o.prom.SetSaturated(true)
		}
	}
}

// Finish judges the whole run (ops operations in runTime), prints the
// warning if the client may have been the bottleneck, and returns the
// verdict for the result document.
func (o *observers) Finish(ops int64, runTime time.Duration) satVerdict {
	v := o.sat.Finish(ops, runTime)
	if v.Saturated {
		fmt.Fprintf(o.stderr, "Warning: over the whole run, %s\n", v)
	}
	if o.prom != nil {
		o.prom.SetSaturated(v.Saturated)
	}
	return v
}

// Close stops the monitor and the Prometheus endpoint; call it also when
// the run failed before Finish.
func (o *observers) Close() {
	o.sat.halt()
	if o.prom != nil {
		if err := o.prom.Stop(); err != nil {
			fmt.Fprintf(o.stderr, "Warning: gobench.prometheus: %v\n", err)
		}
	}
}
