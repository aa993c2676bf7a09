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
	if !deadline.IsZero() {
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
	rc, err := dialConn(c.life, &c.opts, addr, "ClientService")
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

// dropServer closes the connection to addr and forgets its regions.
func (c *Client) dropServer(addr string) {
	c.mu.Lock()
	rc := c.conns[addr]
	delete(c.conns, addr)
	if c.metaAddr == addr {
		c.metaAddr = ""
	}
	c.mu.Unlock()
	if rc != nil {
		rc.close()
	}
	c.cache.removeServer(addr)
}
