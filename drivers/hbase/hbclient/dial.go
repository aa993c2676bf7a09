package hbclient

import (
	"context"
	"fmt"
	"time"
)

// dialCall is one dial in flight to a RegionServer, shared by every caller
// that needs the server meanwhile.
type dialCall struct {
	done chan struct{} // closed when rc or err is set
	rc   *rpcConn
	err  error
}

// regionConn returns the live ClientService connection to addr. Without
// one it joins the dial in flight to addr, or starts it: dials run on their
// own (bounded by DialTimeout and the client's life), so a hanging dial
// blocks neither other servers nor callers whose context or deadline ends
// first. A server on the recently-failed list fails at once.
func (c *Client) regionConn(ctx context.Context, addr string, deadline time.Time) (*rpcConn, error) {
	c.mu.RLock()
	rc, closed := c.conns[addr], c.closed
	c.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	if rc != nil && rc.alive() {
		return rc, nil
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	if rc = c.conns[addr]; rc != nil && rc.alive() {
		c.mu.Unlock()
		return rc, nil
	}
	d := c.dials[addr]
	if d == nil {
		if until, ok := c.failed[addr]; ok {
			if wait := time.Until(until); wait > 0 {
				c.mu.Unlock()
				return nil, fmt.Errorf("%s is in the failed servers list for %v more (its last dial failed): %w",
					addr, wait.Round(time.Millisecond), ErrConnection)
			}
			delete(c.failed, addr)
		}
		d = &dialCall{done: make(chan struct{})}
		c.dials[addr] = d
		go c.dial(addr, d)
	}
	c.mu.Unlock()

	var expired <-chan time.Time
	if dl, ok := ctx.Deadline(); !deadline.IsZero() && (!ok || deadline.Before(dl)) {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-d.done:
		return d.rc, d.err
	case <-ctx.Done():
		return nil, fmt.Errorf("connect to %s: %w", addr, ctx.Err())
	case <-expired:
		return nil, fmt.Errorf("connect to %s: operation deadline passed: %w: %w", addr, errTimeout, ErrConnection)
	}
}

// dial connects to addr for d and publishes the result: the connection in
// c.conns, or addr on the recently-failed list.
func (c *Client) dial(addr string, d *dialCall) {
	codec := !c.opts.PBCells && !c.noCodec.Load()
	c.stats.dials.Add(1)
	rc, err := dialConn(c.life, &c.opts, addr, "ClientService", codec, &c.noCodec)
	if err != nil {
		c.stats.failedDials.Add(1)
	}
	c.mu.Lock()
	delete(c.dials, addr)
	switch {
	case err == nil && c.closed:
		rc.close()
		rc, err = nil, ErrClosed
	case err == nil:
		c.conns[addr] = rc
	case !c.closed:
		c.failed[addr] = time.Now().Add(c.opts.FailedServerExpiry)
	}
	c.mu.Unlock()
	d.rc, d.err = rc, err
	close(d.done)
}

// dropServer handles a connection-level failure of addr that came from
// connection failed (nil if none, e.g. a failed dial): it closes that
// connection, unmaps it and forgets the server's regions. If addr is mapped
// to another, healthy connection meanwhile (a re-dial after the failure),
// the error is a late one of the old connection: the replacement, its calls
// and the regions cached since are left alone.
func (c *Client) dropServer(addr string, failed *rpcConn) {
	c.mu.Lock()
	cur := c.conns[addr]
	if cur != nil && cur != failed && cur.alive() {
		c.mu.Unlock()
		if failed != nil {
			failed.close()
		}
		return
	}
	delete(c.conns, addr)
	if c.metaAddr == addr {
		c.metaAddr = ""
	}
	c.mu.Unlock()
	if cur != nil {
		cur.close()
	}
	if failed != nil && failed != cur {
		failed.close()
	}
	c.cache.removeServer(addr)
}
