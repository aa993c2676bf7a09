//go:build integration

package hbclient

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
)

// TestIntegrationDialBlackholedServerDoesNotStall: while a dial to a
// RegionServer that drops every packet hangs (a real 127.0.0.1 port whose
// connects never complete), operations on the real HBase with a 500ms
// context still succeed, and a second caller of the dead server leaves at
// its own deadline. A refused server goes on the failed-servers list: no
// dial for the next call.
func TestIntegrationDialBlackholedServerDoesNotStall(t *testing.T) {
	admin := testClient(t)
	table := testTable(t, admin)
	put(t, admin, table, "row1", "a", "1")
	dead := hbtest.BlackholeListener(t)
	var refusedDials atomic.Int32
	var d net.Dialer
	c := New(testOptions(t, Options{DialTimeout: 3 * time.Second, Dial: func(ctx context.Context, addr string) (net.Conn, error) {
		switch addr {
		case "dead:16020":
			addr = dead
		case "refused:16020":
			refusedDials.Add(1)
			addr = "127.0.0.1:1"
		}
		return d.DialContext(ctx, "tcp", addr)
	}}))
	defer c.Close()
	c.cache.put(&region{table: "ghost", name: []byte("ghost,,1.x."), addr: "dead:16020"})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
		defer cancel()
		var res Result
		_ = c.Get(ctx, "ghost", []byte("x"), nil, nil, &res)
	}()
	time.Sleep(200 * time.Millisecond) // the dial to dead:16020 is under way
	for _, row := range []string{"row1", "row1"} {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		start := time.Now()
		var res Result
		err := c.Get(ctx, table, []byte(row), []byte("f"), nil, &res)
		cancel()
		if err != nil || len(res.Cells) != 1 {
			t.Fatalf("Get %s from the real HBase with a 500ms context while a dial hangs: %v after %v", row, err, time.Since(start))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	start := time.Now()
	var res Result
	err := c.Get(ctx, "ghost", []byte("y"), nil, nil, &res)
	cancel()
	if err == nil || time.Since(start) > time.Second {
		t.Errorf("second caller of the blackholed server: %v after %v; want an error at its 300ms deadline", err, time.Since(start))
	}

	for i := 0; i < 3; i++ {
		_, err := c.regionConn(context.Background(), "refused:16020", time.Time{})
		if err == nil {
			t.Fatalf("dial to a closed port succeeded")
		}
		if i > 0 && !strings.Contains(err.Error(), "failed servers") {
			t.Errorf("call %d to a refused server: %v; want a failed-servers error", i, err)
		}
	}
	if n := refusedDials.Load(); n != 1 {
		t.Errorf("%d dials to the refused server in 3 calls, want 1", n)
	}
}
