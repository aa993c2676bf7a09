package driverstest_test

import (
	"context"
	"os"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/drivers/memory"
)

// TestBufferedPasses runs the suite on a driver that buffers its writes
// (returning BATCHED_OK and implementing drivers.BatchWriter), as HBase's
// client buffering does: the suite must flush before it reads.
func TestBufferedPasses(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB {
		return bufferedDB{DB: memory.NewDB(driverstest.Schema())}
	})
}

func init() {
	bugs["close-no-flush"] = "Lifecycle"
}

// bufferedDB wraps the memory store with write buffering; with bugEnv set
// to close-no-flush its Conns drop their buffer on Close.
type bufferedDB struct{ *memory.DB }

func (d bufferedDB) Open(ctx context.Context) (drivers.Conn, error) {
	c, err := d.DB.Open(ctx)
	return &bufferedConn{Conn: c, dropOnClose: os.Getenv(bugEnv) == "close-no-flush"}, err
}

type pending struct {
	op    string
	table string
	key   []byte
	rec   *drivers.Record
}

type bufferedConn struct {
	drivers.Conn
	buf         []pending
	dropOnClose bool
}

func (c *bufferedConn) add(op, table string, key []byte, r *drivers.Record) error {
	p := pending{op: op, table: table, key: append([]byte(nil), key...)}
	if r != nil {
		p.rec = drivers.NewRecord(r.Len())
		for i := range r.Len() {
			if v, ok := r.Get(i); ok {
				p.rec.Set(i, v)
			}
		}
	}
	c.buf = append(c.buf, p)
	return drivers.ErrBatched
}

func (c *bufferedConn) Insert(_ context.Context, table string, key []byte, r *drivers.Record) error {
	return c.add("insert", table, key, r)
}

func (c *bufferedConn) Update(_ context.Context, table string, key []byte, r *drivers.Record) error {
	return c.add("update", table, key, r)
}

func (c *bufferedConn) Delete(_ context.Context, table string, key []byte) error {
	return c.add("delete", table, key, nil)
}

func (c *bufferedConn) Flush(ctx context.Context) error {
	for _, p := range c.buf {
		var err error
		switch p.op {
		case "insert":
			err = c.Conn.Insert(ctx, p.table, p.key, p.rec)
		case "update":
			err = c.Conn.Update(ctx, p.table, p.key, p.rec)
		case "delete":
			err = c.Conn.Delete(ctx, p.table, p.key)
		}
		if err != nil {
			return err
		}
	}
	c.buf = c.buf[:0]
	return nil
}

func (c *bufferedConn) Close(ctx context.Context) error {
	if !c.dropOnClose {
		if err := c.Flush(ctx); err != nil {
			return err
		}
	}
	return c.Conn.Close(ctx)
}
