package kafka

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/gobench/gobench/drivers"
)

// conn is one worker's connection: its buffers, its share of the DB's
// clients, and for the consume workload its group member.
type conn struct {
	db       *DB
	reader   int // which of the DB's read clients this conn fetches through
	val      []byte
	merge    *drivers.Record
	scanRec  *drivers.Record
	keys     []string
	locs     []loc
	scan     scanState
	stateVal []byte

	rec         kgo.Record // the record of a synchronous produce
	syncDone    chan error
	syncPromise func(*kgo.Record, error)

	prod  producerState
	group groupState
}

func newConn(db *DB) *conn {
	c := &conn{db: db, reader: int(db.nextRd.Add(1)), merge: drivers.NewRecord(db.fields), scanRec: drivers.NewRecord(db.fields),
		syncDone: make(chan error, 1)}
	c.syncPromise = func(_ *kgo.Record, err error) { c.syncDone <- err }
	return c
}

var (
	_ drivers.Conn       = (*conn)(nil)
	_ drivers.Producer   = (*conn)(nil)
	_ drivers.Consumer   = (*conn)(nil)
	_ drivers.Rebalancer = (*conn)(nil)
	_ drivers.TableAdmin = (*DB)(nil)
)

var (
	errTooLarge = errors.New("record too large")
	errNotKey   = errors.New("the record at the indexed offset has another key")
)

// Read fetches the record at key's newest offset (see the package doc for
// how it knows the newest one of every client).
func (c *conn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	t, err := c.db.indexed(ctx, table, false)
	if err != nil {
		return err
	}
	v, err := c.current(ctx, t, key)
	if err != nil {
		dst.Reset()
		return fmt.Errorf("read %q from topic %q: %w", key, table, err)
	}
	return decodeRecord(v, fields, dst)
}

// Insert produces the record under key.
func (c *conn) Insert(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	t, err := c.db.indexed(ctx, table, false)
	if err != nil {
		return err
	}
	c.val = appendRecord(c.val[:0], values)
	return c.produceSync(ctx, t, key, c.val)
}

// Update reads the newest record at key, lays values over it and produces
// the result (a Kafka record replaces, it does not merge). Updates of one key
// are serialised within the process.
func (c *conn) Update(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	t, err := c.db.indexed(ctx, table, false)
	if err != nil {
		return err
	}
	mu := t.keyLock(key)
	mu.Lock()
	defer mu.Unlock()
	c.merge.Reset()
	v, err := c.current(ctx, t, key)
	switch {
	case err == nil:
		if err := mergeRecord(v, nil, c.merge); err != nil {
			return fmt.Errorf("update %q in topic %q: %w", key, table, err)
		}
	case !errors.Is(err, drivers.ErrNotFound):
		return fmt.Errorf("update %q in topic %q: %w", key, table, err)
	}
	for i := 0; i < values.Len(); i++ {
		if v, ok := values.Get(i); ok {
			c.merge.Set(i, v)
		}
	}
	c.val = appendRecord(c.val[:0], c.merge)
	return c.produceSync(ctx, t, key, c.val)
}

// Delete produces a tombstone (null value) for key.
func (c *conn) Delete(ctx context.Context, table string, key []byte) error {
	t, err := c.db.indexed(ctx, table, false)
	if err != nil {
		return err
	}
	return c.produceSync(ctx, t, key, nil)
}

// Close waits for this connection's produced records (bounded by ctx) and
// leaves the consumer group.
func (c *conn) Close(ctx context.Context) error {
	return errors.Join(c.Flush(ctx), c.closeGroup())
}

// current returns the value of key's newest record: from the log
// (kafka.reads=log, see latest) or from the index (state). The bytes are
// valid until the conn's next operation.
func (c *conn) current(ctx context.Context, t *topic, key []byte) ([]byte, error) {
	if !c.db.cfg.StateReads {
		r, err := c.latest(ctx, t, key)
		if err != nil {
			return nil, err
		}
		return r.Value, nil
	}
	if c.db.cfg.ReadLatest {
		p := int32(partition(key, t.partitions()))
		if l, ok := t.idx.get(key); ok {
			p = l.part
		}
		_, hwm, err := c.fetchOne(ctx, t, p, t.idx.covered(p))
		if err != nil && !errors.Is(err, errGone) {
			return nil, err
		}
		if err := c.awaitCovered(ctx, t, p, hwm); err != nil {
			return nil, err
		}
	}
	v, _, ok := t.idx.value(key, c.stateVal[:0])
	c.stateVal = v
	if !ok {
		return nil, drivers.ErrNotFound
	}
	return v, nil
}

// latest returns key's newest record. With kafka.readlatest it is the
// newest of every client: the fetch answers with the partition's high
// watermark h, and the record counts only once the index holds every
// record below h and still names the fetched offset (else it fetches
// again at the newer one).
func (c *conn) latest(ctx context.Context, t *topic, key []byte) (*kgo.Record, error) {
	p := int32(partition(key, t.partitions()))
	for attempt := 0; ; attempt++ {
		l, ok := t.idx.get(key)
		var rec *kgo.Record
		var hwm int64
		var err error
		if ok {
			p = l.part
			rec, hwm, err = c.fetchOne(ctx, t, p, l.offset)
		} else {
			if !c.db.cfg.ReadLatest {
				return nil, drivers.ErrNotFound
			}
			// Learn the high watermark to know whether another
			// client wrote key since the index last heard.
			next := t.idx.covered(p)
			_, hwm, err = c.fetchOne(ctx, t, p, next)
		}
		switch {
		case errors.Is(err, errGone):
			// Compacted or deleted since the index heard of it: the
			// index will learn of the newer record.
		case err != nil:
			return nil, err
		case rec != nil && string(rec.Key) != string(key):
			return nil, fmt.Errorf("partition %d offset %d: %w", p, l.offset, errNotKey)
		}
		if !c.db.cfg.ReadLatest {
			if rec == nil {
				return nil, drivers.ErrNotFound
			}
			return rec, nil
		}
		if err := c.awaitCovered(ctx, t, p, hwm); err != nil {
			return nil, err
		}
		l2, ok2 := t.idx.get(key)
		switch {
		case !ok && !ok2:
			return nil, drivers.ErrNotFound
		case ok && ok2 && l2 == l && rec != nil:
			return rec, nil
		case ok && !ok2:
			return nil, drivers.ErrNotFound // deleted meanwhile
		case ok && ok2 && l2 == l:
			return nil, fmt.Errorf("partition %d offset %d: %w", p, l.offset, drivers.ErrNotFound) // compacted or expired
		}
		if attempt >= 16 {
			return nil, fmt.Errorf("key keeps changing under the read (%d attempts): %w", attempt, drivers.ErrUnavailable)
		}
	}
}

// awaitCovered waits until the index holds every record of partition p
// below offset hwm (the tail, or this process's acknowledgements, got
// there), for at most kafka.timeout.
func (c *conn) awaitCovered(ctx context.Context, t *topic, p int32, hwm int64) error {
	n, wake := t.idx.coveredWait(p)
	if n >= hwm {
		return nil
	}
	timer := time.NewTimer(c.db.cfg.Timeout)
	defer timer.Stop()
	for {
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			if e := t.tailErr.Load(); e != nil {
				return fmt.Errorf("partition %d: index at offset %d, high watermark %d: %w", p, n, hwm, *e)
			}
			return fmt.Errorf("partition %d: the index stays at offset %d below the high watermark %d for %v: %w",
				p, n, hwm, c.db.cfg.Timeout, errors.Join(errTailStuck, drivers.ErrUnavailable))
		}
		if n, wake = t.idx.coveredWait(p); n >= hwm {
			return nil
		}
	}
}
