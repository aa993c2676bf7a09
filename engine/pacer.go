package engine

import (
	"fmt"
	"time"
)

// Pacing sleeps: a paced worker (a target rate, or the open loop's
// arrivals) waits until its next operation's time, and every microsecond it
// wakes late is added to that operation's intended-start latency (and may
// count it as a late start in the open loop). The runtime's timers alone are
// up to 1 ms late whenever the process is idle: Go's poller waits with
// epoll's millisecond timeouts, rounding every wait below 1 ms up to 1 ms
// (golang/go#53824). With a no-op driver at 1 000 ops/s a worker's sleeps
// ended 0.6 ms late at the median, twice Java's (LockSupport.parkNanos).
//
// So a worker waits with a Go timer until fineWindow before its time (so
// that a stop ends the wait at once), and then with a fine timer: on Linux
// a timerfd in the runtime's poller, whose expiry wakes the poller at the
// kernel's hrtimer precision, as Netty's epoll transport does. Where a fine
// timer is unavailable (another OS, or no file descriptor left) the Go
// timer does all of it and the run warns once.

// fineWindow is how long before a sleep's end the Go timer hands over to the
// fine timer: more than the Go timer's lateness.
const fineWindow = 2 * time.Millisecond

// pacer is one worker's sleeping: its Go timer and its fine timer (nil when
// there is none).
type pacer struct {
	t    *time.Timer
	fine *fineTimer
}

// newPacer returns a worker's pacer; id names the worker in the warning a
// missing fine timer causes.
func (r *Runner) newPacer(id int) *pacer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	p := &pacer{t: t}
	if !r.set.SpinSleep {
		f, err := newFineTimer()
		if err != nil {
			r.noFine.Do(func() {
				fmt.Fprintf(r.opts.log, "Warning: worker %d: no fine timer (%v): pacing sleeps may end up to 1 ms late\n", id, err)
			})
		} else {
			p.fine = f
		}
	}
	return p
}

func (p *pacer) close() {
	p.t.Stop()
	if p.fine != nil {
		p.fine.close()
	}
}

// sleep waits d (busy-waiting with spin.sleep), or until stop. It reports
// whether the worker should go on. A stop that comes during the last
// fineWindow of a sleep is seen when the sleep ends.
func (r *Runner) sleep(m *Meter, p *pacer, d time.Duration, stop <-chan struct{}) bool {
	end := m.Now() + d
	if r.set.SpinSleep {
		for m.Now() < end {
			if r.stopping.Load() {
				return false
			}
		}
		return true
	}
	coarse := d
	if p.fine != nil {
		coarse = d - fineWindow
	}
	if coarse > 0 {
		p.t.Reset(coarse)
		select {
		case <-p.t.C:
		case <-stop:
			p.t.Stop()
			return false
		}
	}
	if p.fine == nil {
		return true
	}
	for rest := end - m.Now(); rest > 0; rest = end - m.Now() {
		if err := p.fine.wait(rest); err != nil {
			// Not expected once created; the Go timer takes over.
			p.fine.close()
			p.fine = nil
			return r.sleep(m, p, end-m.Now(), stop)
		}
	}
	return !r.stopping.Load()
}
