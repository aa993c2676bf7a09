package hbclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
	"github.com/gobench/gobench/drivers/hbase/pb"
)

// metaServer serves hbase:meta for table t split at splits, every region at
// server. Each lookup returns only the region of the row asked for (no
// prefetch), after hold(row) returns. It counts lookups and the most in
// flight at once.
type metaServer struct {
	splits []string
	server string
	hold   func(row string)

	lookups, inFlight, maxInFlight atomic.Int32
	mu                             sync.Mutex
	rows                           []string
}

func (m *metaServer) handle(s *hbtest.Server, id uint32, method, param []byte) {
	var req pb.ScanRequest
	if err := proto.Unmarshal(param, &req); err != nil || string(req.GetRegion().GetValue()) != "hbase:meta,,1" {
		s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "NotServingRegionException")})
		return
	}
	start := string(req.GetScan().GetStartRow()) // t,<row>,99999999999999
	row := strings.TrimSuffix(strings.TrimPrefix(start, "t,"), ",99999999999999")
	m.lookups.Add(1)
	m.mu.Lock()
	m.rows = append(m.rows, row)
	m.mu.Unlock()
	n := m.inFlight.Add(1)
	for {
		old := m.maxInFlight.Load()
		if n <= old || m.maxInFlight.CompareAndSwap(old, n) {
			break
		}
	}
	go func() {
		if m.hold != nil {
			m.hold(row)
		}
		m.inFlight.Add(-1)
		lo, hi := "", ""
		for _, sp := range m.splits {
			if sp <= row {
				lo = sp
			} else {
				hi = sp
				break
			}
		}
		s.ReplyMsg(id, &pb.ScanResponse{Results: []*pb.Result{metaRowResult("t", lo, hi, m.server)}, MoreResults: proto.Bool(false)})
	}()
}

// metaNet returns a fake network with meta at meta:1 (m) and a RegionServer
// rs:1 answering Gets, and a client on it with nothing cached.
func metaNet(t *testing.T, m *metaServer) (*hbtest.Net, *Client) {
	n := hbtest.NewNet(t)
	n.Serve("meta:1", m.handle)
	n.Serve("rs:1", echoHandler)
	c := New(Options{Dial: n.Dial, MetaServer: "meta:1", RetryPause: time.Millisecond, OperationTimeout: 5 * time.Second})
	t.Cleanup(func() { c.Close() })
	return n, c
}

// TestClientConcurrentMetaLookups: lookups of rows in different regions run
// concurrently (at most 8 at once, as Java's
// hbase.client.meta.max.concurrent.locate.per.table), not one at a time.
func TestClientConcurrentMetaLookups(t *testing.T) {
	for _, tc := range []struct{ rows, want int }{{4, 4}, {20, 8}} {
		var splits []string
		for i := 1; i < tc.rows; i++ {
			splits = append(splits, fmt.Sprintf("r%02d", i))
		}
		m := &metaServer{splits: splits, server: "rs:1"}
		release := make(chan struct{})
		m.hold = func(string) {
			select {
			case <-release:
			case <-time.After(time.Second):
			}
		}
		_, c := metaNet(t, m)
		var wg sync.WaitGroup
		errs := make(chan error, tc.rows)
		for i := 0; i < tc.rows; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var res Result
				if err := c.Get(context.Background(), "t", []byte(fmt.Sprintf("r%02d", i)), nil, nil, &res); err != nil {
					errs <- err
				}
			}()
		}
		waitFor(t, fmt.Sprintf("%d lookups in flight", tc.want), func() bool { return m.inFlight.Load() >= int32(tc.want) })
		time.Sleep(50 * time.Millisecond) // a ninth would start now if allowed
		close(release)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("Get: %v", err)
		}
		if got := m.maxInFlight.Load(); got != int32(tc.want) || m.lookups.Load() != int32(tc.rows) {
			t.Errorf("%d rows in distinct regions: at most %d lookups in flight, %d in all; want %d at once, %d in all", tc.rows, got, m.lookups.Load(), tc.want, tc.rows)
		}
		if st := c.Stats(); st.MaxMetaLookupsInFlight != int64(tc.want) || st.MetaLookups != int64(tc.rows) {
			t.Errorf("Stats %+v; want %d lookups, at most %d in flight", st, tc.rows, tc.want)
		}
	}
}

// TestClientMetaLookupDeduplicated: concurrent misses on the same row make
// one lookup; a waiter leaves at its own deadline while it runs.
func TestClientMetaLookupDeduplicated(t *testing.T) {
	m := &metaServer{server: "rs:1", hold: func(string) { time.Sleep(300 * time.Millisecond) }}
	_, c := metaNet(t, m)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res Result
			if err := c.Get(context.Background(), "t", []byte("row"), nil, nil, &res); err != nil {
				t.Errorf("Get: %v", err)
			}
		}()
	}
	waitFor(t, "the lookup", func() bool { return m.lookups.Load() > 0 })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	start := time.Now()
	var res Result
	err := c.Get(ctx, "t", []byte("row"), nil, nil, &res)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 200*time.Millisecond {
		t.Errorf("Get with a 50ms context during a 300ms lookup: %v after %v; want DeadlineExceeded at ~50ms", err, time.Since(start))
	}
	wg.Wait()
	if n := m.lookups.Load(); n != 1 {
		t.Errorf("9 concurrent misses on one row made %d meta lookups, want 1", n)
	}
}

// TestClientRegionMovedUsesNewLocation: a RegionMovedException (as the
// call's exception, or as a Multi region exception whose message carries the
// location) sends the retry to the new server without a meta lookup.
func TestClientRegionMovedUsesNewLocation(t *testing.T) {
	n := hbtest.NewNet(t)
	m := &metaServer{server: "rs2:1"}
	n.Serve("meta:1", m.handle)
	moved := pkg + "exceptions.RegionMovedException"
	msg := "Region moved to: hostname=rs2 port=1 startCode=1700000000000. As of locationSeqNum=42."
	var rs1 atomic.Int32
	n.Serve("rs1:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		rs1.Add(1)
		switch string(method) {
		case "Multi":
			var req pb.MultiRequest
			_ = proto.Unmarshal(param, &req)
			resp := &pb.MultiResponse{}
			for range req.GetRegionAction() {
				resp.RegionActionResult = append(resp.RegionActionResult, &pb.RegionActionResult{
					Exception: &pb.NameBytesPair{Name: proto.String(moved), Value: []byte(msg)}})
			}
			s.ReplyMsg(id, resp)
		default:
			s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(moved), StackTrace: proto.String(msg),
				Hostname: proto.String("rs2"), Port: proto.Int32(1)})
		}
	})
	var rs2 atomic.Int32
	n.Serve("rs2:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		rs2.Add(1)
		if string(method) == "Multi" {
			var req pb.MultiRequest
			_ = proto.Unmarshal(param, &req)
			rar := &pb.RegionActionResult{}
			for _, a := range req.GetRegionAction()[0].GetAction() {
				rar.ResultOrException = append(rar.ResultOrException, &pb.ResultOrException{Index: proto.Uint32(a.GetIndex()), Result: &pb.Result{}})
			}
			s.ReplyMsg(id, &pb.MultiResponse{RegionActionResult: []*pb.RegionActionResult{rar}})
			return
		}
		echoHandler(s, id, method, param)
	})
	c := New(Options{Dial: n.Dial, MetaServer: "meta:1", RetryPause: time.Millisecond, OperationTimeout: 5 * time.Second})
	defer c.Close()
	put := Mutation{Row: []byte("a"), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("v")}
	for _, op := range []struct {
		name string
		run  func() error
	}{
		{"Get", func() error { var r Result; return c.Get(context.Background(), "t", []byte("a"), nil, nil, &r) }},
		{"Multi", func() error { return c.Multi(context.Background(), "t", []Mutation{put}) }},
	} {
		c.cache.removeTable("t")
		c.cache.put(&region{table: "t", name: []byte("t,,1.x."), addr: "rs1:1"})
		rs1.Store(0)
		rs2.Store(0)
		err := op.run()
		r := c.cache.get("t", []byte("a"))
		if err != nil || rs1.Load() != 1 || rs2.Load() != 1 || m.lookups.Load() != 0 || r == nil || r.addr != "rs2:1" {
			t.Errorf("%s of a region moved from rs1 to rs2: %v; calls rs1 %d, rs2 %d, meta lookups %d, cached at %v; want success, 1, 1, 0, rs2:1",
				op.name, err, rs1.Load(), rs2.Load(), m.lookups.Load(), r)
		}
	}
}

// TestClientRegionMovedPingPong: two servers answer RegionMovedException
// for a region, each naming the other (as HBase 2.6 did on the cluster
// after a move away and back and a split). The client follows the first
// location, sees the second point back, asks hbase:meta and reads from the
// server meta names: bounded, with one lookup. A chain of moves longer than
// maxMovedHops also ends in a lookup.
func TestClientRegionMovedPingPong(t *testing.T) {
	moved := pkg + "exceptions.RegionMovedException"
	movedTo := func(host string) func(s *hbtest.Server, id uint32, method, param []byte) {
		return func(s *hbtest.Server, id uint32, method, param []byte) {
			s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(moved),
				StackTrace: proto.String("Region moved to: hostname=" + host + " port=1 startCode=1. As of locationSeqNum=7."),
				Hostname:   proto.String(host), Port: proto.Int32(1)})
		}
	}
	for _, tc := range []struct {
		name  string
		chain []string // each server names the next as the region's home, the last names the first
		calls int      // calls to them before the lookup
	}{
		{"ping-pong", []string{"rs1", "rs2"}, 2},
		{"long chain", []string{"rs1", "rs2", "rs4", "rs5", "rs6", "rs7"}, maxMovedHops + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := hbtest.NewNet(t)
			m := &metaServer{server: "rs3:1"}
			n.Serve("meta:1", m.handle)
			var calls atomic.Int32
			for i, h := range tc.chain {
				f := movedTo(tc.chain[(i+1)%len(tc.chain)])
				n.Serve(h+":1", func(s *hbtest.Server, id uint32, method, param []byte) { calls.Add(1); f(s, id, method, param) })
			}
			n.Serve("rs3:1", echoHandler)
			c := New(Options{Dial: n.Dial, MetaServer: "meta:1", RetryPause: time.Millisecond, OperationTimeout: 5 * time.Second})
			defer c.Close()
			c.cache.put(&region{table: "t", name: []byte("t,,1.x."), addr: "rs1:1"})
			var res Result
			err := c.Get(context.Background(), "t", []byte("a"), nil, nil, &res)
			if err != nil || int(calls.Load()) != tc.calls || m.lookups.Load() != 1 {
				t.Errorf("Get of a region redirected through %v: %v; %d calls to them, %d meta lookups; want success, %d, 1",
					tc.chain, err, calls.Load(), m.lookups.Load(), tc.calls)
			}
			if st := c.Stats(); st.MetaLookups != 1 || st.MovedFollowed != int64(tc.calls-1) || st.Dials != int64(tc.calls+2) || st.FailedDials != 0 {
				t.Errorf("Stats %+v; want 1 meta lookup, %d locations followed, %d dials (meta and rs3 too), none failed", st, tc.calls-1, tc.calls+2)
			}
			if r := c.cache.get("t", []byte("a")); r == nil || r.addr != "rs3:1" || r.hops != 0 {
				t.Errorf("cached after the lookup: %+v; want rs3:1 with no hops", r)
			}
		})
	}
}

// TestClientServerNotRunningYetKeepsConnection: a RegionServer that was
// started again answers ServerNotRunningYetException until it is ready.
// The client drops the server's cached regions (the retry reads meta,
// which may have moved them meanwhile) but keeps the connection that
// carried the answer: one dial, not one per retry.
func TestClientServerNotRunningYetKeepsConnection(t *testing.T) {
	n := hbtest.NewNet(t)
	m := &metaServer{server: "rs:1"}
	n.Serve("meta:1", m.handle)
	var gets atomic.Int32
	n.Serve("rs:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		if string(method) == "Get" && gets.Add(1) <= 2 {
			s.ReplyException(id, &pb.ExceptionResponse{ExceptionClassName: proto.String(pkg + "ipc.ServerNotRunningYetException"),
				StackTrace: proto.String("Server localhost,16020,1 is not running yet")})
			return
		}
		echoHandler(s, id, method, param)
	})
	c := New(Options{Dial: n.Dial, MetaServer: "meta:1", RetryPause: time.Millisecond, OperationTimeout: 5 * time.Second})
	defer c.Close()
	var res Result
	if err := c.Get(context.Background(), "t", []byte("a"), nil, nil, &res); err != nil {
		t.Fatal(err)
	}
	if d := n.Dials("rs:1"); d != 1 || gets.Load() != 3 || m.lookups.Load() != 3 {
		t.Errorf("3 Gets (2 answered ServerNotRunningYet): %d dials to the server, %d meta lookups; want 1 dial, 3 lookups", d, m.lookups.Load())
	}
}

// TestClientRequestPriorities: every RegionServer call carries a priority in
// its header, as Java's client's do, so the server need not work one out
// per call (by reflection and a region lookup): hbase:meta lookups
// SYSTEMTABLE_QOS (200), Gets and Mutates of a user table NORMAL_QOS (0).
func TestClientRequestPriorities(t *testing.T) {
	m := &metaServer{server: "rs:1"}
	var metaPrio, getPrio, mutatePrio atomic.Int64
	for _, p := range []*atomic.Int64{&metaPrio, &getPrio, &mutatePrio} {
		p.Store(-2)
	}
	n := hbtest.NewNet(t)
	n.Serve("meta:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		metaPrio.Store(s.Priority())
		m.handle(s, id, method, param)
	})
	n.Serve("rs:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		switch string(method) {
		case "Get":
			getPrio.Store(s.Priority())
		case "Mutate":
			mutatePrio.Store(s.Priority())
		}
		echoHandler(s, id, method, param)
	})
	c := New(Options{Dial: n.Dial, MetaServer: "meta:1", RetryPause: time.Millisecond, OperationTimeout: 5 * time.Second})
	t.Cleanup(func() { c.Close() })
	var res Result
	if err := c.Get(context.Background(), "t", []byte("r1"), []byte("f"), nil, &res); err != nil {
		t.Fatalf("Get: %v", err)
	}
	mu := Mutation{Row: []byte("r1"), Type: Put, Family: []byte("f"), Qualifiers: bs("a"), Values: bs("1")}
	if err := c.Mutate(context.Background(), "t", &mu); err != nil {
		t.Fatalf("Mutate: %v", err)
	}
	if metaPrio.Load() != 200 || getPrio.Load() != 0 || mutatePrio.Load() != 0 {
		t.Errorf("priorities: meta lookup %d, Get %d, Mutate %d; want 200, 0, 0 (-1: none sent)", metaPrio.Load(), getPrio.Load(), mutatePrio.Load())
	}
}
