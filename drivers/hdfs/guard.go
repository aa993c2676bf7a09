package hdfs

import (
	"context"
	"net"
	"sync"
	"time"
)

// The colinmarc client takes no context and sets no deadline on a DataNode
// connection until its handshake is done. A guard bounds every network call
// of one client instead: it wraps the NameNode and DataNode connections the
// client dials, and before each Read or Write sets a deadline of
//
//	min(now + hdfs.timeout, the deadline of the operation's context, a deadline the client set)
//
// When the operation's context is cancelled, the guard moves every
// connection's deadline into the past, so a call blocked on a hung server
// returns at once. A NameNode RPC cut that way leaves its answer in the
// connection (the client would read it as the next call's), so any failed
// NameNode read or write marks the client broken, and [Conn] replaces it
// before its next operation.
type guard struct {
	timeout time.Duration // per network call; 0 = none

	mu          sync.Mutex
	conns       map[*guardedConn]struct{}
	ctx         context.Context // of the operation in progress; nil between operations
	deadline    time.Time       // ctx's deadline; zero if none
	gen         uint64          // bumped by begin and end: a late interrupt of an old operation does nothing
	interrupted bool            // ctx ended during the operation in progress
	broken      bool            // a NameNode connection failed: replace the client
	stop        func() bool     // stops the interrupt of the operation in progress
}

// past is a deadline that has passed: I/O with it fails at once.
var past = time.Unix(1, 0)

func newGuard(timeout time.Duration) *guard {
	return &guard{timeout: timeout, conns: make(map[*guardedConn]struct{})}
}

// begin starts an operation under ctx (one at a time per guard). It returns
// ctx's error, and starts nothing, if ctx is already done. end must follow.
func (g *guard) begin(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g.mu.Lock()
	g.gen++
	gen := g.gen
	g.ctx = ctx
	g.deadline, _ = ctx.Deadline()
	g.interrupted = false
	g.mu.Unlock()
	if ctx.Done() != nil {
		g.stop = context.AfterFunc(ctx, func() { g.interrupt(gen) })
	}
	return nil
}

// end ends the operation begun last.
func (g *guard) end() {
	if g.stop != nil {
		g.stop()
		g.stop = nil
	}
	g.mu.Lock()
	g.gen++
	g.ctx = nil
	g.deadline = time.Time{}
	g.interrupted = false
	g.mu.Unlock()
}

// interrupt fails the pending and future I/O of operation gen.
func (g *guard) interrupt(gen uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if gen != g.gen || g.ctx == nil {
		return
	}
	g.interrupted = true
	for c := range g.conns {
		c.Conn.SetDeadline(past)
	}
}

// takeBroken reports whether the client must be replaced, and clears it.
func (g *guard) takeBroken() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.broken
	g.broken = false
	return b
}

// retire fails all I/O on the connections dialled so far, for good, and
// marks the client broken: it is being closed.
func (g *guard) retire() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.broken = true
	for c := range g.conns {
		c.dead = true
		c.Conn.SetDeadline(past)
	}
	clear(g.conns)
}

// dialer returns a dial function for the client: it dials under the
// operation's context and wraps the connection. nn marks NameNode
// connections, whose failures break the client.
func (g *guard) dialer(d *net.Dialer, nn bool) func(context.Context, string, string) (net.Conn, error) {
	return func(_ context.Context, network, addr string) (net.Conn, error) {
		g.mu.Lock()
		ctx, interrupted := g.ctx, g.interrupted
		g.mu.Unlock()
		if ctx == nil {
			ctx = context.Background() // the client's lease renewer, between operations
		}
		if interrupted {
			return nil, ctx.Err()
		}
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			if nn {
				g.mu.Lock()
				g.broken = true
				g.mu.Unlock()
			}
			return nil, err
		}
		c := &guardedConn{Conn: nc, g: g, nn: nn}
		g.mu.Lock()
		g.conns[c] = struct{}{}
		if g.interrupted {
			nc.SetDeadline(past)
		}
		g.mu.Unlock()
		return c, nil
	}
}

// failed records that a call on c failed.
func (g *guard) failed(c *guardedConn) {
	if !c.nn {
		return // a DataNode connection serves one block; the client drops it
	}
	g.mu.Lock()
	if !c.dead {
		g.broken = true
	}
	g.mu.Unlock()
}

// deadlineLocked is the deadline for the next call on c. g.mu is held.
func (g *guard) deadlineLocked(c *guardedConn) time.Time {
	if c.dead || g.interrupted {
		return past
	}
	d := c.own
	if g.timeout > 0 {
		if t := time.Now().Add(g.timeout); d.IsZero() || t.Before(d) {
			d = t
		}
	}
	if !g.deadline.IsZero() && (d.IsZero() || g.deadline.Before(d)) {
		d = g.deadline
	}
	return d
}

// guardedConn is a connection the client dialled through a guard.
type guardedConn struct {
	net.Conn
	g    *guard
	nn   bool
	own  time.Time // the deadline the client set; under g.mu
	dead bool      // retired; under g.mu
}

func (c *guardedConn) Read(b []byte) (int, error) {
	c.g.mu.Lock()
	err := c.Conn.SetReadDeadline(c.g.deadlineLocked(c))
	c.g.mu.Unlock()
	if err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(b)
	if err != nil {
		c.g.failed(c)
	}
	return n, err
}

func (c *guardedConn) Write(b []byte) (int, error) {
	c.g.mu.Lock()
	err := c.Conn.SetWriteDeadline(c.g.deadlineLocked(c))
	c.g.mu.Unlock()
	if err != nil {
		return 0, err
	}
	n, err := c.Conn.Write(b)
	if err != nil {
		c.g.failed(c)
	}
	return n, err
}

// SetDeadline records the client's own deadline; the guard combines it with
// its own on every call.
func (c *guardedConn) SetDeadline(t time.Time) error {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	c.own = t
	return c.Conn.SetDeadline(c.g.deadlineLocked(c))
}

func (c *guardedConn) SetReadDeadline(t time.Time) error  { return c.SetDeadline(t) }
func (c *guardedConn) SetWriteDeadline(t time.Time) error { return c.SetDeadline(t) }

func (c *guardedConn) Close() error {
	c.g.mu.Lock()
	delete(c.g.conns, c)
	c.g.mu.Unlock()
	return c.Conn.Close()
}
