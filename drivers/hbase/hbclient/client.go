package hbclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Options configure a [Client]. Zero fields take the documented defaults.
type Options struct {
	// ZKQuorum lists ZooKeeper servers as host:port (default 127.0.0.1:2181).
	ZKQuorum []string
	// ZNodeParent is HBase's zookeeper.znode.parent (default /hbase).
	ZNodeParent string
	// MetaServer, if set, is the host:port of the RegionServer holding
	// hbase:meta, used instead of reading ZooKeeper (for tests and setups
	// without ZooKeeper access; a moved meta is then not found again).
	MetaServer string
	// User is the effective user sent in the connection header (default
	// "gobench"); with SIMPLE auth the server trusts it for ACL checks.
	User string
	// RPCTimeout bounds one RPC (default 60s); the server is told the
	// remaining time too.
	RPCTimeout time.Duration
	// OperationTimeout bounds an operation with all its retries when the
	// context has no deadline (default 120s).
	OperationTimeout time.Duration
	// RetryPause is the base pause of the backoff (default 100ms).
	RetryPause time.Duration
	// DialTimeout bounds connecting to a server or ZooKeeper (default 10s).
	DialTimeout time.Duration
	// ScanMaxResultSize caps the bytes per scan RPC (default 2 MiB).
	ScanMaxResultSize uint64
	// Dial opens TCP connections (default net.Dialer). Tests and setups with
	// unresolvable advertised host names can remap addresses here.
	Dial func(ctx context.Context, addr string) (net.Conn, error)
}

func (o *Options) setDefaults() {
	if len(o.ZKQuorum) == 0 {
		o.ZKQuorum = []string{"127.0.0.1:2181"}
	}
	if o.ZNodeParent == "" {
		o.ZNodeParent = "/hbase"
	}
	if o.User == "" {
		o.User = "gobench"
	}
	if o.RPCTimeout <= 0 {
		o.RPCTimeout = 60 * time.Second
	}
	if o.OperationTimeout <= 0 {
		o.OperationTimeout = 120 * time.Second
	}
	if o.RetryPause <= 0 {
		o.RetryPause = 100 * time.Millisecond
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 10 * time.Second
	}
	if o.ScanMaxResultSize == 0 {
		o.ScanMaxResultSize = 2 << 20
	}
	if o.Dial == nil {
		var d net.Dialer
		o.Dial = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
	}
}

// Client is a connection to one HBase 2.x cluster: a connection per
// RegionServer (and one to the master), a region cache, and the meta location
// from ZooKeeper. It is safe for concurrent use by many goroutines, which
// share its connections; calls on one connection are matched by call id.
type Client struct {
	opts  Options
	cache *regionCache

	mu        sync.RWMutex
	conns     map[string]*rpcConn // ClientService connections by host:port
	metaAddr  string
	master    *rpcConn
	closed    bool
	dialMu    sync.Mutex    // serializes dialling, so one connection per server
	lookupSem chan struct{} // capacity 1: serializes hbase:meta lookups
}

// New returns a client for opts. It does no I/O: connections open on first use.
func New(opts Options) *Client {
	opts.setDefaults()
	return &Client{opts: opts, cache: newRegionCache(), conns: make(map[string]*rpcConn), lookupSem: make(chan struct{}, 1)}
}

// Close closes every connection; calls in flight fail.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	conns := c.conns
	c.conns = map[string]*rpcConn{}
	m := c.master
	c.master = nil
	c.mu.Unlock()
	for _, rc := range conns {
		rc.close()
	}
	if m != nil {
		m.close()
	}
	return nil
}

// regionConn returns the live ClientService connection to addr, dialling it
// if needed.
func (c *Client) regionConn(ctx context.Context, addr string) (*rpcConn, error) {
	c.mu.RLock()
	rc, closed := c.conns[addr], c.closed
	c.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	if rc != nil && rc.alive() {
		return rc, nil
	}
	c.dialMu.Lock()
	defer c.dialMu.Unlock()
	c.mu.RLock()
	rc = c.conns[addr]
	c.mu.RUnlock()
	if rc != nil && rc.alive() {
		return rc, nil
	}
	rc, err := dialConn(ctx, &c.opts, addr, "ClientService")
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		rc.close()
		return nil, ErrClosed
	}
	c.conns[addr] = rc
	c.mu.Unlock()
	return rc, nil
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

func (c *Client) deadline(ctx context.Context) time.Time {
	if dl, ok := ctx.Deadline(); ok {
		return dl
	}
	return time.Now().Add(c.opts.OperationTimeout)
}

// retry handles err from attempt (0-based) of an operation on reg (nil when
// locating failed): it updates the caches as the error demands and sleeps
// the backoff. It returns nil if the operation should be tried again, or the
// error to return.
func (c *Client) retry(ctx context.Context, err error, reg *region, attempt int, deadline time.Time) error {
	if ctx.Err() != nil {
		return err
	}
	a := classify(err)
	switch a {
	case actFail:
		return err
	case actRelocate: // (actReopen keeps the location: the scan reopens there)
		if reg != nil {
			c.cache.remove(reg)
		}
	case actReconnect:
		if reg != nil {
			c.dropServer(reg.addr)
		}
	}
	var re *RemoteError
	overloaded := errors.As(err, &re) && re.Overloaded
	if !sleepUntil(ctx, backoff(c.opts.RetryPause, attempt, a, overloaded), deadline) {
		return fmt.Errorf("giving up after %d attempts: %w", attempt+1, err)
	}
	return nil
}
