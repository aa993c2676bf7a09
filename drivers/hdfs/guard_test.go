package hdfs

import (
	"context"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
)

// hungNamenode listens on loopback, accepts connections, reads whatever
// they send and never answers: a NameNode that hangs. (A fast check of the
// driver's own code; the real daemons are frozen in
// freeze_integration_test.go.)
func hungNamenode(t *testing.T) (addr string, accepted *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = new(atomic.Int32)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			go func() {
				io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l.Addr().String(), accepted
}

// hungDB is a DB on a hung NameNode whose hdfs.timeout (30 s) is far longer
// than any context in these tests: only the context can end a call.
func hungDB(t *testing.T) (*DB, *atomic.Int32) {
	addr, accepted := hungNamenode(t)
	return New(Config{Namenodes: []string{addr}, User: "gobench", Timeout: 30 * time.Second}, driverstest.Schema()), accepted
}

const (
	hungBudget = 200 * time.Millisecond
	hungSlack  = time.Second
)

// bounded runs fn under a context that ends after hungBudget (by deadline
// or by cancel) and requires it to return within hungBudget + hungSlack
// with an error that wraps the context's.
func bounded(t *testing.T, what string, cancelled bool, fn func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hungBudget)
	want := context.DeadlineExceeded
	if cancelled {
		ctx, cancel = context.WithCancel(context.Background())
		time.AfterFunc(hungBudget, cancel)
		want = context.Canceled
	}
	defer cancel()
	done := make(chan error, 1)
	t0 := time.Now()
	go func() { done <- fn(ctx) }()
	select {
	case err := <-done:
		if !errors.Is(err, want) {
			t.Errorf("%s (cancelled=%v): error %v does not wrap %v", what, cancelled, err, want)
		}
	case <-time.After(hungBudget + hungSlack):
		t.Errorf("%s (cancelled=%v) still running %v after its context ended", what, cancelled, time.Since(t0)-hungBudget)
	}
}

func TestOperationsHonourTheirContext(t *testing.T) {
	db, accepted := hungDB(t)
	conn, err := db.Open(context.Background()) // the handshake only writes
	if err != nil {
		t.Fatal(err)
	}
	c := conn.(*Conn)
	defer c.Close(context.Background())
	rec := drivers.NewRecord(driverstest.NumFields)
	rec.Set(0, []byte("v"))
	key := []byte("user1")
	ops := []struct {
		name string
		fn   func(ctx context.Context) error
	}{
		{"Read", func(ctx context.Context) error { return c.Read(ctx, "t", key, nil, rec) }},
		{"Insert", func(ctx context.Context) error { return c.Insert(ctx, "t", key, rec) }},
		{"Update", func(ctx context.Context) error { return c.Update(ctx, "t", key, rec) }},
		{"Delete", func(ctx context.Context) error { return c.Delete(ctx, "t", key) }},
		{"Scan", func(ctx context.Context) error {
			return c.Scan(ctx, "t", key, 10, nil, func([]byte, *drivers.Record) error { return nil })
		}},
		{"Create", func(ctx context.Context) error { _, err := c.Create(ctx, "/f", 0); return err }},
		{"Open", func(ctx context.Context) error { _, err := c.Open(ctx, "/f"); return err }},
		{"Size", func(ctx context.Context) error { _, err := c.Size(ctx, "/f"); return err }},
		{"Truncate", func(ctx context.Context) error { _, err := c.Truncate(ctx, "/f", 0); return err }},
		{"RemoveAll", func(ctx context.Context) error { return c.RemoveAll(ctx, "/f") }},
		{"CreateTable", func(ctx context.Context) error { return db.CreateTable(ctx, "t", nil, true) }},
		{"DropTable", func(ctx context.Context) error { return db.DropTable(ctx, "t") }},
	}
	for i, op := range ops {
		for _, cancelled := range []bool{false, true} {
			n := accepted.Load()
			bounded(t, op.name, cancelled, op.fn)
			// The RPC cut before has left the connection out of step, so
			// every operation after the first starts on a fresh one.
			if got := accepted.Load(); got <= n && (i > 0 || cancelled) {
				t.Errorf("%s (cancelled=%v) reused the connection of a cut RPC (%d connections, %d before)", op.name, cancelled, got, n)
			}
		}
	}

	// A context that is already done does no I/O.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := accepted.Load()
	if err := c.Read(ctx, "t", key, nil, rec); !errors.Is(err, context.Canceled) {
		t.Errorf("Read with a cancelled context: %v", err)
	}
	if got := accepted.Load(); got != n {
		t.Errorf("Read with a cancelled context dialled the NameNode")
	}

	// Close does not wait for the hung NameNode either.
	t0 := time.Now()
	c.Close(context.Background())
	if d := time.Since(t0); d > hungSlack {
		t.Errorf("Close took %v", d)
	}
}

func TestOpenHonoursItsContext(t *testing.T) {
	// A listener that never accepts: connects complete (backlog), the
	// handshake writes go into socket buffers, so Open itself succeeds;
	// but a cancelled context must stop it before any I/O.
	db, accepted := hungDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.Open(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context: %v", err)
	}
	if accepted.Load() != 0 {
		t.Errorf("Open with a cancelled context dialled the NameNode")
	}
}
