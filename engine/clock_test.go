package engine

import (
	"testing"
	"time"
)

// TestMeterNowFollowsTheMonotonicClock: Meter.Now, read from the runtime's
// nanotime, advances as time.Since does and never goes back.
func TestMeterNowFollowsTheMonotonicClock(t *testing.T) {
	m := &Meter{base: nanotime()}
	start := time.Now()
	n0 := m.Now()
	if n0 < 0 || n0 > time.Second {
		t.Fatalf("Now right after the base = %v, want a few nanoseconds", n0)
	}
	time.Sleep(20 * time.Millisecond)
	n1, since := m.Now(), time.Since(start)
	// Now was read after since's start and before since's end (give or
	// take the two reads' own cost).
	if d := n1 - n0; d < 20*time.Millisecond || d > since+time.Millisecond {
		t.Errorf("Now advanced %v over a 20 ms sleep that time.Since measured as %v", d, since)
	}
	prev := m.Now()
	for i := 0; i < 100_000; i++ {
		n := m.Now()
		if n < prev {
			t.Fatalf("Now went back: %v after %v", n, prev)
		}
		prev = n
	}
}

func BenchmarkMeterNow(b *testing.B) {
	m := &Meter{base: nanotime()}
	var s time.Duration
	for b.Loop() {
		s += m.Now()
	}
	_ = s
}

// BenchmarkTimeSince is what Meter.Now cost before: time.Since of the base.
func BenchmarkTimeSince(b *testing.B) {
	base := time.Now()
	var s time.Duration
	for b.Loop() {
		s += time.Since(base)
	}
	_ = s
}
