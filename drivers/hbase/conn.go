package hbase

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
)

// conn is one worker's connection: scratch buffers over the shared client,
// and the client-side write buffer when clientbuffering=true. Not safe for
// concurrent use (one worker at a time, as the drivers contract says).
type conn struct {
	db    *DB
	res   hbclient.Result
	mut   hbclient.Mutation
	quals [][]byte
	vals  [][]byte
	rec   *drivers.Record
	scan  hbclient.ScanSpec
	buf   *writeBuffer

	visit   func(*hbclient.Result) error // = c.scanRow
	scanFn  func(key []byte, r *drivers.Record) error
	scanErr error

	lastDel   []byte    // row of the last Delete
	lastDelAt time.Time // when it returned
}

func newConn(db *DB) *conn {
	c := &conn{db: db, rec: drivers.NewRecord(len(db.fields))}
	c.visit = c.scanRow
	if db.cfg.ClientBuffering {
		c.buf = &writeBuffer{}
	}
	return c
}

// qualifiers returns the qualifiers for fields (nil = the whole family).
func (c *conn) qualifiers(fields drivers.FieldSet) ([][]byte, error) {
	if fields.All() {
		return nil, nil
	}
	c.quals = c.quals[:0]
	for _, f := range fields {
		if f < 0 || f >= len(c.db.fields) {
			return nil, fmt.Errorf("field index %d outside the schema's %d fields", f, len(c.db.fields))
		}
		c.quals = append(c.quals, c.db.fields[f])
	}
	return c.quals, nil
}

// fill copies the cells of c.res that name schema fields into dst. A row's
// cells come in qualifier order, so they are matched by a merge with the
// fields in that order (no hashing); a cell out of that order falls back to
// the map.
func (c *conn) fill(dst *drivers.Record) {
	dst.Reset()
	s := c.db.sorted
	j := 0
	for i := range c.res.Cells {
		cell := &c.res.Cells[i]
		for j < len(s) && bytes.Compare(s[j].qual, cell.Qualifier) < 0 {
			j++
		}
		if j < len(s) && bytes.Equal(s[j].qual, cell.Qualifier) {
			dst.Set(s[j].field, cell.Value)
			j++
		} else if f, ok := c.db.index[string(cell.Qualifier)]; ok {
			dst.Set(f, cell.Value)
		}
	}
}

// Read gets the row key from the configured family; a row without cells is
// drivers.ErrNotFound.
func (c *conn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	quals, err := c.qualifiers(fields)
	if err != nil {
		return fmt.Errorf("hbase read %q: %w", key, err)
	}
	if err := c.db.client.Get(ctx, table, key, c.db.family, quals, &c.res); err != nil {
		return mapErr(fmt.Errorf("hbase read: %w", err))
	}
	if len(c.res.Cells) == 0 {
		dst.Reset()
		return errNotFound
	}
	c.fill(dst)
	return nil
}

var errNotFound = fmt.Errorf("hbase read: row %w", drivers.ErrNotFound)

// Scan reads up to count rows from start; the server is asked for exactly
// the rows still wanted.
func (c *conn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, fn func(key []byte, r *drivers.Record) error) error {
	if count <= 0 {
		return nil
	}
	quals, err := c.qualifiers(fields)
	if err != nil {
		return fmt.Errorf("hbase scan from %q: %w", start, err)
	}
	c.scan = hbclient.ScanSpec{Start: start, Family: c.db.family, Qualifiers: quals, Limit: count}
	c.scanFn, c.scanErr = fn, nil
	err = c.db.client.Scan(ctx, table, &c.scan, &c.res, c.visit)
	fnErr := c.scanErr
	c.scanFn, c.scanErr = nil, nil
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return mapErr(fmt.Errorf("hbase scan: %w", err))
	}
	return nil
}

// scanRow hands one scanned row to the caller's callback (c.visit is bound
// once in newConn so that a scan allocates no closure).
func (c *conn) scanRow(r *hbclient.Result) error {
	c.fill(c.rec)
	if err := c.scanFn(r.Row(), c.rec); err != nil {
		c.scanErr = err
		return err
	}
	return nil
}

// Update writes the fields set in values (a Put; HBase does not tell
// update from insert).
func (c *conn) Update(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	return c.put(ctx, table, key, values)
}

// Insert writes every field set in values (a Put).
func (c *conn) Insert(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	return c.put(ctx, table, key, values)
}

func (c *conn) put(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	c.quals, c.vals = c.quals[:0], c.vals[:0]
	for i := range c.db.fields {
		if v, ok := values.Get(i); ok {
			c.quals = append(c.quals, c.db.fields[i])
			c.vals = append(c.vals, v)
		}
	}
	if len(c.quals) == 0 {
		return &drivers.StatusError{Status: drivers.BadRequest, Err: fmt.Errorf("hbase put %q: no field set", key)}
	}
	c.mut = hbclient.Mutation{Row: key, Type: hbclient.Put, Family: c.db.family, Qualifiers: c.quals, Values: c.vals, Durability: c.db.cfg.Durability}
	c.afterDelete(key)
	return c.write(ctx, table)
}

// deleteGap is how long a put of a row this connection just deleted waits:
// HBase stamps both with the server's clock in milliseconds, and a delete
// marker masks every put with a timestamp up to its own, so a put within
// the delete's millisecond would vanish.
const deleteGap = 1100 * time.Microsecond

// afterDelete waits out deleteGap if key is the row deleted last.
func (c *conn) afterDelete(key []byte) {
	if c.lastDelAt.IsZero() || !bytes.Equal(key, c.lastDel) {
		return
	}
	if d := deleteGap - time.Since(c.lastDelAt); d > 0 {
		time.Sleep(d)
	}
	c.lastDelAt = time.Time{}
}

// Delete removes the whole row.
func (c *conn) Delete(ctx context.Context, table string, key []byte) error {
	c.mut = hbclient.Mutation{Row: key, Type: hbclient.Delete, Durability: c.db.cfg.Durability}
	err := c.write(ctx, table)
	c.lastDel = append(c.lastDel[:0], key...)
	c.lastDelAt = time.Now()
	return err
}

// write sends c.mut, or buffers it with clientbuffering.
func (c *conn) write(ctx context.Context, table string) error {
	if c.buf == nil {
		if err := c.db.client.Mutate(ctx, table, &c.mut); err != nil {
			return mapErr(fmt.Errorf("hbase write: %w", err))
		}
		return nil
	}
	if c.buf.table != table && c.buf.len() > 0 {
		if err := c.Flush(ctx); err != nil {
			return err
		}
	}
	c.buf.table = table
	c.buf.add(&c.mut)
	if c.buf.bytes >= c.db.cfg.WriteBufferSize {
		if err := c.Flush(ctx); err != nil {
			return err
		}
	}
	return drivers.ErrBatched
}

// Flush sends the buffered writes as Multi RPCs of at most
// hbase.multi.maxactions mutations each.
func (c *conn) Flush(ctx context.Context) error {
	if c.buf == nil || c.buf.len() == 0 {
		return nil
	}
	muts := c.buf.muts
	defer c.buf.reset()
	for len(muts) > 0 {
		n := min(len(muts), c.db.cfg.MultiSize)
		if err := c.db.client.Multi(ctx, c.buf.table, muts[:n]); err != nil {
			return mapErr(fmt.Errorf("hbase flush of %d buffered writes: %w", len(c.buf.muts), err))
		}
		muts = muts[n:]
	}
	return nil
}

// Close flushes the write buffer.
func (c *conn) Close(ctx context.Context) error { return c.Flush(ctx) }
