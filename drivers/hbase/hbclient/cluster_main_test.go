//go:build cluster

package hbclient

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/cluster"
)

// The tests of files tagged cluster need testenv's multi-node cluster
// (testenv/up.sh --cluster hdfs hbase: ZooKeeper 127.0.0.1:22181, an HMaster
// and RegionServers hbase-rs1..3 on 127.0.0.1:26021-26023); make test-cluster
// starts it. They fail, never skip, when it is not up. Each injects its
// faults with testenv/fault.sh (through testenv/cluster) and leaves every
// node running.

var shared *cluster.Cluster

func TestMain(m *testing.M) {
	c, err := cluster.Open()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = c
	code := m.Run()
	c.Close()
	os.Exit(code)
}

// openCluster fails the test unless HBase's nodes are up and HBase is ready
// (3 RegionServers, meta assigned, nothing in transition), so that each test
// starts from a healthy cluster whatever the one before did.
func openCluster(t *testing.T, ctx context.Context) *cluster.Cluster {
	t.Helper()
	if err := shared.Check(ctx, "hdfs", "hbase"); err != nil {
		t.Fatal(err)
	}
	if err := shared.HBase().WaitReady(ctx, 3, 3*time.Minute); err != nil {
		t.Fatalf("the cluster's HBase is not ready: %v", err)
	}
	return shared
}

// clusterOptions points o at the cluster's ZooKeeper.
func clusterOptions(o Options) Options {
	o.ZKQuorum = []string{cluster.ZooKeeperAddr}
	return o
}

// clusterClient returns a client of the cluster, closed when the test ends.
func clusterClient(t *testing.T, o Options) *Client {
	t.Helper()
	c := New(clusterOptions(o))
	t.Cleanup(func() { c.Close() })
	return c
}

// clusterTable creates a fresh table with family "f" pre-split into regions
// regions at YCSB's split points (user1000 + i*8999/(regions-1)), spread over
// the servers, and drops it when the test ends.
func clusterTable(t *testing.T, ctx context.Context, c *cluster.Cluster, regions int) string {
	t.Helper()
	name := fmt.Sprintf("gobench_hbcl_%s_%d", strings.ToLower(strings.TrimPrefix(t.Name(), "TestCluster")), time.Now().UnixNano()%1e6)
	per, err := c.HBase().CreateTable(ctx, name, "f", regions, false)
	if err != nil {
		t.Fatalf("create %s with %d regions: %v", name, regions, err)
	}
	t.Logf("table %s: %d regions, per server %v", name, regions, per)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := c.HBase().DropTable(ctx, name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	return name
}

// rowKey is row i of n: "user" + 4 digits spreading the rows evenly over
// YCSB's split points + i, so that rows 0..n-1 cover every region in order.
func rowKey(i, n int) string {
	return fmt.Sprintf("user%04d%07d", 1000+i*8999/n, i)
}

// loadRows puts rows 0..n-1 (value "v<i>" in f:q) with Multi batches.
func loadRows(t *testing.T, ctx context.Context, c *Client, table string, n int) {
	t.Helper()
	for lo := 0; lo < n; lo += 500 {
		var muts []Mutation
		for i := lo; i < min(lo+500, n); i++ {
			muts = append(muts, Mutation{Row: []byte(rowKey(i, n)), Type: Put, Family: []byte("f"),
				Qualifiers: [][]byte{[]byte("q")}, Values: [][]byte{[]byte("v" + strconv.Itoa(i))}})
		}
		if err := c.Multi(ctx, table, muts); err != nil {
			t.Fatalf("load rows %d-%d of %s: %v", lo, lo+len(muts)-1, table, err)
		}
	}
}

// readRow gets row i of n and checks its value.
func readRow(ctx context.Context, c *Client, table string, i, n int, res *Result) error {
	row := rowKey(i, n)
	if err := c.Get(ctx, table, []byte(row), []byte("f"), nil, res); err != nil {
		return err
	}
	if v, ok := res.Value([]byte("f"), []byte("q")); !ok || string(v) != "v"+strconv.Itoa(i) {
		return fmt.Errorf("row %s: value %q (found %v), want v%d", row, v, ok, i)
	}
	return nil
}

// nodeOf returns the testenv node name of a RegionServer address as the
// servers register it (localhost:26022 -> hbase-rs2).
func nodeOf(t *testing.T, addr string) string {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(p)
	n := cluster.RegionServerNode(port)
	if err != nil || n == "" {
		t.Fatalf("%q is no RegionServer of the cluster", addr)
	}
	return n
}

// addrOf returns the address node registers as (hbase-rs2 -> localhost:26022).
func addrOf(t *testing.T, node string) string {
	t.Helper()
	a, err := cluster.Addr(node)
	if err != nil {
		t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(a)
	return "localhost:" + p
}

// metaNode returns the node holding hbase:meta, as ZooKeeper says.
func metaNode(t *testing.T, ctx context.Context) string {
	t.Helper()
	c := clusterClient(t, Options{})
	addr, err := c.metaServer(ctx)
	if err != nil {
		t.Fatalf("locate hbase:meta: %v", err)
	}
	return nodeOf(t, addr)
}

// otherNode returns a RegionServer node that is none of not.
func otherNode(t *testing.T, not ...string) string {
	t.Helper()
	for _, n := range []string{"hbase-rs1", "hbase-rs2", "hbase-rs3"} {
		if !slices.Contains(not, n) {
			return n
		}
	}
	t.Fatalf("no RegionServer besides %v", not)
	return ""
}

// restartLater makes sure node runs (thawed) when the test ends.
func restartLater(t *testing.T, c *cluster.Cluster, node string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if st, err := c.State(ctx, node); err == nil && st == "frozen" {
			c.Thaw(ctx, node)
		}
		if err := c.Start(ctx, node); err != nil {
			t.Errorf("start %s again: %v", node, err)
		}
		if err := c.HBase().WaitReady(ctx, 3, 4*time.Minute); err != nil {
			t.Errorf("after the test the cluster is not ready again: %v", err)
		}
	})
}

// dialLog wraps the default dialer and records every dial per address: when,
// whether it failed, and the connections it made (to tell which of them the
// client closed).
type dialLog struct {
	d      net.Dialer
	sndBuf int // if > 0, the SO_SNDBUF of every connection
	mu     sync.Mutex
	dials  map[string][]dialRecord
}

type dialRecord struct {
	at  time.Time
	err error
	nc  *loggedConn
}

type loggedConn struct {
	net.Conn
	mu     sync.Mutex
	closed time.Time // when the client closed it (zero: open)
}

func (c *loggedConn) Close() error {
	c.mu.Lock()
	if c.closed.IsZero() {
		c.closed = time.Now()
	}
	c.mu.Unlock()
	return c.Conn.Close()
}

func (c *loggedConn) closedAt() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

func newDialLog() *dialLog { return &dialLog{dials: map[string][]dialRecord{}} }

func (l *dialLog) dial(ctx context.Context, addr string) (net.Conn, error) {
	at := time.Now()
	nc, err := l.d.DialContext(ctx, "tcp", addr)
	rec := dialRecord{at: at, err: err}
	if err == nil {
		if tc, ok := nc.(*net.TCPConn); ok && l.sndBuf > 0 {
			_ = tc.SetWriteBuffer(l.sndBuf)
		}
		rec.nc = &loggedConn{Conn: nc}
		nc = rec.nc
	}
	l.mu.Lock()
	l.dials[addr] = append(l.dials[addr], rec)
	l.mu.Unlock()
	return nc, err
}

// of returns the dials to addr so far.
func (l *dialLog) of(addr string) []dialRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]dialRecord(nil), l.dials[addr]...)
}

// opLog records each operation of the workers: when it started and ended,
// which node served its row (as cached when it started, "" if unknown), and
// its error.
type opLog struct {
	mu  sync.Mutex
	ops []opRecord
}

type opRecord struct {
	start, end time.Time
	deadline   time.Time
	row        int
	err        error
}

func (l *opLog) add(r opRecord) {
	l.mu.Lock()
	l.ops = append(l.ops, r)
	l.mu.Unlock()
}

func (l *opLog) all() []opRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]opRecord(nil), l.ops...)
}
