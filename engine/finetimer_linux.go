package engine

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// fineTimer waits with a timerfd registered in the runtime's poller: the
// goroutine parks as on a socket, and the timer's expiry wakes the poller at
// once (see pacer.go). One per paced worker, used by that worker only.
type fineTimer struct {
	f     *os.File
	rc    syscall.RawConn
	d     time.Duration
	armed bool
	err   error
	fn    func(fd uintptr) bool // = t.step, bound once (no allocation per wait)
}

// itimerspec is struct itimerspec of timerfd_settime(2).
type itimerspec struct {
	interval, value syscall.Timespec
}

const (
	clockMonotonic = 1
	tfdNonblock    = syscall.O_NONBLOCK
	tfdCloexec     = syscall.O_CLOEXEC
)

func newFineTimer() (*fineTimer, error) {
	fd, _, e := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic, tfdNonblock|tfdCloexec, 0)
	if e != 0 {
		return nil, os.NewSyscallError("timerfd_create", e)
	}
	f := os.NewFile(fd, "timerfd") // non-blocking: in the runtime's poller
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	t := &fineTimer{f: f, rc: rc}
	t.fn = t.step
	return t, nil
}

// wait returns d after it was called (at once if d <= 0), at the timer's
// precision.
func (t *fineTimer) wait(d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t.d, t.armed, t.err = d, false, nil
	if err := t.rc.Read(t.fn); err != nil {
		return err
	}
	return t.err
}

// step is the RawConn.Read callback. The timer is armed inside it, after
// the poller forgot the descriptor's earlier readiness, so its expiry
// cannot go unseen; the first call then waits. The second comes when the
// poller saw the descriptor readable, which only an expiry makes it: the
// wait is over. The expiry count is not read (it would be one more system
// call per wait); the next arming starts a new expiry, and the poller is
// edge-triggered, so an unread count never makes a later wait end early.
// (The caller checks the clock anyway.)
func (t *fineTimer) step(fd uintptr) bool {
	if t.armed {
		return true
	}
	t.armed = true
	spec := itimerspec{value: syscall.NsecToTimespec(int64(t.d))}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e != 0 {
		t.err = os.NewSyscallError("timerfd_settime", e)
		return true
	}
	return false
}

// interrupt ends a wait in progress, and every later one, with
// os.ErrDeadlineExceeded; it may be called from any goroutine.
func (t *fineTimer) interrupt() { t.f.SetReadDeadline(time.Unix(1, 0)) }

func (t *fineTimer) close() { t.f.Close() }
