package engine

import (
	"errors"
	"fmt"
	"os"
	"sync"
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
// So a worker waits with a fine timer: on Linux a timerfd in the runtime's
// poller, whose expiry wakes the poller at the kernel's hrtimer precision,
// as Netty's epoll transport does. One wait is one wake-up (a Go timer that
// handed over to the fine timer 2 ms before the end, as until 2026-12-02,
// woke the process twice per paced operation). A stop ends every fine
// timer's wait at once (fineSet). Where a fine timer is unavailable
// (another OS, or no file descriptor left) the Go timer does all of it and
// the run warns once.

// pacer is one worker's sleeping: its fine timer, or its Go timer when
// there is no fine timer.
type pacer struct {
	t    *time.Timer
	fine *fineTimer
	set  *fineSet
}

// fineSet holds the fine timers of a run's paced workers, so that a stop
// ends their waits at once: it sets each one's read deadline in the past,
// which wakes a wait parked in the poller (and fails every later one).
type fineSet struct {
	mu      sync.Mutex
	stopped bool
	m       map[*fineTimer]struct{}
}

func (s *fineSet) add(f *fineTimer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[*fineTimer]struct{}{}
	}
	s.m[f] = struct{}{}
	if s.stopped {
		f.interrupt()
	}
}

func (s *fineSet) remove(f *fineTimer) {
	s.mu.Lock()
	delete(s.m, f)
	s.mu.Unlock()
}

// stop ends the waits of the fine timers there are and of those added
// later.
func (s *fineSet) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	for f := range s.m {
		f.interrupt()
	}
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
			p.fine, p.set = f, &r.fine
			r.fine.add(f)
		}
	}
	return p
}

func (p *pacer) close() {
	p.t.Stop()
	p.dropFine()
}

func (p *pacer) dropFine() {
	if p.fine != nil {
		p.set.remove(p.fine)
		p.fine.close()
		p.fine = nil
	}
}

// sleep waits d (busy-waiting with spin.sleep), or until stop. It reports
// whether the worker should go on.
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
	for p.fine != nil {
		rest := end - m.Now()
		if rest <= 0 {
			return !r.stopping.Load()
		}
		err := p.fine.wait(rest)
		if err == nil {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return false // stopped (fineSet.stop)
		}
		// Not expected once created; the Go timer takes over.
		p.dropFine()
	}
	if rest := end - m.Now(); rest > 0 {
		p.t.Reset(rest)
		select {
		case <-p.t.C:
		case <-stop:
			p.t.Stop()
			return false
		}
	}
	return !r.stopping.Load()
}
