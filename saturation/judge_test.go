package saturation

import (
	"strings"
	"testing"
	"time"
)

func TestJudge(t *testing.T) {
	// An idle client on a 2-CPU allowance over 10 s: 6 % CPU, 7 % waiting
	// (a busy machine), 26 000 wake-ups almost all short, a GC now and then.
	base := Signals{Wall: 10 * time.Second, CPUs: 2, Limit: "GOMAXPROCS=2", Procs: 2,
		CPU: 1200 * time.Millisecond, Wait: 1400 * time.Millisecond,
		Wakeups: 26000, SlowWakeups: 10, SchedP50: 100 * time.Microsecond,
		GC: 100 * time.Millisecond, GCOf: 20 * time.Second}
	with := func(f func(*Signals)) Signals { s := base; f(&s); return s }
	cases := []struct {
		name   string
		s      Signals
		sat    bool
		signal string // the finding's signal; "" = no finding
		text   string // substring of the warnings
	}{
		{"idle client on a busy machine", base, false, "", ""},
		{"CPU at 90% of 2", with(func(s *Signals) { s.CPU = 18 * time.Second }), true, "cpu", "process CPU 90% of the 2 CPUs it may use (GOMAXPROCS=2)"},
		{"CPU at 80%", with(func(s *Signals) { s.CPU, s.Wait = 16*time.Second, 0 }), false, "", ""},
		{"CPU at 80% and waiting 7%", with(func(s *Signals) { s.CPU = 16 * time.Second }), true, "cpu+wait", "ready to run 87% of the 2 CPUs it may use (GOMAXPROCS=2): it ran 80% and its threads waited for a CPU 7%"},
		{"one core pinned", with(func(s *Signals) { s.CPUs, s.Limit, s.CPU = 1, "GOMAXPROCS=1", 9900*time.Millisecond }), true, "cpu", "99% of the 1 CPU it may use (GOMAXPROCS=1)"},
		{"cgroup quota", with(func(s *Signals) { s.CPUs, s.Limit, s.CPU = 1.5, "cgroup CPU quota", 14*time.Second }), true, "cpu", "93% of the 1.5 CPUs it may use (cgroup CPU quota)"},
		{"throttled by its quota", with(func(s *Signals) {
			s.CPUs, s.Limit, s.CPU, s.Wait = 1, "cgroup CPU quota", 7800*time.Millisecond, 13*time.Second
		}), true, "cpu+wait", "waited for a CPU 130% (the quota or other processes held them back)"},
		{"wake-ups waiting, median below a millisecond", with(func(s *Signals) { s.SlowWakeups, s.SchedP50 = 7000, 42*time.Microsecond }), true, "scheduler", "(median 42µs"},
		{"starved by a hog", with(func(s *Signals) { s.CPU, s.Wait = 3*time.Second, 18*time.Second }), true, "cpu+wait", "ready to run 105% of the 2 CPUs it may use (GOMAXPROCS=2): it ran 15% and its threads waited for a CPU 90%"},
		{"waiting a lot but not wanting much", with(func(s *Signals) { s.CPU, s.Wait = 1*time.Second, 10*time.Second }), false, "", ""},
		{"CPU unknown", with(func(s *Signals) { s.CPU, s.Wait = -1, 19*time.Second }), false, "", ""},
		{"wait unknown", with(func(s *Signals) { s.Wait = -1 }), false, "", ""},
		{"wake-ups waiting", with(func(s *Signals) { s.SlowWakeups, s.SchedP50 = 7000, 3*time.Millisecond }), true, "scheduler", "27% of goroutine wake-ups waited 5ms or more for a CPU (median 3ms"},
		{"a few slow wake-ups (another process starting)", with(func(s *Signals) { s.SlowWakeups = 2000 }), false, "", ""},
		{"too few wake-ups to judge", with(func(s *Signals) { s.Wakeups, s.SlowWakeups = 20, 20 }), false, "", ""},
		{"GC eats the CPUs", with(func(s *Signals) { s.GC, s.CPU, s.Wait = 6*time.Second, 12*time.Second, 0 }), true, "gc", "garbage collector took 30% of the 2 CPUs GOMAXPROCS=2 allows"},
		{"GC counted on Ps the OS kept waiting", with(func(s *Signals) { s.GC = 7400 * time.Millisecond }), false, "", ""},
		{"GC over a span of two close cycles", with(func(s *Signals) { s.GC, s.GCOf, s.CPU, s.Wait = 3*time.Second, 8*time.Second, 12*time.Second, 0 }), false, "", ""},
		{"no GC ended in the window", with(func(s *Signals) { s.GC, s.GCOf = 0, 0 }), false, "", ""},
		{"target met", with(func(s *Signals) { s.Target, s.Achieved = 1000, 995 }), false, "", ""},
		{"target missed with CPU to spare", with(func(s *Signals) { s.Target, s.Achieved = 1000, 700 }), false, "target", "-target 1000 ops/s not reached (700 ops/s) while the client was ready to run only 13%"},
		{"target missed, client busy", with(func(s *Signals) { s.Target, s.Achieved, s.CPU = 1000, 700, 12*time.Second }), true, "target", "-target 1000 ops/s not reached (700 ops/s)"},
		{"target missed, CPU unknown", with(func(s *Signals) { s.Target, s.Achieved, s.CPU = 1000, 700, -1 }), true, "target", "not reached"},
		{"short window", with(func(s *Signals) { s.Wall, s.CPU = 8*time.Millisecond, 16*time.Millisecond }), false, "", ""},
		{"short run at full speed", with(func(s *Signals) { s.Wall, s.CPU, s.Wait = 20*time.Millisecond, 39*time.Millisecond, 0 }), true, "cpu", "process CPU 98%"},
		{"no CPU count", with(func(s *Signals) { s.CPUs, s.CPU = 0, 20*time.Second }), false, "", ""},
	}
	for _, c := range cases {
		v := Judge(c.s)
		text := strings.Join(v.Warnings(), "|")
		var sigs []string
		for _, f := range v.Findings {
			sigs = append(sigs, f.Signal)
		}
		if v.Saturated != c.sat || (c.signal == "") != (len(sigs) == 0) || c.signal != "" && sigs[0] != c.signal || !strings.Contains(text, c.text) {
			t.Errorf("%s: Judge = saturated %v, signals %v, %q; want %v, %q, %q", c.name, v.Saturated, sigs, text, c.sat, c.signal, c.text)
		}
		if s := v.String(); (s != "") != c.sat || c.sat && !strings.HasPrefix(s, "the client itself may be the bottleneck: ") {
			t.Errorf("%s: String() = %q", c.name, s)
		}
	}
}

// Several findings: the saturating ones come first, then the notes; each
// records its value and threshold.
func TestJudgeFindings(t *testing.T) {
	s := Signals{Wall: 5 * time.Second, CPUs: 1, Limit: "GOMAXPROCS=1", Procs: 1, CPU: 4900 * time.Millisecond, Wait: 0,
		Wakeups: 100, SlowWakeups: 90, SchedP50: 67 * time.Millisecond, Target: 1e6, Achieved: 5e5}
	v := Judge(s)
	if len(v.Findings) != 3 {
		t.Fatalf("findings %+v; want cpu, scheduler, target", v.Findings)
	}
	want := []struct {
		sig      string
		val, thr float64
	}{{"cpu", 0.98, BusyShare}, {"scheduler", 0.9, SlowShare}, {"target", 5e5, 1e6}}
	for i, w := range want {
		f := v.Findings[i]
		if f.Signal != w.sig || !f.Saturated || f.Threshold != w.thr || f.Value < w.val-1e-9 || f.Value > w.val+1e-9 {
			t.Errorf("finding %d = %+v; want %s value %v threshold %v", i, f, w.sig, w.val, w.thr)
		}
	}
	if got := v.String(); got != "the client itself may be the bottleneck: process CPU 98% of the 1 CPU it may use (GOMAXPROCS=1); 90% of goroutine wake-ups waited 5ms or more for a CPU (median 67ms; Go scheduler latency); -target 1000000 ops/s not reached (500000 ops/s)" {
		t.Errorf("String() = %q", got)
	}
}

func TestAllowance(t *testing.T) {
	cases := []struct {
		procs, ncpu int
		quota       float64
		want        float64
		why         string
	}{
		{2, 2, 0, 2, "GOMAXPROCS=2"},
		{1, 2, 0, 1, "GOMAXPROCS=1"},
		{8, 4, 0, 4, "CPUs on this machine or in its affinity mask"},
		{2, 8, 1.5, 1.5, "cgroup CPU quota"},
		{2, 8, 4, 2, "GOMAXPROCS=2"},
		{0, 0, 0, 0, ""},
	}
	for _, c := range cases {
		if n, why := allowance(c.procs, c.ncpu, c.quota); n != c.want || why != c.why {
			t.Errorf("allowance(%d, %d, %v) = %v, %q; want %v, %q", c.procs, c.ncpu, c.quota, n, why, c.want, c.why)
		}
	}
}
