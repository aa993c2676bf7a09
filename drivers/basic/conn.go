package basic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gobench/gobench/drivers"
)

// conn is one worker's connection: a line buffer, a random source and a
// reusable timer for the simulated delay.
type conn struct {
	db    *DB
	line  []byte
	rng   *rand.Rand
	timer *time.Timer
}

// delay sleeps as YCSB's BasicDB does: simulatedelay whole, or with
// randomizedelay a uniform draw from [0, simulatedelay) (whole
// milliseconds when simulatedelay is a whole number of them, like Java's
// nextInt). It returns early, with the context's error, on cancellation.
func (c *conn) delay(ctx context.Context, op string) error {
	if c.db.cfg.Delay <= 0 {
		return nil
	}
	d := c.draw()
	if d == 0 {
		return nil
	}
	c.timer.Reset(d)
	select {
	case <-c.timer.C:
		return nil
	case <-ctx.Done():
		c.timer.Stop()
		return fmt.Errorf("basic: %s: %w", op, ctx.Err())
	}
}

// draw returns the next delay.
func (c *conn) draw() time.Duration {
	d := c.db.cfg.Delay
	if !c.db.cfg.Randomize {
		return d
	}
	if d%time.Millisecond == 0 {
		return time.Duration(c.rng.Int64N(int64(d/time.Millisecond))) * time.Millisecond
	}
	return time.Duration(c.rng.Int64N(int64(d)))
}

// verbose reports whether operations are printed.
func (c *conn) verbose() bool { return c.db.cfg.Verbose && c.db.out != nil }

// head starts a log line: "OP table key".
func (c *conn) head(op, table string, key []byte) {
	c.line = append(c.line[:0], op...)
	c.line = append(c.line, ' ')
	c.line = append(c.line, table...)
	c.line = append(c.line, ' ')
	c.line = append(c.line, key...)
}

// fieldList appends Java's " [ f1 f2 ]" or " [ <all fields>]".
func (c *conn) fieldList(fields drivers.FieldSet) {
	c.line = append(c.line, " [ "...)
	if fields.All() {
		c.line = append(c.line, "<all fields>"...)
	}
	for _, f := range fields {
		c.line = append(c.line, c.db.fieldName(f)...)
		c.line = append(c.line, ' ')
	}
	c.line = append(c.line, "]\n"...)
}

// valueList appends Java's " [ f1=v1 f2=v2 ]" for the fields set in r.
func (c *conn) valueList(r *drivers.Record) {
	c.line = append(c.line, " [ "...)
	for i := range r.Len() {
		if v, ok := r.Get(i); ok {
			c.line = append(c.line, c.db.fieldName(i)...)
			c.line = append(c.line, '=')
			c.line = append(c.line, v...)
			c.line = append(c.line, ' ')
		}
	}
	c.line = append(c.line, "]\n"...)
}

// Read returns OK and leaves dst empty: BasicDB stores nothing.
func (c *conn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	if err := c.delay(ctx, "read"); err != nil {
		return err
	}
	dst.Reset()
	if c.verbose() {
		c.head("READ", table, key)
		c.fieldList(fields)
		c.db.write(c.line)
	}
	if c.db.counts != nil {
		c.db.counts.add(opRead, hashFields(table, key, fields))
	}
	return nil
}

// Scan returns OK without calling fn.
func (c *conn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, _ func([]byte, *drivers.Record) error) error {
	if err := c.delay(ctx, "scan"); err != nil {
		return err
	}
	if c.verbose() {
		c.head("SCAN", table, start)
		c.line = append(c.line, ' ')
		c.line = strconv.AppendInt(c.line, int64(count), 10)
		c.fieldList(fields)
		c.db.write(c.line)
	}
	if c.db.counts != nil {
		c.db.counts.add(opScan, hashFields(table, start, fields))
	}
	return nil
}

// IgnoresValueBytes reports that Update and Insert never read their
// values' bytes unless they print or count them (drivers.ValueBytesIgnorer).
func (c *conn) IgnoresValueBytes() bool { return !c.verbose() && c.db.counts == nil }

// Update returns OK.
func (c *conn) Update(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	return c.write(ctx, opUpdate, "UPDATE", table, key, values)
}

// Insert returns OK.
func (c *conn) Insert(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	return c.write(ctx, opInsert, "INSERT", table, key, values)
}

func (c *conn) write(ctx context.Context, o op, name, table string, key []byte, values *drivers.Record) error {
	if err := c.delay(ctx, name); err != nil {
		return err
	}
	if c.verbose() {
		c.head(name, table, key)
		c.valueList(values)
		c.db.write(c.line)
	}
	if c.db.counts != nil {
		c.db.counts.add(o, hashValues(table, key, values))
	}
	return nil
}

// Delete returns OK.
func (c *conn) Delete(ctx context.Context, table string, key []byte) error {
	if err := c.delay(ctx, "delete"); err != nil {
		return err
	}
	if c.verbose() {
		c.head("DELETE", table, key)
		c.line = append(c.line, '\n')
		c.db.write(c.line)
	}
	if c.db.counts != nil {
		c.db.counts.add(opDelete, hashFields(table, key, nil))
	}
	return nil
}

// Close stops the delay timer.
func (c *conn) Close(context.Context) error {
	if c.timer != nil {
		c.timer.Stop()
	}
	return nil
}

// fieldName returns the schema name of field i, or "field<i>" past the end
// of the schema.
func (db *DB) fieldName(i int) string {
	if i >= 0 && i < len(db.schema.Fields) {
		return db.schema.Fields[i]
	}
	return "field" + strconv.Itoa(i)
}
