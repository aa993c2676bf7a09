package hbclient

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
)

// netClient returns a client on the fake network n with table t split at
// "m": [,m) at addrA and [m,) at addrB, both cached.
func netClient(t *testing.T, n *hbtest.Net, addrA, addrB string, o Options) *Client {
	t.Helper()
	o.Dial = n.Dial
	if o.RetryPause == 0 {
		o.RetryPause = time.Millisecond
	}
	if o.OperationTimeout == 0 {
		o.OperationTimeout = 5 * time.Second
	}
	c := New(o)
	c.cache.put(&region{table: "t", name: []byte("t,,1.a."), end: []byte("m"), addr: addrA})
	c.cache.put(&region{table: "t", name: []byte("t,m,1.b."), start: []byte("m"), addr: addrB})
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClientDialDoesNotSerialiseServers: while a dial to a blackholed
// server hangs, a dial to a live server with a 100ms context succeeds, and
// a second caller waiting for the hanging dial leaves at its own deadline.
func TestClientDialDoesNotSerialiseServers(t *testing.T) {
	n := hbtest.NewNet(t)
	n.Blackhole("dead:1")
	n.Serve("live:1", echoHandler)
	c := netClient(t, n, "dead:1", "live:1", Options{DialTimeout: time.Second})
	hung := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
		defer cancel()
		var res Result
		hung <- c.Get(ctx, "t", []byte("a"), nil, nil, &res)
	}()
	waitFor(t, "a dial to dead:1", func() bool { return n.Dials("dead:1") > 0 })

	for _, tc := range []struct {
		row  string
		fail bool
	}{{"z", false}, {"b", true}} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		var res Result
		err := c.Get(ctx, "t", []byte(tc.row), nil, nil, &res)
		cancel()
		took := time.Since(start)
		if took > 500*time.Millisecond || (err != nil) != tc.fail {
			t.Errorf("Get row %s with a 100ms context while dead:1's dial hangs: %v after %v; want error=%v within 100ms (+slack)", tc.row, err, took, tc.fail)
		}
	}
	if d := n.Dials("dead:1"); d != 1 {
		t.Errorf("%d dials to dead:1, want 1 (one dial in flight per server, shared)", d)
	}
	if err := <-hung; err == nil {
		t.Errorf("Get on the blackholed server succeeded")
	}
}

// TestClientFailedServers: a server whose dial failed is not dialled again
// for FailedServerExpiry; operations on it fail fast meanwhile, then it is
// retried.
func TestClientFailedServers(t *testing.T) {
	n := hbtest.NewNet(t)
	n.Refuse("dead:1")
	c := netClient(t, n, "dead:1", "dead:1", Options{FailedServerExpiry: 300 * time.Millisecond})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.regionConn(context.Background(), "dead:1", time.Time{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, ErrConnection) || classify(err) != actReconnect {
			t.Errorf("caller %d: %v; want a connection error", i, err)
		}
	}
	if d := n.Dials("dead:1"); d != 1 {
		t.Errorf("%d dials after one refused dial, want 1", d)
	}
	_, err := c.regionConn(context.Background(), "dead:1", time.Time{})
	if !strings.Contains(fmtErr(err), "failed servers") {
		t.Errorf("dial within the expiry: %v; want a failed-servers error", err)
	}
	time.Sleep(350 * time.Millisecond)
	n.Serve("dead:1", echoHandler)
	if _, err := c.regionConn(context.Background(), "dead:1", time.Time{}); err != nil || n.Dials("dead:1") != 2 {
		t.Errorf("dial after the expiry: %v, %d dials; want a new dial that succeeds", err, n.Dials("dead:1"))
	}
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// waitFor polls cond for up to 2 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestClientLateErrorKeepsReplacement: a connection error that arrives
// from an old connection after the client re-dialled must not close the
// healthy replacement (nor drop the regions cached since).
func TestClientLateErrorKeepsReplacement(t *testing.T) {
	n := hbtest.NewNet(t)
	var got sync.WaitGroup
	got.Add(1)
	n.Serve("rs:1", func(s *hbtest.Server, id uint32, method, param []byte) {
		if string(param) == "hang" {
			got.Done()
			return // never answered
		}
		s.Reply(id, nil)
	})
	c := netClient(t, n, "rs:1", "rs:1", Options{})
	ctx := context.Background()
	rcA, err := c.regionConn(ctx, "rs:1", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := rcA.call(ctx, "Get", []byte("hang"), 5*time.Second)
		errc <- err
	}()
	got.Wait()
	n.Disconnect("rs:1")
	errA := <-errc
	if !errors.Is(errA, ErrConnection) {
		t.Fatalf("call on the disconnected connection: %v; want ErrConnection", errA)
	}
	rcB, err := c.regionConn(ctx, "rs:1", time.Time{})
	if err != nil || rcB == rcA {
		t.Fatalf("re-dial: %v (same connection: %v)", err, rcB == rcA)
	}
	reg := c.cache.get("t", []byte("a"))
	rt := c.retrier(ctx)
	if err := rt.retry(ctx, errA, reg); err != nil {
		t.Fatalf("retry of the late error: %v", err)
	}
	c.mu.RLock()
	mapped := c.conns["rs:1"]
	c.mu.RUnlock()
	if !rcB.alive() || mapped != rcB {
		t.Errorf("the late error of the old connection closed its replacement (alive %v, still mapped %v)", rcB.alive(), mapped == rcB)
	}
	if cl, err := rcB.call(ctx, "Get", []byte("x"), time.Second); err != nil {
		t.Errorf("call on the replacement: %v", err)
	} else {
		cl.release()
	}
}
