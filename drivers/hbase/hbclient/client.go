package hbclient

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
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
	// OperationTimeout bounds an operation with all its retries, counted
	// from its start, when the context has no deadline (default 120s).
	OperationTimeout time.Duration
	// RetryPause is the base pause of the backoff (default 100ms, Java's
	// hbase.client.pause): retry n waits RetryPause times HBase's
	// RETRY_BACKOFF[n-1] (1, 2, 3, 5, 10, 20, 40, 100, 100, 100, 100, 200,
	// 200, then 200 again), plus up to 1% jitter.
	RetryPause time.Duration
	// PauseServerOverloaded replaces RetryPause after an error the server
	// marks overloaded (call queue full; default RetryPause, as Java's
	// hbase.client.pause.server.overloaded).
	PauseServerOverloaded time.Duration
	// Retries caps the retries of one operation (default 15, Java's
	// hbase.client.retries.number; negative: none), besides its deadline.
	Retries int
	// DialTimeout bounds connecting to a server or ZooKeeper (default 10s).
	// A dial to a RegionServer runs on its own, shared by every caller
	// that needs that server; each caller waits at most until its context
	// (or operation deadline) ends.
	DialTimeout time.Duration
	// FailedServerExpiry is how long a RegionServer whose dial failed stays
	// on the recently-failed list (default 2s, Java's
	// hbase.ipc.client.failed.servers.expiry): calls to it fail at once
	// with an error wrapping [ErrConnection] instead of dialling again.
	FailedServerExpiry time.Duration
	// PBCells makes RegionServer connections carry every cell inline in
	// protobuf, as Java's client with hbase.client.rpc.codec set empty.
	// By default they name the KeyValueCodec and cells travel in cell
	// blocks both ways (Java's default); a client whose server refuses the
	// codec falls back to protobuf cells by itself.
	PBCells bool
	// ScanMaxResultSize caps the bytes per scan RPC (default 2 MiB).
	ScanMaxResultSize uint64
	// Kerberos, if set, authenticates every connection with SASL GSSAPI
	// (hbase.security.authentication=kerberos; see kerberos.go); User is
	// then ignored, the server takes the Kerberos principal. nil: SIMPLE.
	Kerberos *Kerberos
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
	if o.PauseServerOverloaded <= 0 {
		o.PauseServerOverloaded = o.RetryPause
	}
	switch {
	case o.Retries == 0:
		o.Retries = 15
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 10 * time.Second
	}
	if o.FailedServerExpiry <= 0 {
		o.FailedServerExpiry = 2 * time.Second
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

	mu       sync.RWMutex
	conns    map[string]*rpcConn  // ClientService connections by host:port
	dials    map[string]*dialCall // dials in flight by host:port
	failed   map[string]time.Time // recently failed servers: when they may be dialled again
	metaAddr string
	master   *rpcConn
	closed   bool

	life context.Context // ends when the client closes: stops dials and lookups in flight
	stop context.CancelFunc

	noCodec atomic.Bool // a server refused the KeyValueCodec: dial without it

	lookupSem chan struct{} // capacity maxLookups: hbase:meta lookups in flight
	lookupMu  sync.Mutex
	lookups   map[string]*lookupCall // by table + "\x00" + row

	stats struct {
		lookups, inFlight, maxInFlight atomic.Int64
		dials, failedDials, moved      atomic.Int64
		zkReads                        atomic.Int64
	}
}

// Stats counts what a [Client] did to find regions and reach servers since
// it was made.
type Stats struct {
	// MetaLookups is the number of hbase:meta scans sent to locate rows;
	// MaxMetaLookupsInFlight the most of them in flight at once.
	MetaLookups, MaxMetaLookupsInFlight int64
	// Dials and FailedDials count RegionServer connections attempted and
	// those that failed (a server on the recently-failed list is not
	// dialled, so it adds to neither).
	Dials, FailedDials int64
	// MovedFollowed counts RegionMovedException locations used directly,
	// without a meta lookup.
	MovedFollowed int64
	// MetaLocates counts the reads of hbase:meta's location from
	// ZooKeeper (at the first lookup, and after meta's server failed).
	MetaLocates int64
}

// Stats returns the client's counts so far; safe for concurrent use.
func (c *Client) Stats() Stats {
	return Stats{MetaLookups: c.stats.lookups.Load(), MaxMetaLookupsInFlight: c.stats.maxInFlight.Load(),
		Dials: c.stats.dials.Load(), FailedDials: c.stats.failedDials.Load(), MovedFollowed: c.stats.moved.Load(),
		MetaLocates: c.stats.zkReads.Load()}
}

// New returns a client for opts. It does no I/O: connections open on first use.
func New(opts Options) *Client {
	opts.setDefaults()
	life, stop := context.WithCancel(context.Background())
	return &Client{opts: opts, cache: newRegionCache(), conns: make(map[string]*rpcConn),
		dials: make(map[string]*dialCall), failed: make(map[string]time.Time),
		life: life, stop: stop, lookupSem: make(chan struct{}, maxLookups), lookups: make(map[string]*lookupCall)}
}

// Close closes every connection; calls in flight fail.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	c.stop()
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

// deadline returns when an operation starting now must end: ctx's
// deadline, or OperationTimeout from now. Every attempt, its RPCs and its
// waits for a dial or a meta lookup are bounded by it.
func (c *Client) deadline(ctx context.Context) time.Time {
	if dl, ok := ctx.Deadline(); ok {
		return dl
	}
	return now().Add(c.opts.OperationTimeout)
}

// rpcTimeout bounds one RPC of an operation ending at deadline: the RPC
// timeout, or the time left if that is shorter (at least 1ms).
func (c *Client) rpcTimeout(deadline time.Time) time.Duration {
	d := c.opts.RPCTimeout
	if !deadline.IsZero() {
		if left := time.Until(deadline); left < d {
			d = max(left, time.Millisecond)
		}
	}
	return d
}
