package measure

import (
	"testing"
	"time"
)

// secondIntervals returns n one-second intervals from t0, each with 1000
// READ samples.
func secondIntervals(t *testing.T, t0 time.Time, n int) []*Snapshot {
	t.Helper()
	c := NewCollector(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, Options{Start: t0})
	r := c.NewRecorder()
	var out []*Snapshot
	for k := 0; k < n; k++ {
		for i := 0; i < 1000; i++ {
			r.Record(0, time.Duration(100+i)*time.Microsecond)
			r.Count(0, 0)
			r.Done(2)
		}
		out = append(out, c.Cut(t0.Add(time.Duration(k+1)*time.Second)))
	}
	return out
}

func TestBinIntervals(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, b := secondIntervals(t, t0, 3), secondIntervals(t, t0.Add(400*time.Millisecond), 3) // b's midpoints stay in a's bins
	bins, err := BinIntervals([][]*Snapshot{a, b}, t0, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 3 {
		t.Fatalf("%d bins, want 3", len(bins))
	}
	for k, bn := range bins {
		if bn.Ops != 4000 || bn.Lookup("READ").Count() != 2000 || !bn.Start.Equal(t0.Add(time.Duration(k)*time.Second)) || bn.End.Sub(bn.Start) != time.Second {
			t.Errorf("bin %d: %d ops, %d READ, %v from t0+%v; want 4000, 2000, 1s from t0+%ds", k, bn.Ops, bn.Lookup("READ").Count(), bn.End.Sub(bn.Start), bn.Start.Sub(t0), k)
		}
	}
	// An interval before t0 goes to a negative bin, floored.
	early := secondIntervals(t, t0.Add(-1500*time.Millisecond), 1)
	bins, err = BinIntervals([][]*Snapshot{early}, t0, time.Second)
	if err != nil || len(bins) != 1 || !bins[0].Start.Equal(t0.Add(-time.Second)) {
		t.Errorf("interval with midpoint t0-1s: bins %v (%v), want one from t0-1s", bins, err)
	}
	if _, err := BinIntervals(nil, t0, 0); err == nil {
		t.Errorf("width 0 accepted")
	}
}

func TestTypicalWidth(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ivs := secondIntervals(t, t0, 3)
	ivs[2].End = ivs[2].Start.Add(200 * time.Millisecond) // the cut-short last one
	if w := TypicalWidth(ivs); w != time.Second {
		t.Errorf("TypicalWidth = %v, want the median 1s", w)
	}
	if w := TypicalWidth(nil); w != 0 {
		t.Errorf("TypicalWidth(nil) = %v, want 0", w)
	}
}
