package measure

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

var testLayout = Layout{
	Series: []string{"READ", "UPDATE", "READ-FAILED", "CLEANUP", "Intended-READ"},
	Codes:  []string{"OK", "ERROR", "NOT_FOUND"},
}

var t0 = time.Date(2026, 1, 2, 10, 11, 12, 345e6, time.UTC)

func TestRecorderAllocs(t *testing.T) {
	for _, single := range []bool{false, true} {
		c := NewCollector(testLayout, Options{Start: t0, Buckets: 1000})
		r := c.NewRecorder()
		if single {
			r = c.NewSingleWriterRecorder()
		}
		testRecorderAllocs(t, c, r)
	}
	c := NewCollector(testLayout, Options{Start: t0, Buckets: 1000})
	p := c.NewPool(2)
	r := p.Claim()
	testRecorderAllocs(t, c, r)
	r.Release()
	if n := testing.AllocsPerRun(1000, func() { p.Claim().Release() }); n != 0 {
		t.Errorf("Claim and Release: %v allocs per run, want 0", n)
	}
}

func testRecorderAllocs(t *testing.T, c *Collector, r *Recorder) {
	// The first sample of a series allocates its histogram; warm both
	// buffers up so the measured runs see the steady state.
	r.Record(0, time.Millisecond)
	pooled := r.ph == nil
	if pooled {
		r.Release() // a cut waits for a pool's recorder to be released
	}
	c.Cut(t0.Add(time.Second))
	if pooled && !r.tryClaim() {
		t.Fatal("the pool's recorder is still held after the cut")
	}
	r.Record(0, time.Millisecond)
	tests := []struct {
		name string
		fn   func()
	}{
		{"Record", func() { r.Record(0, 1234*time.Microsecond) }},
		{"RecordHuge", func() { r.Record(0, 100*time.Hour) }},
		{"RecordNegative", func() { r.Record(0, -time.Second) }},
		{"Count", func() { r.Count(0, 2) }},
		{"Done", func() { r.Done(1) }},
		{"RecordOp", func() { r.RecordOp(0, time.Millisecond, 0, 1, 1) }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(1000, tt.fn); n != 0 {
			t.Errorf("%s (single writer %v, pooled %v): %v allocs per run, want 0", tt.name, r.single, pooled, n)
		}
	}
}

func TestRecordClampsAndTruncates(t *testing.T) {
	c := NewCollector(testLayout, Options{Start: t0, Highest: time.Second})
	r := c.NewRecorder()
	r.Record(0, 1999*time.Nanosecond) // 1 µs, truncated as Java's integer division
	r.Record(0, -5*time.Second)       // 0
	r.Record(0, time.Minute)          // clamped to 1 s
	s := c.Cut(t0.Add(time.Second)).Lookup("READ")
	if got := s.Count(); got != 3 {
		t.Fatalf("Count() = %d, want 3", got)
	}
	if s.MinMicros != 0 || s.MaxMicros != 1e6 || s.SumMicros != 1e6+1 {
		t.Errorf("min, max, sum = %d, %d, %d; want 0, 1000000, 1000001", s.MinMicros, s.MaxMicros, s.SumMicros)
	}
}

// TestConcurrentCut records from many goroutines, some sharing a recorder,
// while another goroutine cuts intervals: every sample, code and done count
// must land in exactly one interval, and min/max must be exact.
func TestConcurrentCut(t *testing.T) {
	const workers, minPerWorker, minCuts = 10, 2000, 20
	// A small range keeps histogram merges cheap under the race detector.
	c := NewCollector(testLayout, Options{Start: t0, Highest: 10 * time.Millisecond})
	// Workers 0-3 share one recorder, 4 and 5 have their own: recorders are
	// multi-writer; 5's is a single-writer recorder (plain adds, ordered
	// only by the phaser: the race detector checks that). Workers 6-9
	// claim from a pool of two recorders for each operation (plain adds,
	// ordered by the claims).
	shared := c.NewRecorder()
	pool := c.NewPool(2)
	var cuts atomic.Int64
	var wg sync.WaitGroup
	var want, wantSum [5]atomic.Int64
	var wantMin, wantMax [5]atomic.Int64
	for i := range wantMin {
		wantMin[i].Store(1 << 62)
		wantMax[i].Store(-1)
	}
	var wantOps atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			r := shared
			switch seed { // registered while cutting runs
			case 4:
				r = c.NewRecorder()
			case 5:
				r = c.NewSingleWriterRecorder()
			}
			rng := rand.New(rand.NewPCG(seed, 1))
			// Keep recording until the cutter has cut many intervals, so
			// swaps really happen in the middle of recording.
			for i := 0; i < minPerWorker || cuts.Load() < minCuts; i++ {
				if i%64 == 0 {
					// Real workers block on I/O; without this, CPU-bound
					// workers starve the cutting goroutine under -race.
					runtime.Gosched()
				}
				s := rng.IntN(len(testLayout.Series))
				us := rng.Int64N(5000)
				if seed >= 6 {
					r = pool.Claim()
				}
				r.Record(s, time.Duration(us)*time.Microsecond)
				r.Count(s, i%3)
				r.Done(1)
				if seed >= 6 {
					r.Release()
				}
				want[s].Add(1)
				wantSum[s].Add(us)
				for m := wantMin[s].Load(); us < m && !wantMin[s].CompareAndSwap(m, us); m = wantMin[s].Load() {
				}
				for m := wantMax[s].Load(); us > m && !wantMax[s].CompareAndSwap(m, us); m = wantMax[s].Load() {
				}
				wantOps.Add(1)
			}
		}(uint64(w))
	}
	stop := make(chan struct{})
	var ivs []*Snapshot
	cutterDone := make(chan struct{})
	go func() {
		defer close(cutterDone)
		now := t0
		for {
			select {
			case <-stop:
				return
			default:
			}
			now = now.Add(time.Millisecond)
			ivs = append(ivs, c.Cut(now))
			cuts.Add(1)
		}
	}()
	wg.Wait()
	close(stop)
	<-cutterDone
	ivs = append(ivs, c.Cut(t0.Add(time.Hour)))

	var ops int64
	var got, gotSum, codes [5]int64
	gotMin := [5]int64{1 << 62, 1 << 62, 1 << 62, 1 << 62, 1 << 62}
	gotMax := [5]int64{-1, -1, -1, -1, -1}
	for _, iv := range ivs {
		ops += iv.Ops
		for i := range iv.Series {
			got[i] += iv.Series[i].Count()
			gotSum[i] += iv.Series[i].SumMicros
			if iv.Series[i].Count() > 0 {
				gotMin[i] = min(gotMin[i], iv.Series[i].MinMicros)
				gotMax[i] = max(gotMax[i], iv.Series[i].MaxMicros)
			}
			for _, n := range iv.Series[i].Codes {
				codes[i] += n
			}
		}
	}
	if ops != wantOps.Load() {
		t.Errorf("ops over %d intervals = %d, want %d", len(ivs), ops, wantOps.Load())
	}
	for i := range got {
		if got[i] != want[i].Load() || codes[i] != want[i].Load() || gotSum[i] != wantSum[i].Load() {
			t.Errorf("series %d: samples %d, codes %d, sum %d; want %d, %d, %d",
				i, got[i], codes[i], gotSum[i], want[i].Load(), want[i].Load(), wantSum[i].Load())
		}
	}
	for i := range gotMin {
		if gotMin[i] != wantMin[i].Load() || gotMax[i] != wantMax[i].Load() {
			t.Errorf("series %d: min %d max %d, want %d %d", i, gotMin[i], gotMax[i], wantMin[i].Load(), wantMax[i].Load())
		}
	}
	if len(ivs) < minCuts {
		t.Errorf("%d intervals cut, want at least %d", len(ivs), minCuts)
	}
}

func TestTotalEqualsMergeOfIntervals(t *testing.T) {
	c := NewCollector(testLayout, Options{Start: t0})
	r1, r2 := c.NewRecorder(), c.NewRecorder()
	rng := rand.New(rand.NewPCG(7, 7))
	merged := NewSnapshot(testLayout, t0, t0)
	now := t0
	for k := 0; k < 5; k++ {
		for i := 0; i < 1000; i++ {
			r := r1
			if i%2 == 1 {
				r = r2
			}
			s := rng.IntN(2 + k%3)
			r.Record(s, time.Duration(rng.ExpFloat64()*float64(time.Millisecond)))
			r.Count(s, rng.IntN(3))
			r.Done(1)
		}
		now = now.Add(time.Second)
		iv := c.Cut(now)
		if err := merged.Merge(iv); err != nil {
			t.Fatal(err)
		}
	}
	total := c.Total()
	assertSameReport(t, total, merged)
	if total.Ops != 5000 || merged.Ops != 5000 {
		t.Errorf("ops: total %d, merged %d; want 5000", total.Ops, merged.Ops)
	}
	for i := range total.Series {
		a, b := &total.Series[i], &merged.Series[i]
		if (a.Hist == nil) != (b.Hist == nil) || (a.Hist != nil && !a.Hist.Equals(b.Hist)) {
			t.Errorf("series %s: histograms differ", testLayout.Series[i])
		}
		if len(a.Windows) != len(b.Windows) {
			t.Errorf("series %s: %d windows, merged %d", testLayout.Series[i], len(a.Windows), len(b.Windows))
		}
	}
}

func TestReset(t *testing.T) {
	c := NewCollector(testLayout, Options{Start: t0})
	r := c.NewRecorder()
	r.Record(0, time.Millisecond)
	r.Count(0, 0)
	r.Done(1)
	c.Cut(t0.Add(time.Second))
	r.Record(1, time.Millisecond) // not yet cut: discarded too
	c.Reset(t0.Add(2 * time.Second))
	r.Record(2, time.Millisecond)
	iv := c.Cut(t0.Add(3 * time.Second))
	if !iv.Start.Equal(t0.Add(2 * time.Second)) {
		t.Errorf("interval start = %v, want the reset time", iv.Start)
	}
	tot := c.Total()
	if tot.Ops != 0 || tot.Series[0].Active() || tot.Series[1].Active() || tot.Series[2].Count() != 1 {
		t.Errorf("after reset: ops %d, READ active %v, UPDATE active %v, READ-FAILED count %d; want 0, false, false, 1",
			tot.Ops, tot.Series[0].Active(), tot.Series[1].Active(), tot.Series[2].Count())
	}
	if len(tot.Seen) != 1 || tot.Seen[0] != 2 {
		t.Errorf("Seen = %v, want [2]", tot.Seen)
	}
}

// TestGeometryMatchesHdrHistogram checks that the recorders' counts layout
// is hdrhistogram-go's, so Import of recorder counts equals recording the
// same values into a Histogram.
func TestGeometryMatchesHdrHistogram(t *testing.T) {
	for _, tc := range []struct {
		highest time.Duration
		digits  int
	}{{time.Hour, 3}, {10 * time.Millisecond, 3}, {time.Second, 2}, {24 * time.Hour, 4}, {time.Hour, 1}} {
		o := Options{Highest: tc.highest, SignificantDigits: tc.digits}.withDefaults()
		g := newGeometry(int64(o.Highest/time.Microsecond), o.SignificantDigits)
		h := o.newHist()
		counts := make([]int64, g.countsLen)
		if got := len(h.Export().Counts); got != g.countsLen {
			t.Errorf("%+v: countsLen = %d, hdrhistogram-go has %d", tc, g.countsLen, got)
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(tc.digits), 3))
		vals := []int64{0, 1, 2047, 2048, 2049, g.highest - 1, g.highest}
		for i := 0; i < 2000; i++ {
			vals = append(vals, rng.Int64N(g.highest+1), int64(rng.ExpFloat64()*1000))
		}
		for _, v := range vals {
			v = min(v, g.highest)
			if err := h.RecordValue(v); err != nil {
				t.Fatal(err)
			}
			counts[g.index(v)]++
		}
		if got := g.histogram(counts); !got.Equals(h) {
			t.Errorf("%+v: histogram from recorder counts differs from hdrhistogram-go's", tc)
		}
	}
}

// Every phaser has its cache lines to itself: the writers of two
// single-writer recorders made one after the other must not lock-add on a
// shared line (false sharing cost a quarter of an operation at 2 threads).
func TestPhasersOwnTheirCacheLines(t *testing.T) {
	if s := unsafe.Sizeof(phaser{}); s != phaserSize || s%64 != 0 {
		t.Fatalf("phaser is %d bytes, want %d, a whole number of 64-byte lines", s, phaserSize)
	}
	c := NewCollector(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, Options{})
	lines := map[uintptr]int{}
	for i := range 16 {
		p := uintptr(unsafe.Pointer(c.NewSingleWriterRecorder().ph))
		if p%phaserSize != 0 {
			t.Errorf("recorder %d: phaser at %#x, not aligned to %d bytes", i, p, phaserSize)
		}
		for l := p / 64; l <= (p+phaserSize-1)/64; l++ {
			if j, ok := lines[l]; ok {
				t.Fatalf("recorders %d and %d have phasers on one cache line (%#x)", j, i, l*64)
			}
			lines[l] = i
		}
	}
}
