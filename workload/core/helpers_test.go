package core

import (
	"context"
	"sync"

	"github.com/gobench/gobench/drivers"
)

// countingDB is a test DB: an in-memory map that counts the key of every
// operation, so tests can check what the workload asked for.
type countingDB struct {
	mu     sync.Mutex
	data   map[string]map[int][]byte
	ops    map[string]int            // op -> calls
	keys   map[string]map[string]int // op -> key -> calls
	failOp string                    // op that returns an error (ERROR)
}

func newCountingDB() *countingDB {
	return &countingDB{data: map[string]map[int][]byte{}, ops: map[string]int{}, keys: map[string]map[string]int{}}
}

func (d *countingDB) Open(context.Context) (drivers.Conn, error) { return &countingConn{d}, nil }
func (d *countingDB) Close() error                               { return nil }

func (d *countingDB) note(op string, key []byte) error {
	d.ops[op]++
	m := d.keys[op]
	if m == nil {
		m = map[string]int{}
		d.keys[op] = m
	}
	m[string(key)]++
	if op == d.failOp {
		return context.DeadlineExceeded
	}
	return nil
}

type countingConn struct{ d *countingDB }

func (c *countingConn) Read(_ context.Context, _ string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if err := c.d.note("read", key); err != nil {
		return err
	}
	rec, ok := c.d.data[string(key)]
	if !ok {
		return drivers.ErrNotFound
	}
	dst.Reset()
	for i, v := range rec {
		if fields == nil || contains(fields, i) {
			dst.Set(i, v)
		}
	}
	return nil
}

func contains(s drivers.FieldSet, i int) bool {
	for _, f := range s {
		if f == i {
			return true
		}
	}
	return false
}

func (c *countingConn) Scan(_ context.Context, _ string, start []byte, n int, _ drivers.FieldSet, fn func([]byte, *drivers.Record) error) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	return c.d.note("scan", start)
}

func (c *countingConn) write(op string, key []byte, v *drivers.Record) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if err := c.d.note(op, key); err != nil {
		return err
	}
	rec := c.d.data[string(key)]
	if rec == nil {
		rec = map[int][]byte{}
		c.d.data[string(key)] = rec
	}
	for i := 0; i < v.Len(); i++ {
		if b, ok := v.Get(i); ok {
			rec[i] = append([]byte(nil), b...)
		}
	}
	return nil
}

func (c *countingConn) Update(_ context.Context, _ string, key []byte, v *drivers.Record) error {
	return c.write("update", key, v)
}
func (c *countingConn) Insert(_ context.Context, _ string, key []byte, v *drivers.Record) error {
	return c.write("insert", key, v)
}
func (c *countingConn) Delete(_ context.Context, _ string, key []byte) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if err := c.d.note("delete", key); err != nil {
		return err
	}
	delete(c.d.data, string(key))
	return nil
}
func (c *countingConn) Close(context.Context) error { return nil }
