package pebble

import (
	"context"
	"errors"
	"fmt"

	peb "github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"

	"github.com/gobench/gobench/drivers"
)

// bloomPolicy gives every level a 10-bit bloom filter, so reads of keys
// that are absent from a file skip it.
var bloomPolicy = bloom.FilterPolicy(10)

// conn is one worker's connection. Its buffers make the store key (table,
// 0x00, key), encode values and hold an update's merged record, so steady
// operations allocate nothing in this package.
type conn struct {
	db    *DB
	p     *peb.DB
	key   []byte
	upper []byte
	val   []byte
	merge *drivers.Record // update's read-modify-write scratch
	scan  *drivers.Record // the record passed to the scan callback
	iopts peb.IterOptions // reused: a fresh one per scan would escape
}

// storeKey returns table + 0x00 + key in the Conn's key buffer.
func (c *conn) storeKey(table string, key []byte) ([]byte, error) {
	if err := checkTable(table); err != nil {
		return nil, err
	}
	c.key = append(append(append(c.key[:0], table...), 0), key...)
	return c.key, nil
}

func notFound(table string, key []byte) error {
	return fmt.Errorf("table %q key %q: %w", table, key, drivers.ErrNotFound)
}

// Read copies the requested fields of key into dst.
func (c *conn) Read(_ context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	k, err := c.storeKey(table, key)
	if err != nil {
		return err
	}
	v, closer, err := c.p.Get(k)
	if errors.Is(err, peb.ErrNotFound) {
		return notFound(table, key)
	}
	if err != nil {
		return fmt.Errorf("read table %q key %q: %w", table, key, err)
	}
	err = decodeRecord(v, fields, dst)
	closer.Close()
	if err != nil {
		return fmt.Errorf("read table %q key %q: %w", table, key, err)
	}
	return nil
}

// Scan iterates from start within the table with one iterator, closed
// before Scan returns. It checks the context between records.
func (c *conn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, fn func([]byte, *drivers.Record) error) error {
	lo, err := c.storeKey(table, start)
	if err != nil {
		return err
	}
	c.upper = append(append(c.upper[:0], table...), 1)
	c.iopts.LowerBound, c.iopts.UpperBound = lo, c.upper
	it, err := c.p.NewIter(&c.iopts)
	if err != nil {
		return fmt.Errorf("scan table %q from %q: %w", table, start, err)
	}
	prefix := len(table) + 1
	rows := 0
	for ok := it.First(); ok && rows < count; ok = it.Next() {
		if err := ctx.Err(); err != nil {
			it.Close()
			return fmt.Errorf("scan table %q from %q: %w", table, start, err)
		}
		if err := decodeRecord(it.Value(), fields, c.scan); err != nil {
			it.Close()
			return fmt.Errorf("scan table %q at %q: %w", table, it.Key()[prefix:], err)
		}
		if err := fn(it.Key()[prefix:], c.scan); err != nil {
			it.Close()
			return err
		}
		rows++
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("scan table %q from %q: %w", table, start, err)
	}
	return nil
}

// Update merges the given fields into the record at key (read, merge and
// write under the key's lock), creating the record if it is missing, as
// HBase does. An update of every field is a blind write.
func (c *conn) Update(_ context.Context, table string, key []byte, values *drivers.Record) error {
	k, err := c.storeKey(table, key)
	if err != nil {
		return err
	}
	mu := c.db.lock(k)
	mu.Lock()
	defer mu.Unlock()
	rec := values
	if values.Count() < c.db.fields {
		rec, err = c.merged(k, values)
		if err != nil {
			return fmt.Errorf("update table %q key %q: %w", table, key, err)
		}
	}
	c.val = appendRecord(c.val[:0], rec)
	if err := c.p.Set(k, c.val, c.db.wo); err != nil {
		return fmt.Errorf("update table %q key %q: %w", table, key, err)
	}
	return nil
}

// merged returns the stored record at k (empty if missing) overlaid with
// values, in the Conn's merge scratch.
func (c *conn) merged(k []byte, values *drivers.Record) (*drivers.Record, error) {
	v, closer, err := c.p.Get(k)
	switch {
	case errors.Is(err, peb.ErrNotFound):
		c.merge.Reset()
	case err != nil:
		return nil, err
	default:
		err = decodeRecord(v, nil, c.merge)
		closer.Close()
		if err != nil {
			return nil, err
		}
	}
	for i := range values.Len() {
		if b, ok := values.Get(i); ok {
			c.merge.Set(i, b)
		}
	}
	return c.merge, nil
}

// Insert replaces the record at key.
func (c *conn) Insert(_ context.Context, table string, key []byte, values *drivers.Record) error {
	k, err := c.storeKey(table, key)
	if err != nil {
		return err
	}
	c.val = appendRecord(c.val[:0], values)
	mu := c.db.lock(k)
	mu.Lock()
	err = c.p.Set(k, c.val, c.db.wo)
	mu.Unlock()
	if err != nil {
		return fmt.Errorf("insert table %q key %q: %w", table, key, err)
	}
	return nil
}

// Delete removes the record at key. Like HBase, deleting a missing key is
// not an error.
func (c *conn) Delete(_ context.Context, table string, key []byte) error {
	k, err := c.storeKey(table, key)
	if err != nil {
		return err
	}
	mu := c.db.lock(k)
	mu.Lock()
	err = c.p.Delete(k, c.db.wo)
	mu.Unlock()
	if err != nil {
		return fmt.Errorf("delete table %q key %q: %w", table, key, err)
	}
	return nil
}

// Close drops the Conn's buffers; the store stays open for other Conns.
func (c *conn) Close(context.Context) error {
	c.key, c.upper, c.val = nil, nil, nil
	return nil
}
