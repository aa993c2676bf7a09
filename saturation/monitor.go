package saturation

import (
	"math"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// LiveWindow is the shortest window [Monitor.Interval] judges; shorter
// measurement intervals are added up until they span it.
const LiveWindow = 2 * time.Second

// A Monitor watches the process while a run goes. It starts no goroutine:
// it reads the process's counters when told that an interval ended and at
// the end, and judges the windows between readings with [Judge]. Its
// methods are safe for concurrent use.
type Monitor struct {
	target float64
	quota  float64 // cgroup CPU quota in CPUs; 0 = none

	mu      sync.Mutex
	rm      *runtimeMetrics
	waits   map[int]int64 // per thread, the last run-queue wait seen (ns)
	spare   map[int]int64
	waitSum time.Duration // since Start; -1 = unknown
	first   reading
	mark    reading       // start of the live window being added up
	ops     int64         // operations in it
	opsTime time.Duration // the measured time of those operations
}

// Start begins watching a run throttled to target ops/s (0 = unthrottled).
func Start(target float64) *Monitor {
	m := &Monitor{target: target, quota: cgroupQuota(), rm: newRuntimeMetrics()}
	if w, ok := threadWaits(nil); ok {
		m.waits = w
	} else {
		m.waitSum = -1
	}
	m.first = m.read()
	m.mark = m.first
	return m
}

// Interval adds a measurement interval of ops operations over d. When the
// window since the last judgement spans LiveWindow, it judges that window
// and returns the verdict and true; otherwise false.
func (m *Monitor) Interval(ops int64, d time.Duration) (Verdict, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ops += ops
	m.opsTime += d
	now := time.Now()
	if now.Sub(m.mark.at) < LiveWindow {
		return Verdict{}, false
	}
	r := m.read()
	s := m.signals(m.mark, r, m.ops, m.opsTime)
	m.mark, m.ops, m.opsTime = r, 0, 0
	return Judge(s), true
}

// Finish judges the whole run since Start: ops operations in runTime.
func (m *Monitor) Finish(ops int64, runTime time.Duration) Verdict {
	return Judge(m.Signals(ops, runTime))
}

// Signals returns the signals of the whole run since Start (ops
// operations in runTime), for callers that judge or record them.
func (m *Monitor) Signals(ops int64, runTime time.Duration) Signals {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.signals(m.first, m.read(), ops, runTime)
}

// signals derives the window a..b. Callers hold m.mu.
func (m *Monitor) signals(a, b reading, ops int64, d time.Duration) Signals {
	s := Signals{Wall: b.at.Sub(a.at), CPU: -1, Wait: -1, Procs: b.procs, Target: m.target, SchedP50: -1}
	s.CPUs, s.Limit = allowance(b.procs, runtime.NumCPU(), m.quota)
	if a.cpu >= 0 && b.cpu >= 0 {
		s.CPU = b.cpu - a.cpu
	}
	if a.wait >= 0 && b.wait >= 0 {
		s.Wait = b.wait - a.wait
	}
	s.Wakeups, s.SlowWakeups, s.SchedP50 = schedBetween(a.sched, b.sched, m.rm.buckets, SlowWakeup)
	if of := b.cpuTotal - a.cpuTotal; of > 0 {
		s.GCOf = seconds(of)
		s.GC = seconds(max((b.gcTotal-b.gcIdle)-(a.gcTotal-a.gcIdle), 0))
	}
	if d > 0 {
		s.Achieved = float64(ops) / d.Seconds()
	}
	return s
}

// allowance is the CPUs the process may use and what sets that number.
func allowance(procs, ncpu int, quota float64) (float64, string) {
	n, why := float64(procs), "GOMAXPROCS="+strconv.Itoa(procs)
	if procs <= 0 {
		n, why = math.Inf(1), ""
	}
	if c := float64(ncpu); ncpu > 0 && c < n {
		n, why = c, LimitCPUs
	}
	if quota > 0 && quota < n {
		n, why = quota, LimitQuota
	}
	if math.IsInf(n, 1) {
		return 0, ""
	}
	return n, why
}

// read takes a reading. Callers hold m.mu (or own m).
func (m *Monitor) read() reading {
	r := reading{at: time.Now(), cpu: processCPU(), wait: -1}
	if m.waitSum >= 0 {
		if w, ok := threadWaits(m.spare); ok {
			for tid, v := range w {
				// A thread not seen before waited all of v since the
				// last reading; threads that exited are left out.
				if old := m.waits[tid]; v >= old {
					m.waitSum += time.Duration(v - old)
				} else {
					m.waitSum += time.Duration(v) // a new thread reusing an old id
				}
			}
			m.spare, m.waits = m.waits, w
			r.wait = m.waitSum
		} else {
			m.waitSum = -1
		}
	}
	m.rm.read(&r)
	return r
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
