package engine

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestTSC returns a freshly calibrated counter clock where gobench
// would use one (tscSupported: the kernel itself keeps time with an
// invariant counter), and skips elsewhere, where the counter may differ
// between CPUs and the clock is never chosen (TestClockSettings checks
// that the system clock is, there).
func newTestTSC(t *testing.T) *tscClock {
	t.Helper()
	if err := tscSupported(); err != nil {
		if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
			t.Logf("the counter clock is not used here: %v", err)
		}
		t.Skipf("no counter clock on this machine: %v", err)
	}
	c, err := newTSCClock()
	if err != nil {
		t.Fatalf("newTSCClock on a machine whose kernel keeps time with the counter: %v", err)
	}
	return c
}

// bracket reads nanotime, c.now and nanotime again, and reports by how
// much c.now fell outside the two nanotime readings (0 inside), and
// whether the bracket was narrow enough (no preemption between the
// reads) to judge.
func bracket(c *tscClock) (off time.Duration, ok bool) {
	n1 := nanotime()
	x := c.now()
	n2 := nanotime()
	if n2-n1 > int64(20*time.Microsecond) {
		return 0, false
	}
	switch {
	case x < n1:
		return time.Duration(n1 - x), true
	case x > n2:
		return time.Duration(x - n2), true
	}
	return 0, true
}

// TestTSCClockFollowsNanotime: the counter clock reads what nanotime reads
// (within 1 us) over 60 ms of reads and sleeps, across re-anchors.
func TestTSCClockFollowsNanotime(t *testing.T) {
	c := newTestTSC(t)
	start := c.seq.Load()
	judged := 0
	for end := time.Now().Add(60 * time.Millisecond); time.Now().Before(end); {
		for range 1000 {
			if off, ok := bracket(c); ok {
				judged++
				if off > time.Microsecond {
					t.Fatalf("counter clock %v outside nanotime's readings around it", off)
				}
			}
		}
		time.Sleep(500 * time.Microsecond)
	}
	if judged < 1000 {
		t.Fatalf("only %d readings could be judged", judged)
	}
	if n := c.seq.Load() - start; n < 10 {
		t.Errorf("%d re-anchors in 60 ms of reads, want one every %v", n, tscAnchorFor)
	}
}

// TestTSCClockCorrectsItsRate: a clock whose rate is 1 % off strays from
// nanotime by at most an anchor's 2 ms times 1 %, and measures its rate
// again once its baseline is a second old.
func TestTSCClockCorrectsItsRate(t *testing.T) {
	c := newTestTSC(t)
	good := c.slots[0].mult.Load()
	c.slots[0].mult.Store(good + good/100)
	bound := tscAnchorFor/100 + time.Microsecond
	var worst time.Duration
	for end := time.Now().Add(tscRateEvery + 200*time.Millisecond); time.Now().Before(end); {
		for range 100 {
			if off, ok := bracket(c); ok {
				worst = max(worst, off)
			}
		}
		time.Sleep(200 * time.Microsecond)
	}
	if worst > bound {
		t.Errorf("a clock 1 %% fast strayed %v from nanotime, want at most %v", worst, bound)
	}
	got := c.slots[c.seq.Load()&1].mult.Load()
	if rel := float64(int64(got-good)) / float64(good); rel > 1e-3 || rel < -1e-3 {
		t.Fatalf("rate after a second: %d, calibrated %d (%.4f %% apart), want it measured again", got, good, 100*rel)
	}
	// Now within an anchor's own uncertainty (at most half of
	// tscMaxSpread) and a few nanoseconds of rate.
	for range 10_000 {
		if off, ok := bracket(c); ok && off > tscMaxSpread/2+100*time.Nanosecond {
			t.Fatalf("after the rate's correction the clock is %v outside nanotime's readings", off)
		}
	}
}

// TestTSCClockConcurrentReaders: goroutines read while anchors change
// every few hundred ticks (the race detector watches the seqlock), and
// each reading lies between the nanotime readings around it.
func TestTSCClockConcurrentReaders(t *testing.T) {
	c := newTestTSC(t)
	c.limit = 500
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50_000 {
				if off, ok := bracket(c); ok && off > time.Microsecond {
					errs <- "reading " + off.String() + " outside nanotime's readings"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if c.seq.Load() < 100 {
		t.Errorf("only %d re-anchors with an anchor of 500 ticks", c.seq.Load())
	}
}

// TestTSCClockNeverTrustsABackwardCount: ticks behind the anchor (a CPU
// whose counter lags) give nanotime's reading, not a time far ahead.
func TestTSCClockNeverTrustsABackwardCount(t *testing.T) {
	c := newTestTSC(t)
	s := c.seq.Load()
	c.slots[s&1].ticks.Store(ticks() + 1<<40) // the anchor "in the future"
	if off, ok := bracket(c); ok && off > time.Microsecond {
		t.Fatalf("reading %v off with the counter behind its anchor", off)
	}
	if c.seq.Load() == s {
		t.Error("a count behind the anchor did not re-anchor")
	}
}

// TestTSCClockSkipsADisturbedPair: while no pair of readings is close
// enough to anchor on, reads past the anchor's 2 ms return nanotime's own
// reading and publish nothing.
func TestTSCClockSkipsADisturbedPair(t *testing.T) {
	c := newTestTSC(t)
	c.maxSpread = 0 // no pair qualifies
	s := c.seq.Load()
	c.slots[s&1].ticks.Store(ticks() - 2*c.limit) // the anchor has served its time
	for range 1000 {
		if off, ok := bracket(c); ok && off > 0 {
			t.Fatalf("reading %v outside nanotime's readings, with no anchor to use", off)
		}
	}
	if c.seq.Load() != s {
		t.Error("an anchor was published from a pair wider than maxSpread")
	}
	if c.busy.Load() {
		t.Error("a rejected pair left the re-anchor claimed")
	}
}

func TestClockSettings(t *testing.T) {
	_, tscErr := systemTSC()
	for _, tc := range []struct {
		clock, want, inUse string
	}{
		{"", "", ClockTSC},
		{ClockAuto, "", ClockTSC},
		{ClockSystem, "", ClockSystem},
		{ClockTSC, "", ClockTSC},
		{"hpet", "gobench.clock", ""},
	} {
		s := DefaultSettings()
		s.Clock = tc.clock
		err := s.Validate()
		want, inUse := tc.want, tc.inUse
		if tscErr != nil && inUse == ClockTSC {
			inUse = ClockSystem
			if tc.clock == ClockTSC {
				want = "no time-stamp counter clock"
			}
		}
		switch {
		case want == "" && err != nil:
			t.Errorf("gobench.clock=%q: %v", tc.clock, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("gobench.clock=%q: error %v, want one naming %q", tc.clock, err, want)
		}
		if inUse != "" && s.ClockInUse() != inUse {
			t.Errorf("gobench.clock=%q reads %s, want %s", tc.clock, s.ClockInUse(), inUse)
		}
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && tscErr != nil {
		t.Logf("this machine has no counter clock: %v", tscErr)
	}
}

func BenchmarkMeterNowTSC(b *testing.B) {
	c, err := systemTSC()
	if err != nil {
		b.Skip(err)
	}
	m := &Meter{base: nanotime(), tsc: c}
	var s time.Duration
	for b.Loop() {
		s += m.Now()
	}
	_ = s
}
