package iperf3

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
)

// test is one iperf3 test as either end holds it: the control connection,
// the streams, and the barriers at the start and at the end.
type test struct {
	client bool
	ctrl   net.Conn
	cookie [cookieSize]byte

	mu      sync.Mutex
	opened  int // Conns handed out
	socks   []net.Conn
	spec    drivers.NetSpec
	hasSpec bool

	startOnce sync.Once
	startErr  error
	t0        time.Time
	cpu0      cpuTimes
	lead      func(ctx context.Context) error // the role's handshake, run by the first Start
	exchange  func(ctx context.Context) error // the role's ending, run by the last Finish

	ended    atomic.Bool   // the test is over for the streams: their I/O returns io.EOF
	endedCh  chan struct{} // closed when ended is set
	peerEnd  atomic.Bool   // ... because the peer ended it normally (TEST_END)
	draining atomic.Bool   // the peer ended it: receivers read what is left, then end
	whyEnded atomic.Pointer[error]
	states   chan int8 // the control reader's, after TEST_RUNNING

	finishing int
	finished  chan struct{}
	finishErr error
	peer      map[int]streamResult
	local     []streamResult
	closeOnce sync.Once
}

func newTest(client bool) *test {
	return &test{client: client, finished: make(chan struct{}), endedCh: make(chan struct{}), states: make(chan int8, 4), peer: map[int]streamResult{}}
}

// end stops the streams' I/O: every Send and Receive returns io.EOF from
// now on. err says why when it was not a normal end.
func (t *test) end(err error) {
	if err != nil {
		t.whyEnded.CompareAndSwap(nil, &err)
	}
	if t.ended.Swap(true) {
		return
	}
	close(t.endedCh)
	t.mu.Lock()
	socks := append([]net.Conn(nil), t.socks...)
	t.mu.Unlock()
	past := time.Now().Add(-time.Second)
	for _, s := range socks {
		s.SetDeadline(past)
	}
}

// closeWrites ends the sending side of every stream (a FIN after what is
// buffered), as iperf3 -s closes its streams on the client's TEST_END in a
// reversed test: the client, still reading its streams, then sees the end of
// the last block it was sent, even a partial one, instead of waiting for the
// rest of it while the server waits on the control connection for its
// results. The sockets stay open for the streams' TCP_INFO.
func (t *test) closeWrites() {
	t.mu.Lock()
	socks := append([]net.Conn(nil), t.socks...)
	t.mu.Unlock()
	for _, s := range socks {
		if cw, ok := s.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
	}
}

// drainIdle is how long a receiving stream waits for more bytes after the
// sender has ended the test: what was sent before TEST_END and is still in
// flight or in the socket's buffer is counted.
const drainIdle = 50 * time.Millisecond

// drain ends the test for receiving streams once they have read what is
// left: each read then waits at most drainIdle.
func (t *test) drain() {
	if t.draining.Swap(true) {
		return
	}
	t.mu.Lock()
	socks := append([]net.Conn(nil), t.socks...)
	t.mu.Unlock()
	for _, s := range socks {
		s.SetReadDeadline(time.Now().Add(drainIdle))
	}
}

// drainReceived reads what is left on every stream, until each has been
// idle for drainIdle, and adds it to the streams' counts.
func (t *test) drainReceived() {
	buf := make([]byte, 256<<10)
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, s := range t.socks {
		var n int64
		for {
			s.SetReadDeadline(time.Now().Add(drainIdle))
			k, err := s.Read(buf)
			n += int64(k)
			if err != nil {
				break
			}
		}
		id := streamID(i)
		for j := range t.local {
			if t.local[j].ID == id {
				t.local[j].Bytes += n
			}
		}
	}
}

// localBytes is what this end counted for stream id, drains included.
func (t *test) localBytes(id int) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range t.local {
		if l.ID == id {
			return l.Bytes, true
		}
	}
	return 0, false
}

// endErr returns why the test ended abnormally, if it did.
func (t *test) endErr() error {
	if p := t.whyEnded.Load(); p != nil {
		return *p
	}
	return nil
}

// readControl reads the peer's states during the test: end is the normal
// end for this role (TEST_END for a server, EXCHANGE_RESULTS for a
// client), which it posts and then stops reading (the ending reads the
// JSON that follows); anything else ends the test abnormally.
func (t *test) readControl(normal int8) {
	for {
		s, err := readState(t.ctrl)
		switch {
		case err != nil:
			if !t.ended.Load() {
				t.end(fmt.Errorf("the control connection broke during the test: %w", err))
			}
			close(t.states)
			return
		case s == normal:
			if !t.client {
				t.peerEnd.Store(true)
				if t.spec.Reverse {
					t.end(nil)
					t.closeWrites()
				} else {
					t.drain()
				}
			}
			t.states <- s
			return
		case s == testStart || s == testRunning:
			continue
		case s == serverError:
			t.end(readServerError(t.ctrl))
			close(t.states)
			return
		default:
			t.end(&ServerError{State: s})
			close(t.states)
			return
		}
	}
}

func readServerError(c net.Conn) error {
	var b [8]byte
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := readFull(c, b[:]); err != nil {
		return &ServerError{State: serverError}
	}
	return &ServerError{State: serverError, Errno: int32(be32(b[:4])), Syserr: int32(be32(b[4:]))}
}

// start is a stream's Start: the first runs the role's handshake, all
// wait for it.
func (t *test) start(ctx context.Context, spec drivers.NetSpec) error {
	t.mu.Lock()
	if !t.hasSpec {
		t.spec, t.hasSpec = spec, true
	} else if t.spec != spec {
		t.mu.Unlock()
		return fmt.Errorf("iperf3: streams of one test started with different specs (%+v, %+v)", t.spec, spec)
	}
	t.mu.Unlock()
	t.startOnce.Do(func() {
		t.startErr = t.lead(ctx)
		if t.startErr == nil {
			t.t0 = time.Now()
			t.cpu0 = cpuNow()
		}
	})
	return t.startErr
}

// finish is a stream's Finish: the last one to finish runs the role's
// ending; all wait for it.
func (t *test) finish(ctx context.Context) error {
	t.mu.Lock()
	t.finishing++
	last := t.finishing == len(t.socks)
	t.mu.Unlock()
	if last {
		t.finishErr = t.exchange(ctx)
		close(t.finished)
		return t.finishErr
	}
	select {
	case <-t.finished:
		return t.finishErr
	case <-ctx.Done():
		return fmt.Errorf("iperf3: waiting for the other streams to finish: %w", ctx.Err())
	}
}

// results are this end's counts, for the exchange.
func (t *test) results(sender bool) results {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := results{SenderHasRetransmits: -1, Streams: append([]streamResult(nil), t.local...)}
	if sender {
		r.SenderHasRetransmits = 1
		for _, s := range r.Streams {
			if s.Retransmits < 0 {
				r.SenderHasRetransmits = 0
			}
		}
	}
	wall := time.Since(t.t0).Seconds()
	r.CPUTotal, r.CPUUser, r.CPUSystem = cpuNow().since(t.cpu0, wall)
	return r
}

// record notes a finished stream's counts for the exchange.
func (t *test) record(s streamResult) {
	t.mu.Lock()
	t.local = append(t.local, s)
	t.mu.Unlock()
}

func (t *test) close() {
	t.closeOnce.Do(func() {
		t.mu.Lock()
		socks := t.socks
		t.mu.Unlock()
		for _, s := range socks {
			s.Close()
		}
		if t.ctrl != nil {
			t.ctrl.Close()
		}
	})
}

// sender reports whether this end sends.
func (t *test) sender() bool { return t.client != t.spec.Reverse }

var errNoStream = errors.New("iperf3: more connections opened than the test has streams")
