package hbclient

import (
	"context"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/hbase/hbtest"
)

// TestClientDeadlineFromFirstAttempt: against a server that never answers,
// every operation without a context deadline ends at OperationTimeout, not
// after a whole RPC timeout plus the operation timeout.
func TestClientDeadlineFromFirstAttempt(t *testing.T) {
	n := hbtest.NewNet(t)
	n.Serve("rs:1", nil) // accepts, never answers
	n.Refuse("meta:1")
	c := netClient(t, n, "rs:1", "rs:1", Options{RPCTimeout: 3 * time.Second, OperationTimeout: 300 * time.Millisecond, MetaServer: "meta:1"})
	fam := []byte("f")
	m := Mutation{Row: []byte("a"), Type: Put, Family: fam, Qualifiers: bs("q"), Values: bs("v")}
	for _, op := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"Get", func(ctx context.Context) error { var r Result; return c.Get(ctx, "t", []byte("a"), fam, nil, &r) }},
		{"Mutate", func(ctx context.Context) error { return c.Mutate(ctx, "t", &m) }},
		{"Scan", func(ctx context.Context) error {
			var r Result
			return c.Scan(ctx, "t", &ScanSpec{Limit: 5}, &r, func(*Result) error { return nil })
		}},
		{"Multi", func(ctx context.Context) error { return c.Multi(ctx, "t", []Mutation{m}) }},
	} {
		// The cache is refilled for every operation (a timed-out attempt drops the region).
		c.cache.put(&region{table: "t", name: []byte("t,,1.a."), end: []byte("m"), addr: "rs:1"})
		start := time.Now()
		err := op.run(context.Background())
		if took := time.Since(start); err == nil || took > time.Second {
			t.Errorf("%s against a silent server: %v after %v; want an error at the 300ms operation timeout (not 3s RPC timeout + 300ms)", op.name, err, took)
		}
	}
}
