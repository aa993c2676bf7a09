package hbclient

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// rpcConn is one TCP connection to one service of one server. Many calls
// share it: whole frames are queued and written by one goroutine at a time
// (see send), and one reader
// goroutine hands each response to the call waiting for its call id. When the
// connection dies every pending call fails with an error wrapping
// ErrConnection; the client then drops the connection and dials anew.
type rpcConn struct {
	addr    string
	service string
	nc      net.Conn
	raw     *rawIO       // nc's socket read and written directly (nil: through nc)
	codec   bool         // the header named KeyValueCodec: cell blocks both ways
	prio    priority     // of call and callCells: prioNormal on ClientService, else unset
	noCodec *atomic.Bool // set when the server refuses the codec (may be nil)

	qmu     sync.Mutex
	queue   []byte // request frames not yet written; under qmu
	spare   []byte // the other write buffer; under qmu
	writing bool   // a goroutine is writing the queue; under qmu

	mu      sync.Mutex
	pending map[uint32]*call
	err     error // set once the connection is dead
	dead    atomic.Bool
	nextID  atomic.Uint32

	writeTimeout time.Duration
	deadlineSet  time.Time // when the write deadline was last moved; by the writer only

	watchMin, watchTick time.Duration // see watchMin

	// the context watch (ctxwatch.go), under mu
	ctxw     *ctxWatch
	seenDone <-chan struct{} // the Done of the latest calls, seenN calls in a row
	seenN    int
}

// call is one in-flight RPC. Calls are pooled; each owns a reusable timer.
type call struct {
	ch    chan struct{} // receives once when the response or failure is in
	frame *[]byte       // response frame buffer, returned to framePool on release
	resp  responseFrame
	err   error
	timer *time.Timer
	// expiry (monoNanos; 0: none) is when the connection's watchdog fails
	// the call with errTimeout, naming method and timeout. Set before the
	// call is pending, read under rpcConn.mu.
	expiry  int64
	method  string
	timeout time.Duration
	// done is the Done of the call's context when the connection watches
	// that context (ctxwatch.go): the call then waits on ch alone.
	done <-chan struct{}
}

// RPC timeouts of at least watchMin (the usual 60 s ones) are enforced by
// one watchdog goroutine per connection that looks at the pending calls
// every watchTick (see watch), not by a timer per call: arming and stopping
// a timer, and a third case in the call's select, cost a few percent of
// the client's CPU per call. Such a timeout fires up to watchTick late.
// Shorter timeouts keep the timer. A connection takes both when dialled;
// tests change them.
var watchMin, watchTick = func() (m, t atomic.Int64) {
	m.Store(int64(2 * time.Second))
	t.Store(int64(100 * time.Millisecond))
	return
}()

var callPool = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &call{ch: make(chan struct{}, 1), timer: t}
}}

var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getFrame(n int) *[]byte {
	p := framePool.Get().(*[]byte)
	if cap(*p) < n {
		*p = make([]byte, n)
	}
	*p = (*p)[:n]
	return p
}

// release returns the call and its frame buffer to their pools; the
// response's slices are invalid afterwards.
func (cl *call) release() {
	if cl.frame != nil {
		framePool.Put(cl.frame)
	}
	cl.frame, cl.resp, cl.err = nil, responseFrame{}, nil
	cl.expiry, cl.method, cl.done = 0, "", nil
	callPool.Put(cl)
}

// dialConn connects to addr, sends the preamble and connection header for
// service (naming the KeyValueCodec if codec) and starts the reader. If the
// server refuses the codec, the reader sets *noCodec (when not nil).
func dialConn(ctx context.Context, o *Options, addr, service string, codec bool, noCodec *atomic.Bool) (*rpcConn, error) {
	ctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
	defer cancel()
	nc, err := o.Dial(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s (%s): %w: %w", addr, service, ErrConnection, err)
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	hello := appendConnectionHeader(nil, o.User, service, codec)
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetWriteDeadline(dl)
	}
	if o.Kerberos != nil { // SASL first, then the header (without the SIMPLE preamble)
		if dl, ok := ctx.Deadline(); ok {
			_ = nc.SetReadDeadline(dl)
		}
		if nc, hello, err = o.Kerberos.handshake(nc, addr, service, codec); err != nil {
			nc.Close()
			return nil, err
		}
		_ = nc.SetReadDeadline(time.Time{})
	}
	if _, err := nc.Write(hello); err != nil {
		nc.Close()
		return nil, fmt.Errorf("connection header to %s (%s): %w: %w", addr, service, ErrConnection, err)
	}
	_ = nc.SetWriteDeadline(time.Time{})
	c := &rpcConn{addr: addr, service: service, nc: nc, raw: newRawIO(nc), codec: codec, noCodec: noCodec, prio: prioUnset, pending: make(map[uint32]*call), writeTimeout: o.RPCTimeout}
	if service == "ClientService" {
		c.prio = prioNormal
	}
	c.watchMin, c.watchTick = time.Duration(watchMin.Load()), time.Duration(watchTick.Load())
	go c.readLoop()
	go c.watch()
	return c, nil
}

// watch fails, every watchTick, the pending calls whose expiry has passed,
// until the connection dies.
func (c *rpcConn) watch() {
	t := time.NewTicker(c.watchTick)
	defer t.Stop()
	var expired []*call
	for range t.C {
		if c.dead.Load() {
			return
		}
		now := monoNanos()
		expired = expired[:0]
		c.mu.Lock()
		for id, cl := range c.pending {
			if cl.expiry != 0 && now >= cl.expiry {
				delete(c.pending, id)
				expired = append(expired, cl)
			}
		}
		c.mu.Unlock()
		for i, cl := range expired {
			cl.err = fmt.Errorf("%s to %s: %w after %v: %w", cl.method, c.addr, errTimeout, cl.timeout, ErrConnection)
			cl.ch <- struct{}{}
			expired[i] = nil
		}
	}
}

// alive reports whether the connection can still carry calls.
func (c *rpcConn) alive() bool { return !c.dead.Load() }

// close shuts the connection down, failing every pending call.
func (c *rpcConn) close() { c.fail(fmt.Errorf("connection to %s closed: %w", c.addr, ErrConnection)) }

// connError is an error that came from (or over) one connection, so that
// error handling can tell a failure of the current connection to a server
// from a late one of a connection already replaced.
type connError struct {
	rc  *rpcConn
	err error
}

func (e *connError) Error() string { return e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// connOf returns the connection err came from, or nil.
func connOf(err error) *rpcConn {
	var ce *connError
	if errors.As(err, &ce) {
		return ce.rc
	}
	return nil
}

// fail marks the connection dead (first error wins) and fails every pending call.
func (c *rpcConn) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	err = &connError{rc: c, err: err}
	c.err = err
	c.dead.Store(true)
	pending := c.pending
	c.pending = nil
	w := c.ctxw
	c.ctxw = nil
	c.mu.Unlock()
	if w != nil {
		w.stop()
	}
	c.nc.Close()
	for _, cl := range pending {
		cl.err = err
		cl.ch <- struct{}{}
	}
}

func (c *rpcConn) readLoop() {
	var src io.Reader = c.nc
	if c.raw != nil {
		src = c.raw
	}
	r := bufio.NewReaderSize(src, 64<<10)
	var lenBuf [4]byte
	for {
		if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
			c.fail(fmt.Errorf("read from %s: %w: %w", c.addr, ErrConnection, err))
			return
		}
		n := binary.BigEndian.Uint32(lenBuf[:])
		if n > 1<<30 {
			c.fail(fmt.Errorf("frame of %d bytes from %s: %w: %w", n, c.addr, ErrConnection, errCorrupt))
			return
		}
		fb := getFrame(int(n))
		if _, err := io.ReadFull(r, *fb); err != nil {
			framePool.Put(fb)
			c.fail(fmt.Errorf("read from %s: %w: %w", c.addr, ErrConnection, err))
			return
		}
		resp, err := parseResponseFrame(*fb)
		if err != nil {
			framePool.Put(fb)
			c.fail(fmt.Errorf("response from %s: %w: %w", c.addr, ErrConnection, err))
			return
		}
		if resp.callID == 0xFFFFFFFF {
			exc := parseException(resp.exception)
			var re *RemoteError
			if c.codec && c.noCodec != nil && errors.As(exc, &re) && re.Class == unsupportedCodec {
				c.noCodec.Store(true) // re-dials go without cell blocks
			}
			framePool.Put(fb)
			c.fail(fmt.Errorf("%s refused the connection: %w: %w", c.addr, ErrConnection, exc))
			return
		}
		c.mu.Lock()
		cl := c.pending[resp.callID]
		delete(c.pending, resp.callID)
		c.mu.Unlock()
		if cl == nil { // the caller gave up on it
			framePool.Put(fb)
			continue
		}
		cl.frame, cl.resp = fb, resp
		cl.ch <- struct{}{}
		if r.Buffered() == 0 {
			// Every response read so far is handed out: let the callers
			// it woke run (and send their next requests) before reading
			// again. The next read then finds more responses waiting
			// instead of failing with EAGAIN and parking on the poller.
			runtime.Gosched()
		}
	}
}

// call sends method(param) and waits for the response, ctx's end or timeout
// (0 = none). On success the caller decodes cl.resp.body (and its cell
// block cl.resp.cells) and must call cl.release. param is only read during
// the call.
func (c *rpcConn) call(ctx context.Context, method string, param []byte, timeout time.Duration) (*call, error) {
	return c.callCells(ctx, method, param, nil, timeout)
}

// callCells is call with a request cell block (nil: none); cells is only
// read during the call.
func (c *rpcConn) callCells(ctx context.Context, method string, param, cells []byte, timeout time.Duration) (*call, error) {
	return c.callPrio(ctx, method, c.prio, param, cells, timeout)
}

// callPrio is callCells with the header's priority given.
func (c *rpcConn) callPrio(ctx context.Context, method string, prio priority, param, cells []byte, timeout time.Duration) (*call, error) {
	cl := callPool.Get().(*call)
	id := c.nextID.Add(1)
	if id == 0xFFFFFFFF || id == 0 {
		id = c.nextID.Add(2)
	}

	// The server is told the smaller of the RPC timeout and the context's
	// remaining time; the client's own timeout only runs when the RPC
	// timeout is the smaller one (otherwise ctx.Done fires first): a long
	// one by the watchdog, a short one by the call's timer.
	serverTimeout := timeout
	if dl, ok := ctx.Deadline(); ok {
		if d := time.Until(dl); d > 0 && (timeout == 0 || d < timeout) {
			serverTimeout, timeout = d, 0
		}
	}
	var toMs uint32
	if serverTimeout > 0 {
		toMs = uint32(min(serverTimeout.Milliseconds()+1, 1<<31))
	}
	cl.method = method
	if timeout >= c.watchMin {
		cl.expiry, cl.timeout = monoNanos()+int64(timeout), timeout
		timeout = 0
	}
	done := ctx.Done()
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		cl.release()
		return nil, err
	}
	if done != nil && timeout == 0 {
		cl.done = c.watchedLocked(ctx, done)
	}
	c.pending[id] = cl
	c.mu.Unlock()
	c.send(id, method, prio, toMs, param, cells)

	if timeout > 0 {
		cl.timer.Reset(timeout)
		select {
		case <-cl.ch:
			cl.timer.Stop()
		case <-done:
			cl.timer.Stop()
			c.abandon(id, cl)
			return nil, fmt.Errorf("%s to %s: %w", method, c.addr, ctx.Err())
		case <-cl.timer.C:
			c.abandon(id, cl)
			return nil, fmt.Errorf("%s to %s: %w after %v: %w", method, c.addr, errTimeout, timeout, ErrConnection)
		}
	} else if done != nil && cl.done == nil {
		select {
		case <-cl.ch:
		case <-done:
			c.abandon(id, cl)
			return nil, fmt.Errorf("%s to %s: %w", method, c.addr, ctx.Err())
		}
	} else {
		<-cl.ch
	}
	if cl.err != nil {
		err := cl.err
		cl.release()
		return nil, err
	}
	if cl.resp.exception != nil {
		err := &connError{rc: c, err: parseException(cl.resp.exception)}
		cl.release()
		return nil, err
	}
	return cl, nil
}

// send queues one request frame and writes the queue unless another
// goroutine is already writing it. Concurrent callers thus share write
// system calls: whoever holds the writer role writes every frame queued
// meanwhile, the others return at once. A failed write kills the
// connection, failing every pending call (queued frames included).
func (c *rpcConn) send(id uint32, method string, prio priority, toMs uint32, param, cells []byte) {
	c.qmu.Lock()
	c.queue = appendRequestFrame(c.queue, id, method, prio, toMs, param, cells)
	if c.writing {
		c.qmu.Unlock()
		return
	}
	c.writing = true
	// Let the goroutines that are ready to run (callers woken by the same
	// read of responses, typically) queue their frames first: one write
	// then carries them all. Without this, on one CPU every call made its
	// own write system call, since nobody else runs while the writer is in
	// it.
	c.qmu.Unlock()
	runtime.Gosched()
	c.qmu.Lock()
	for len(c.queue) > 0 {
		buf := c.queue
		c.queue = c.spare[:0]
		c.qmu.Unlock()
		if c.writeTimeout > 0 {
			// Refresh the write deadline only when a quarter of it has
			// passed: a write never waits longer than writeTimeout, and
			// most writes skip the call.
			if t := now(); t.Sub(c.deadlineSet) > c.writeTimeout/4 {
				_ = c.nc.SetWriteDeadline(t.Add(c.writeTimeout))
				c.deadlineSet = t
			}
		}
		var err error
		if c.raw != nil {
			err = c.raw.write(buf)
		} else {
			_, err = c.nc.Write(buf)
		}
		c.qmu.Lock()
		c.spare = buf[:0]
		if err != nil {
			c.writing = false
			c.queue = c.queue[:0]
			c.qmu.Unlock()
			c.fail(fmt.Errorf("write to %s: %w: %w", c.addr, ErrConnection, err))
			return
		}
	}
	c.writing = false
	c.qmu.Unlock()
}

// abandon forgets a call whose caller stopped waiting. If the reader (or
// fail) already took it, its wake-up is consumed first so the call can be
// reused safely.
func (c *rpcConn) abandon(id uint32, cl *call) {
	c.mu.Lock()
	_, mine := c.pending[id]
	if mine {
		delete(c.pending, id)
	}
	c.mu.Unlock()
	if !mine {
		<-cl.ch
	}
	cl.release()
}
