package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// startProgress shows a one-line live progress on stderr when it is a
// terminal and -s is off: operations done of total, current rate, time left.
// The line is rewritten in place and erased before the report, which goes to
// stdout, so it never mixes into the report. It returns a stop function.
// progressSource is what the progress line reads: a workload.Plan.
type progressSource interface {
	Done() int64
	Total() int64
}

func startProgress(stderr io.Writer, r progressSource, statusOn bool) func() {
	f, ok := stderr.(*os.File)
	if statusOn || !ok || !term.IsTerminal(int(f.Fd())) {
		return func() {}
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		start := time.Now()
		var prev int64
		prevT := start
		rate := 0.0
		for {
			select {
			case <-done:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-t.C: // the time of the read, not the tick's due time (stale when late)
				now := time.Now()
				n := r.Done()
				if dt := now.Sub(prevT).Seconds(); dt > 0 {
					rate = 0.7*rate + 0.3*float64(n-prev)/dt
				}
				prev, prevT = n, now
				fmt.Fprint(f, "\r\033[K"+progressLine(n, r.Total(), rate, now.Sub(start)))
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// progressLine renders "12345 of 100000 ops (12%), 5432 ops/s, 16s left".
func progressLine(done, total int64, rate float64, elapsed time.Duration) string {
	el := elapsed.Truncate(time.Second)
	if total <= 0 {
		return fmt.Sprintf("%d ops, %.0f ops/s, %s elapsed", done, rate, el)
	}
	left := "?"
	if rate > 0 {
		left = (time.Duration(float64(total-done)/rate) * time.Second).Truncate(time.Second).String()
	}
	return fmt.Sprintf("%d of %d ops (%d%%), %.0f ops/s, %s left", done, total, done*100/total, rate, left)
}
