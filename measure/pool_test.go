package measure

import (
	"testing"
	"time"
)

// TestPoolClaimsAreExclusive: a claimed recorder is never handed to a
// second writer; with every recorder held, Claim waits for a release and
// returns the released one.
func TestPoolClaimsAreExclusive(t *testing.T) {
	c := NewCollector(testLayout, Options{Start: t0})
	p := c.NewPool(3)
	held := map[*Recorder]bool{}
	for range 3 {
		r := p.Claim()
		if held[r] {
			t.Fatalf("Claim returned a recorder already held")
		}
		held[r] = true
	}
	got := make(chan *Recorder)
	go func() { got <- p.Claim() }()
	select {
	case <-got:
		t.Fatal("Claim returned while every recorder was held")
	case <-time.After(50 * time.Millisecond):
	}
	second := p.recs[1]
	second.Release()
	if r := <-got; r != second {
		t.Errorf("Claim returned recorder %p, want the released %p", r, second)
	}
}

// TestCutWaitsForAClaim: a cut that finds a pooled recorder claimed swaps
// its buffers only after the writer releases it, so what the writer
// recorded under its claim lands whole in that interval.
func TestCutWaitsForAClaim(t *testing.T) {
	c := NewCollector(testLayout, Options{Start: t0})
	p := c.NewPool(1)
	r := p.Claim()
	r.RecordOp(0, time.Millisecond, 0, 0, 1)
	cut := make(chan *Snapshot)
	go func() { cut <- c.Cut(t0.Add(time.Second)) }()
	select {
	case <-cut:
		t.Fatal("Cut returned while a writer held the pool's recorder")
	case <-time.After(50 * time.Millisecond):
	}
	r.Record(0, 2*time.Millisecond)
	r.Release()
	iv := <-cut
	s := iv.Lookup("READ")
	if s.Count() != 2 || s.Codes[0] != 1 || iv.Ops != 1 || s.MaxMicros != 2000 {
		t.Errorf("interval: count %d, OK %d, ops %d, max %d us; want 2, 1, 1, 2000", s.Count(), s.Codes[0], iv.Ops, s.MaxMicros)
	}
	if !p.recs[0].tryClaim() {
		t.Error("the cut kept the recorder claimed")
	}
}
