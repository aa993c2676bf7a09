package generator

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCounter(t *testing.T) {
	c := NewCounter(10)
	if got := c.Last(); got != 9 {
		t.Errorf("NewCounter(10).Last() = %d, want 9", got)
	}
	for want := int64(10); want < 15; want++ {
		if got := c.Next(nil); got != want {
			t.Fatalf("Next() = %d, want %d", got, want)
		}
		if got := c.Last(); got != want {
			t.Fatalf("Last() after Next()=%d is %d, want %d", want, got, want)
		}
	}
}

func TestCounterConcurrentUnique(t *testing.T) {
	const workers, per = 8, 2000
	c := NewCounter(100)
	seen := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range per {
				seen[w] = append(seen[w], c.Next(nil))
			}
		})
	}
	wg.Wait()
	got := make(map[int64]bool)
	for _, s := range seen {
		for _, v := range s {
			if got[v] {
				t.Fatalf("value %d issued twice", v)
			}
			got[v] = true
		}
	}
	for v := int64(100); v < 100+workers*per; v++ {
		if !got[v] {
			t.Fatalf("value %d never issued", v)
		}
	}
	if last := c.Last(); last != 100+workers*per-1 {
		t.Errorf("Last() = %d, want %d", last, 100+workers*per-1)
	}
}

func TestAcknowledgedCounterInOrderAndGaps(t *testing.T) {
	c := NewAcknowledgedCounter(1000)
	if got := c.Last(); got != 999 {
		t.Fatalf("Last() before any ack = %d, want 999", got)
	}
	for range 5 {
		c.Next(nil) // 1000..1004
	}
	steps := []struct {
		ack      int64
		wantLast int64
	}{
		{1001, 999},  // gap at 1000
		{1003, 999},  // still gapped
		{1000, 1001}, // fills 1000: 1000,1001 contiguous
		{1002, 1003}, // fills 1002: up to 1003
		{1004, 1004},
	}
	for _, s := range steps {
		if err := c.Acknowledge(s.ack); err != nil {
			t.Fatalf("Acknowledge(%d) = %v", s.ack, err)
		}
		if got := c.Last(); got != s.wantLast {
			t.Fatalf("after Acknowledge(%d): Last() = %d, want %d", s.ack, got, s.wantLast)
		}
	}
	if err := c.Acknowledge(1002); err == nil {
		t.Errorf("Acknowledge(1002) twice: want an error")
	}
	// The counter part is unaffected by acknowledgements.
	if got := c.Next(nil); got != 1005 {
		t.Errorf("Next() = %d, want 1005", got)
	}
}

func TestAcknowledgedCounterWindowFull(t *testing.T) {
	c := NewAcknowledgedCounter(0)
	// 0 is never acknowledged; 1 is. 1+AckWindow maps to 1's slot, which is
	// still flagged because the limit cannot pass the gap at 0.
	if err := c.Acknowledge(1); err != nil {
		t.Fatal(err)
	}
	for _, v := range []int64{1 + AckWindow, 2 * AckWindow} {
		err := c.Acknowledge(v)
		if !errors.Is(err, ErrTooManyUnacknowledged) {
			t.Errorf("Acknowledge(%d) with 0 outstanding = %v, want ErrTooManyUnacknowledged", v, err)
		}
	}
	// The window's last value that fits is fine.
	if err := c.Acknowledge(AckWindow - 1); err != nil {
		t.Errorf("Acknowledge(%d) = %v, want nil", AckWindow-1, err)
	}
	if err := c.Acknowledge(0); err != nil {
		t.Fatal(err)
	}
	if got := c.Last(); got != 1 {
		t.Errorf("Last() = %d, want 1", got)
	}
}

// TestAcknowledgedCounterNoStrandedAck forces the interleaving in which Java
// loses an acknowledgement: the walker has passed slot v and still holds the
// lock when v is flagged, so v's own try-lock fails. Java's limit then stays
// below v until some later acknowledgement; ours must reach v at once.
func TestAcknowledgedCounterNoStrandedAck(t *testing.T) {
	c := NewAcknowledgedCounter(0)
	c.Next(nil)
	c.Next(nil)
	fired := false
	testHookWalked = func(c *AcknowledgedCounter) {
		if fired {
			return
		}
		fired = true
		if err := c.Acknowledge(1); err != nil { // TryLock fails: flag only
			t.Errorf("Acknowledge(1) inside walk = %v", err)
		}
	}
	defer func() { testHookWalked = nil }()
	if err := c.Acknowledge(0); err != nil {
		t.Fatal(err)
	}
	if !fired {
		t.Fatal("hook did not run")
	}
	if got := c.Last(); got != 1 {
		t.Errorf("Last() = %d after acknowledging 0 and (during the walk) 1, want 1", got)
	}
}

// TestAcknowledgedCounterConcurrent has many goroutines take values and
// acknowledge them out of order; once all are acknowledged Last must be
// exactly the largest value, and it must never go backwards or past a value
// that was not yet acknowledged. Java can strand the final acknowledgement
// behind a busy try-lock; this pins that we do not.
func TestAcknowledgedCounterConcurrent(t *testing.T) {
	const workers, per, start = 8, 3000, 5
	for round := range 3 {
		c := NewAcknowledgedCounter(start)
		acked := make([]atomic.Bool, workers*per)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				r := NewRand(uint64(round), uint64(w))
				var held []int64
				prev := c.Last()
				for i := range per {
					held = append(held, c.Next(r))
					// Ack a random held value now and then, so acks arrive
					// out of order across and within goroutines.
					if len(held) > 0 && (r.IntN(3) == 0 || i == per-1) {
						for len(held) > 0 && (r.IntN(2) == 0 || i == per-1) {
							k := r.IntN(len(held))
							v := held[k]
							held[k] = held[len(held)-1]
							held = held[:len(held)-1]
							acked[v-start].Store(true)
							if err := c.Acknowledge(v); err != nil {
								t.Errorf("Acknowledge(%d) = %v", v, err)
								return
							}
						}
					}
					last := c.Last()
					if last < prev {
						t.Errorf("Last() went back from %d to %d", prev, last)
						return
					}
					if last >= start {
						if !acked[last-start].Load() {
							t.Errorf("Last() = %d, which was never acknowledged", last)
							return
						}
					}
					prev = last
				}
			})
		}
		wg.Wait()
		if got, want := c.Last(), int64(start+workers*per-1); got != want {
			t.Fatalf("round %d: Last() after all acks = %d, want %d", round, got, want)
		}
	}
}

func TestSequential(t *testing.T) {
	s, err := NewSequential(5, 7)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Last(); got != 4 {
		t.Errorf("Last() before Next = %d, want 4", got)
	}
	want := []int64{5, 6, 7, 5, 6, 7, 5}
	for i, w := range want {
		if got := s.Next(nil); got != w {
			t.Fatalf("Next() #%d = %d, want %d", i, got, w)
		}
		if got := s.Last(); got != w {
			t.Fatalf("Last() after Next #%d = %d, want %d", i, got, w)
		}
	}
	if _, err := NewSequential(7, 5); err == nil {
		t.Errorf("NewSequential(7, 5): want an error")
	}
}

// TestSequentialConcurrentWrap checks that a shared Sequential hands out
// every value of its range equally often across goroutines.
func TestSequentialConcurrentWrap(t *testing.T) {
	const workers, per, lo, hi = 4, 3000, 10, 19 // 12000 draws, 1200 per value
	s, err := NewSequential(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([][hi - lo + 1]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range per {
				counts[w][s.Next(nil)-lo]++
			}
		})
	}
	wg.Wait()
	for v := range hi - lo + 1 {
		total := 0
		for w := range workers {
			total += counts[w][v]
		}
		if total != workers*per/(hi-lo+1) {
			t.Errorf("value %d drawn %d times, want %d", v+lo, total, workers*per/(hi-lo+1))
		}
	}
}
