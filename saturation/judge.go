package saturation

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Thresholds of [Judge]; doc.go says why they are what they are.
const (
	// MinWindow: shorter windows are not judged (the start of a run is
	// most of them).
	MinWindow = 10 * time.Millisecond
	// BusyShare: process CPU, or CPU plus run-queue wait, at or above this
	// share of the CPUs the process may use means it wanted them all.
	BusyShare = 0.85
	// SlowWakeup and SlowShare: when at least SlowShare of the goroutine
	// wake-ups waited SlowWakeup or longer for a CPU, the client delays
	// its own operations.
	SlowWakeup = 5 * time.Millisecond
	SlowShare  = 0.25
	// MinWakeups: fewer sampled wake-ups than this give no scheduler verdict.
	MinWakeups = 25
	// GCShare: a garbage collector taking at least this share of the CPUs
	// the Go scheduler may use leaves the workload too little.
	GCShare = 0.25
	// TargetShort: a throttled run that did less than this share of its
	// -target fell behind.
	TargetShort = 0.9
	// HalfBusy: a run behind its -target counts as client-bound, and the
	// GC share is judged, only when the process was ready to run at least
	// this share of its CPUs; below it the client had CPU to spare.
	HalfBusy = 0.5
)

// Limit names for [Signals].Limit other than "GOMAXPROCS=n".
const (
	LimitQuota = "cgroup CPU quota"
	LimitCPUs  = "CPUs on this machine or in its affinity mask"
)

// Signals are what the decision looks at over one window: only signals that
// mean CPU contention. Negative durations are unknown.
type Signals struct {
	Wall time.Duration // length of the window

	// CPUs the process may use: the least of GOMAXPROCS, the CPUs in its
	// affinity mask and its cgroup CPU quota. Limit says which, e.g.
	// "GOMAXPROCS=1" or "cgroup CPU quota".
	CPUs  float64
	Limit string

	CPU  time.Duration // process CPU time (user + system) in the window
	Wait time.Duration // time its threads were runnable but waited for a CPU (Linux schedstat)

	// Goroutine wake-ups (the runtime samples one transition in eight) in
	// the window, and how many of them waited SlowWakeup or longer between
	// becoming runnable and running (/sched/latencies:seconds). P50 is
	// their median, for the message.
	Wakeups, SlowWakeups uint64
	SchedP50             time.Duration

	// GC is the garbage collector's compulsory CPU time (idle-priority
	// marking excluded) out of GCOf, the CPU time GOMAXPROCS allowed, both
	// from /cpu/classes, which the runtime updates at the end of each GC:
	// they span the GCs that ended before the window's edges, so GCOf is 0
	// when none ended in it. Spans shorter than half the window, where
	// one GC cycle is most of the span, are not judged.
	GC, GCOf time.Duration
	Procs    int // GOMAXPROCS

	Target   float64 // -target ops/s; 0 = unthrottled
	Achieved float64 // ops/s done in the window
}

// A Finding is one signal that crossed its threshold.
type Finding struct {
	Signal    string  // "cpu", "cpu+wait", "scheduler", "gc" or "target"
	Value     float64 // the measured share (0..1+) or, for "target", the achieved ops/s
	Threshold float64 // the share or rate it crossed
	Saturated bool    // it says the client limited the run (else it is a note)
	Text      string  // a sentence naming the signal and its value
}

// A Verdict is the decision over one window.
type Verdict struct {
	Saturated bool // the client itself may be what limited the run
	Findings  []Finding
}

// String is the saturation warning ("" when not saturated): its findings
// that say so, then any notes.
func (v Verdict) String() string {
	if !v.Saturated {
		return ""
	}
	return "the client itself may be the bottleneck: " + v.join()
}

// Warnings is every warning of v: the saturation warning, or, when not
// saturated, the notes (e.g. a -target missed with CPU to spare).
func (v Verdict) Warnings() []string {
	if v.Saturated {
		return []string{v.String()}
	}
	if len(v.Findings) == 0 {
		return nil
	}
	return []string{v.join()}
}

func (v Verdict) join() string {
	var s []string
	for _, f := range v.Findings {
		if f.Saturated {
			s = append(s, f.Text)
		}
	}
	for _, f := range v.Findings {
		if !f.Saturated {
			s = append(s, f.Text)
		}
	}
	return strings.Join(s, "; ")
}

// Judge is the pure decision. The client may be the bottleneck when, over
// the window:
//   - its process used at least BusyShare of the CPUs it may use ("cpu");
//   - or its CPU time plus the time its threads waited on a run queue reach
//     BusyShare of them: it wanted them all and other processes had part
//     ("cpu+wait");
//   - or at least SlowShare of its goroutine wake-ups waited SlowWakeup or
//     more for a CPU ("scheduler");
//   - or its garbage collector took GCShare of the CPUs GOMAXPROCS allows,
//     over a span of at least half the window, while the process was
//     ready to run HalfBusy of its CPUs ("gc");
//   - or it fell below TargetShort of its -target while ready to run at
//     least HalfBusy of its CPUs ("target"). Behind its -target with CPU
//     to spare, the verdict carries a note but is not saturated: threads or
//     the server set the pace.
//
// Windows shorter than MinWindow, or without a CPU count, are not judged.
func Judge(s Signals) Verdict {
	var v Verdict
	if s.Wall < MinWindow || s.CPUs <= 0 {
		return v
	}
	add := func(sig string, val, thr float64, sat bool, format string, args ...any) {
		v.Findings = append(v.Findings, Finding{Signal: sig, Value: val, Threshold: thr, Saturated: sat, Text: fmt.Sprintf(format, args...)})
		v.Saturated = v.Saturated || sat
	}
	avail := s.Wall.Seconds() * s.CPUs
	of := "of the " + cpus(s.CPUs) + " it may use"
	if s.Limit != "" {
		of += " (" + s.Limit + ")"
	}
	cpu, wait := -1.0, 0.0
	if s.CPU >= 0 {
		cpu = s.CPU.Seconds() / avail
	}
	if s.Wait > 0 {
		wait = s.Wait.Seconds() / avail
	}
	demand := max(cpu, 0) + wait
	switch {
	case cpu >= BusyShare:
		add("cpu", cpu, BusyShare, true, "process CPU %s %s", pct(cpu), of)
	case cpu >= 0 && demand >= BusyShare:
		who := "other processes on this machine had them"
		if s.Limit == LimitQuota {
			who = "the quota or other processes held them back"
		}
		add("cpu+wait", demand, BusyShare, true, "ready to run %s %s: it ran %s and its threads waited for a CPU %s (%s)", pct(demand), of, pct(cpu), pct(wait), who)
	}
	if s.Wakeups >= MinWakeups {
		if sh := float64(s.SlowWakeups) / float64(s.Wakeups); sh >= SlowShare {
			add("scheduler", sh, SlowShare, true, "%s of goroutine wake-ups waited %v or more for a CPU (median %v; Go scheduler latency)", pct(sh), SlowWakeup, roundDur(s.SchedP50))
		}
	}
	if s.Procs > 0 && s.GCOf.Seconds() >= 0.5*s.Wall.Seconds()*float64(s.Procs) {
		// The runtime counts GC time on the Ps it holds, so a collector
		// whose threads the OS keeps waiting looks busy in a process that
		// is not: judged only when the process was busy itself.
		if sh := s.GC.Seconds() / s.GCOf.Seconds(); sh >= GCShare && (s.CPU < 0 || demand >= HalfBusy) {
			add("gc", sh, GCShare, true, "the garbage collector took %s of the %s GOMAXPROCS=%d allows (raise GOGC or GOMEMLIMIT)", pct(sh), cpus(float64(s.Procs)), s.Procs)
		}
	}
	if s.Target > 0 && s.Achieved < TargetShort*s.Target {
		if cpu >= 0 && demand < HalfBusy {
			add("target", s.Achieved, s.Target, false, "-target %.0f ops/s not reached (%.0f ops/s) while the client was ready to run only %s %s: too few threads or a slow server, not the client's CPU", s.Target, s.Achieved, pct(demand), of)
		} else {
			add("target", s.Achieved, s.Target, true, "-target %.0f ops/s not reached (%.0f ops/s)", s.Target, s.Achieved)
		}
	}
	return v
}

// roundDur rounds d for a message: to 1 µs below 1 ms, else to 100 µs.
func roundDur(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Microsecond)
}

// pct renders a share as a whole percentage.
func pct(f float64) string { return strconv.FormatFloat(100*f, 'f', 0, 64) + "%" }

// cpus renders a CPU count: "1 CPU", "2 CPUs", "1.5 CPUs".
func cpus(n float64) string {
	s := strconv.FormatFloat(n, 'f', -1, 64)
	if n == 1 {
		return s + " CPU"
	}
	return s + " CPUs"
}
