package saturation

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

// spin burns this goroutine's CPU for d.
func spin(d time.Duration) (n int) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		for range 10000 {
			n++
		}
	}
	return n
}

// A goroutine spinning on one P is what a client at its allowance looks
// like; goroutines sleeping 1 ms in a loop are an idle one. The monitor
// reads real counters: process CPU, thread waits (Linux), scheduler
// latency.
func TestMonitor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))

	m := Start(0)
	spin(1200 * time.Millisecond)
	s := m.Signals(0, 0)
	v := Judge(s)
	t.Logf("spinning: %+v\n%s", s, v)
	if !v.Saturated || v.Findings[0].Signal != "cpu" && v.Findings[0].Signal != "cpu+wait" {
		t.Errorf("spinning on GOMAXPROCS=1: %+v; want saturated by cpu or cpu+wait", v)
	}
	if s.CPUs != 1 || s.Limit != "GOMAXPROCS=1" || s.Procs != 1 {
		t.Errorf("CPUs %v (%s), Procs %d; want 1 (GOMAXPROCS=1)", s.CPUs, s.Limit, s.Procs)
	}
	if _, err := os.Stat("/proc/self/task"); err == nil && s.Wait < 0 {
		t.Errorf("Wait unknown on a system with /proc/self/task")
	}

	m = Start(0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for end := time.Now().Add(1200 * time.Millisecond); time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
		})
	}
	wg.Wait()
	s = m.Signals(0, 0)
	v = Judge(s)
	t.Logf("sleeping: %+v\n%s", s, v)
	if v.Saturated || s.Wakeups < MinWakeups {
		t.Errorf("8 goroutines sleeping 1 ms: %+v, %d wake-ups; want not saturated, at least %d", v, s.Wakeups, MinWakeups)
	}
}

// Interval judges only once the window spans LiveWindow, then starts a
// new one; the rate it judges is the operations over the intervals' time.
func TestMonitorInterval(t *testing.T) {
	m := Start(1000)
	if _, judged := m.Interval(100, 100*time.Millisecond); judged {
		t.Fatal("judged a window shorter than LiveWindow")
	}
	time.Sleep(LiveWindow)
	v, judged := m.Interval(100, 100*time.Millisecond)
	if !judged {
		t.Fatal("not judged after LiveWindow")
	}
	// 200 ops in 200 ms is 1000 ops/s: the target is met.
	if len(v.Findings) != 0 {
		t.Errorf("verdict %+v; want none", v)
	}
	if _, judged := m.Interval(10, time.Second); judged {
		t.Error("judged again right after a judgement")
	}
}

// With GOGC=1 and a live heap of pointers to mark, goroutines that
// allocate on every P keep the collector running without pause: the
// verdict names the garbage collector.
func TestMonitorGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	type node struct {
		next *node
		pad  [6]*int
	}
	var live *node
	for range 200000 {
		live = &node{next: live}
	}
	m := Start(0)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var sink *node
			for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); {
				for range 1000 {
					sink = &node{next: sink}
					if sink.pad[0] != nil {
						sink = nil
					}
				}
				sink = nil
			}
		})
	}
	wg.Wait()
	runtime.KeepAlive(live)
	s := m.Signals(0, 0)
	v := Judge(s)
	t.Logf("%+v\n%s", s, v)
	var found bool
	for _, f := range v.Findings {
		found = found || f.Signal == "gc"
	}
	if !found {
		t.Errorf("GC %v of %v; verdict %q has no gc finding", s.GC, s.GCOf, v)
	}
}
