package engine

import (
	"context"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/measure"
)

// An interval ends when it is cut, not when the ticker was due: a
// collector that comes late to a tick (here an onInterval that takes 300 ms
// at 50 ms intervals; in a run, a collector waiting for a CPU behind busy
// workers) receives the stale due time from the ticker's channel. Stamped
// with it, the next interval ended before the previous callback had even
// returned, and the status line made from it divided the operations of
// 300 ms by 50 ms.
func TestIntervalsEndWhenCut(t *testing.T) {
	set := DefaultSettings()
	set.Threads, set.MaxExecutionTime = 2, 900*time.Millisecond
	r, err := New(set, &countJob{}, driverstest.NopDB{})
	if err != nil {
		t.Fatal(err)
	}
	type cut struct {
		start, end time.Time
		returned   time.Time // when the callback returned
	}
	var cuts []cut
	onInterval := func(iv *measure.Snapshot) {
		c := cut{start: iv.Start, end: iv.End}
		if len(cuts) == 0 {
			time.Sleep(300 * time.Millisecond)
		}
		c.returned = time.Now()
		cuts = append(cuts, c)
	}
	if _, err := r.Run(context.Background(), WithIntervals(50*time.Millisecond, onInterval)); err != nil {
		t.Fatal(err)
	}
	if len(cuts) < 3 {
		t.Fatalf("%d intervals, want at least 3", len(cuts))
	}
	for i := 1; i < len(cuts); i++ {
		prev, c := cuts[i-1], cuts[i]
		if !c.start.Equal(prev.end) {
			t.Errorf("interval %d starts at %v, want the previous end %v", i, c.start, prev.end)
		}
		if c.end.Before(prev.returned) {
			t.Errorf("interval %d stamped %v before the callback of interval %d returned (it was cut after that)", i, prev.returned.Sub(c.end), i-1)
		}
	}
}
