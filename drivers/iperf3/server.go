package iperf3

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/gobench/gobench/drivers"
)

// Server accepts iperf3 tests on one port, one test at a time, as iperf3
// -s does: a client that comes while a test runs is told ACCESS_DENIED.
type Server struct {
	ln    net.Listener
	ready chan *Session
	mu    sync.Mutex
	busy  *Session // the test being set up or run (nil: free)
	seq   int64
	done  chan struct{}
	once  sync.Once
}

// Listen listens on addr (":5201", "127.0.0.1:0") for iperf3 clients.
func Listen(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("iperf3: listen on %s: %w", addr, err)
	}
	s := &Server{ln: ln, ready: make(chan *Session), done: make(chan struct{})}
	go s.loop()
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Close stops listening and ends a test being set up; a running Session
// is its holder's to close.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.done)
		err = s.ln.Close()
	})
	return err
}

// Accept waits for the next client's test and returns it once its
// parameters are known and every stream has connected, or when ctx ends.
func (s *Server) Accept(ctx context.Context) (*Session, error) {
	select {
	case sess := <-s.ready:
		return sess, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, net.ErrClosed
	}
}

func (s *Server) loop() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		s.mu.Lock()
		s.seq++
		n := s.seq
		s.mu.Unlock()
		go s.route(c, n)
	}
}

// route reads a new connection's cookie and makes it a stream of the test
// being set up, the control connection of a new test, or turns it away.
func (s *Server) route(c net.Conn, seq int64) {
	var cookie [cookieSize]byte
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := readFull(c, cookie[:]); err != nil {
		c.Close()
		return
	}
	s.mu.Lock()
	busy := s.busy
	if busy != nil && busy.t.peerEnd.Load() {
		// The test is ending: this client waits for it, as a connection
		// waits in iperf3 -s's backlog, instead of being turned away.
		s.mu.Unlock()
		select {
		case <-busy.released:
		case <-time.After(ctrlTimeout):
		case <-s.done:
		}
		s.mu.Lock()
		busy = s.busy
	}
	if busy != nil && busy.addStream(c, cookie, seq) {
		s.mu.Unlock()
		return
	}
	if busy != nil {
		s.mu.Unlock()
		writeState(c, accessDenied)
		c.Close()
		return
	}
	sess := &Session{srv: s, t: newTest(false), remote: c.RemoteAddr(), streamsIn: make(chan struct{}), released: make(chan struct{})}
	sess.t.ctrl, sess.t.cookie = c, cookie
	sess.t.lead, sess.t.exchange = sess.lead, sess.ending
	s.busy = sess
	s.mu.Unlock()
	if err := sess.setUp(); err != nil {
		sess.Close()
		return
	}
	select {
	case s.ready <- sess:
	case <-s.done:
		writeState(c, serverTerminate)
		sess.Close()
	}
}

func (s *Server) release(sess *Session) {
	s.mu.Lock()
	if s.busy == sess {
		s.busy = nil
	}
	s.mu.Unlock()
}

// Session is one client's test on a Server: a drivers.DB whose Conns are
// the test's streams, in iperf3's order. Close it when the test is done;
// the server then takes the next client.
type Session struct {
	srv       *Server
	t         *test
	remote    net.Addr
	params    params
	accepting bool
	pending   []seqConn
	streamsIn chan struct{}
	released  chan struct{} // closed by Close
	relOnce   sync.Once
}

type seqConn struct {
	seq int64
	c   net.Conn
}

// Caps implements drivers.Capable.
func (*Session) Caps() drivers.Caps { return drivers.CapNet }

// Remote is the client's control connection address.
func (s *Session) Remote() net.Addr { return s.remote }

// Local is the server's address of the control connection.
func (s *Session) Local() net.Addr { return s.t.ctrl.LocalAddr() }

// Spec is the test the client asked for.
func (s *Session) Spec() drivers.NetSpec {
	return drivers.NetSpec{Streams: s.params.Parallel, Duration: time.Duration(s.params.Time) * time.Second,
		BlockSize: s.params.Len, Reverse: s.params.Reverse}
}

// Omit is the client's omitted seconds at the start (iperf3 -O), which
// gobench's server counts like the rest.
func (s *Session) Omit() int { return s.params.Omit }

// ClientVersion is what the client says it is.
func (s *Session) ClientVersion() string { return s.params.ClientVersion }

// addStream takes c as a stream of this test when its cookie matches and
// streams are still expected (under the server's lock).
func (s *Session) addStream(c net.Conn, cookie [cookieSize]byte, seq int64) bool {
	if !s.accepting || cookie != s.t.cookie {
		return false
	}
	c.SetReadDeadline(time.Time{})
	s.pending = append(s.pending, seqConn{seq, c})
	if len(s.pending) == s.params.Parallel {
		s.accepting = false
		sort.Slice(s.pending, func(i, j int) bool { return s.pending[i].seq < s.pending[j].seq })
		for _, p := range s.pending {
			s.t.socks = append(s.t.socks, p.c)
		}
		close(s.streamsIn)
	}
	return true
}

// refuse tells the client its parameters cannot be served.
func (s *Session) refuse(errno int32) error {
	c := s.t.ctrl
	writeState(c, serverError)
	var b [8]byte
	b[0], b[1], b[2], b[3] = byte(errno>>24), byte(errno>>16), byte(errno>>8), byte(errno)
	c.Write(b[:])
	return fmt.Errorf("iperf3: refused the client's test (iperf3 error %d)", errno)
}

// setUp is the server's part before the test: the parameters, then the
// streams.
func (s *Session) setUp() error {
	c := s.t.ctrl
	c.SetDeadline(time.Now().Add(ctrlTimeout))
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	if err := writeState(c, paramExchange); err != nil {
		return err
	}
	if err := readJSON(c, maxParamsJSON, &s.params); err != nil {
		return s.refuse(ieRecvParams)
	}
	p := s.params
	switch {
	case p.UDP || p.SCTP || p.Bidirectional || p.Num > 0 || p.Blockcount > 0:
		return s.refuse(ieUnimp)
	case p.Parallel < 1 || p.Parallel > maxStreams:
		return s.refuse(ieNumStreams)
	}
	if s.params.Len <= 0 {
		s.params.Len = DefaultBlockSize
	}
	s.srv.mu.Lock()
	s.accepting = true
	s.srv.mu.Unlock()
	if err := writeState(c, createStreams); err != nil {
		return err
	}
	select {
	case <-s.streamsIn:
	case <-time.After(ctrlTimeout):
		return errors.New("iperf3: the client did not open its streams")
	}
	return nil
}

// Open implements drivers.DB: the next stream, in iperf3's order.
func (s *Session) Open(context.Context) (drivers.Conn, error) { return s.t.open() }

// lead starts the test: TEST_START, TEST_RUNNING, and the control reader
// that waits for the client's TEST_END.
func (s *Session) lead(context.Context) error {
	t := s.t
	want := s.Spec()
	if t.spec.Streams != want.Streams || t.spec.Reverse != want.Reverse || t.spec.BlockSize != want.BlockSize {
		return fmt.Errorf("iperf3: the workload's test (%+v) is not the client's (%+v)", t.spec, want)
	}
	t.ctrl.SetDeadline(time.Now().Add(ctrlTimeout))
	if err := writeState(t.ctrl, testStart); err != nil {
		return err
	}
	if err := writeState(t.ctrl, testRunning); err != nil {
		return err
	}
	t.ctrl.SetDeadline(time.Time{})
	go t.readControl(testEnd)
	return nil
}

// ending is the server's end: after the client's TEST_END, the results
// both ways, DISPLAY_RESULTS, and the client's IPERF_DONE; after a stop on
// this side, SERVER_TERMINATE.
func (s *Session) ending(ctx context.Context) error {
	t := s.t
	defer t.close()
	if !t.peerEnd.Load() {
		// Stopped on this side (or the control connection broke): tell
		// the client, as iperf3 -s does when interrupted.
		t.ctrl.SetDeadline(time.Now().Add(5 * time.Second))
		writeState(t.ctrl, serverTerminate)
		if err := t.endErr(); err != nil {
			return err
		}
		return errors.New("iperf3: the test was stopped on the server")
	}
	t.ctrl.SetDeadline(time.Now().Add(ctrlTimeout))
	if err := writeState(t.ctrl, exchangeResults); err != nil {
		return fmt.Errorf("iperf3: send EXCHANGE_RESULTS: %w", err)
	}
	var peer peerResults
	if err := readJSON(t.ctrl, 0, &peer); err != nil {
		return fmt.Errorf("iperf3: read the client's results: %w", err)
	}
	t.mu.Lock()
	for _, r := range peer.streams() {
		t.peer[r.ID] = r
	}
	t.mu.Unlock()
	if err := writeJSON(t.ctrl, t.results(t.sender())); err != nil {
		return fmt.Errorf("iperf3: send the results: %w", err)
	}
	if err := writeState(t.ctrl, displayResults); err != nil {
		return err
	}
	if st, err := readState(t.ctrl); err == nil && st != iperfDone {
		return &ServerError{State: st}
	}
	return nil
}

// Terminate stops the test from this side (the server is shutting down):
// the streams end now and the client is told SERVER_TERMINATE when the
// streams have finished.
func (s *Session) Terminate() { s.t.end(errors.New("iperf3: the server is shutting down")) }

// Close implements drivers.DB: it closes the test's connections and frees
// the server for the next client.
func (s *Session) Close() error {
	s.t.close()
	s.srv.release(s)
	s.relOnce.Do(func() { close(s.released) })
	return nil
}
