package engine

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestFineTimerEndsOnTime: a fine timer never ends a wait early, and it ends
// short waits well inside the millisecond by which the Go timer alone ends
// them late on an idle process (Go's poller rounds every wait below 1 ms up
// to 1 ms). The least lateness of 30 waits is taken, so a loaded machine's
// occasional late wake-up does not decide the test.
func TestFineTimerEndsOnTime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fine timer is a timerfd: Linux only")
	}
	ft, err := newFineTimer()
	if err != nil {
		t.Fatal(err)
	}
	defer ft.close()
	const d = 200 * time.Microsecond
	least := time.Hour
	for i := 0; i < 30; i++ {
		start := time.Now()
		if err := ft.wait(d); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		if took < d {
			t.Fatalf("wait(%v) returned after %v: early", d, took)
		}
		least = min(least, took-d)
	}
	if least > 500*time.Microsecond {
		t.Errorf("the fine timer's least lateness over 30 waits of %v is %v; want under 500us", d, least)
	}
}

func TestFineTimerWaitDoesNotAllocate(t *testing.T) {
	if runtime.GOOS != "linux" || raceEnabled {
		t.Skip("needs the timerfd (Linux) and no race detector (it allocates)")
	}
	ft, err := newFineTimer()
	if err != nil {
		t.Fatal(err)
	}
	defer ft.close()
	if a := testing.AllocsPerRun(100, func() {
		if err := ft.wait(10 * time.Microsecond); err != nil {
			t.Fatal(err)
		}
	}); a > 0 {
		t.Errorf("fineTimer.wait allocates %.1f times, want 0", a)
	}
}

// TestPacedStartsOnTime: a paced run of a no-op operation (1 thread, 2 000
// ops/s) starts its operations close to their intended times: the median
// intended-start latency stays far below the half millisecond the Go timer
// alone gave (0.55-0.6 ms at 1 000 ops/s on an idle process, with the Go
// timer's 1 ms rounding), and the run warns about no missing fine timer.
func TestPacedStartsOnTime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fine timer is a timerfd: Linux only")
	}
	set := DefaultSettings()
	set.Ops, set.Threads, set.Target, set.MeasurementInterval = 400, 1, 2000, "both"
	res, log := runLogged(t, set, &countJob{})
	p50 := res.Percentile("Intended-OP", 50)
	if p50 < 0 || p50 > 300 {
		t.Errorf("median intended-start latency of a no-op at 2000 ops/s: %d us; want under 300", p50)
	}
	if strings.Contains(log, "fine timer") {
		t.Errorf("the run warned: %s", log)
	}
}

// TestStopEndsPacedSleep: a stop during a pacing sleep ends it at once,
// not at the sleep's end: a sleep of an hour, stopped after 50 ms, and a
// sleep begun after the stop, by a pacer made after it.
func TestStopEndsPacedSleep(t *testing.T) {
	r := &Runner{opts: options{log: io.Discard}}
	p := r.newPacer(0)
	defer p.close()
	if runtime.GOOS == "linux" && p.fine == nil {
		t.Fatal("no fine timer on Linux")
	}
	stop := make(chan struct{})
	done := make(chan bool)
	go func() { done <- r.sleep(&Meter{}, p, time.Hour, stop) }()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	r.stopping.Store(true)
	close(stop)
	r.fine.stop()
	select {
	case goOn := <-done:
		if goOn {
			t.Error("a stopped sleep says the worker should go on")
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("a stopped sleep ended %v after the stop", took)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a sleep of an hour did not end 10 s after the stop")
	}
	late := r.newPacer(1)
	defer late.close()
	start = time.Now()
	if r.sleep(&Meter{}, late, time.Hour, stop) {
		t.Error("a sleep begun after the stop says the worker should go on")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a sleep begun after the stop took %v", took)
	}
}

// TestStopEndsPacedRun: a run paced at 1 op/s, of 20 threads (each a
// sleep of up to 20 s between operations) and a time limit of 300 ms, ends
// soon after the limit.
func TestStopEndsPacedRun(t *testing.T) {
	set := DefaultSettings()
	set.Ops, set.Threads, set.Target = 100, 20, 1
	set.MaxExecutionTime = 300 * time.Millisecond
	start := time.Now()
	runLogged(t, set, &countJob{})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a run of 300ms time limit paced at 1 op/s took %v", took)
	}
}
