package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/gobench/gobench/drivers"
)

// conn is one worker's connection: its buffers, and for the consume
// workload its group reader. The network connections themselves are the
// DB's pooled transport.
type conn struct {
	db      *DB
	val     []byte // encoded value to produce, or fetched value
	key     []byte // scan key buffer
	merge   *drivers.Record
	scanRec *drivers.Record
	keys    []string
	locs    []loc

	prod  producerState
	group groupState
}

func newConn(db *DB) *conn {
	return &conn{db: db, merge: drivers.NewRecord(db.fields), scanRec: drivers.NewRecord(db.fields)}
}

var (
	_ drivers.Conn       = (*conn)(nil)
	_ drivers.Producer   = (*conn)(nil)
	_ drivers.Consumer   = (*conn)(nil)
	_ drivers.Rebalancer = (*conn)(nil)
	_ drivers.TableAdmin = (*DB)(nil)
)

// Read fetches the record at key's newest offset.
func (c *conn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	t, err := c.db.topic(ctx, table)
	if err != nil {
		return err
	}
	l, ok := t.get(key)
	if !ok {
		dst.Reset()
		return fmt.Errorf("read %q from topic %q: %w", key, table, drivers.ErrNotFound)
	}
	if err := c.fetch(ctx, t, key, l); err != nil {
		return err
	}
	return decodeRecord(c.val, fields, dst)
}

// Scan visits up to count live keys >= start in key order (from the
// driver's index), fetching each record at its offset.
func (c *conn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, fn func(key []byte, r *drivers.Record) error) error {
	t, err := c.db.topic(ctx, table)
	if err != nil {
		return err
	}
	c.keys, c.locs = t.keysFrom(start, count, c.keys[:0], c.locs[:0])
	for i, k := range c.keys {
		c.key = append(c.key[:0], k...)
		if err := c.fetch(ctx, t, c.key, c.locs[i]); err != nil {
			if errors.Is(err, drivers.ErrNotFound) {
				continue // deleted or compacted since the index was read
			}
			return err
		}
		if err := decodeRecord(c.val, fields, c.scanRec); err != nil {
			return fmt.Errorf("scan topic %q at %q: %w", table, k, err)
		}
		if err := fn(c.key, c.scanRec); err != nil {
			return err
		}
	}
	return nil
}

// Insert produces the record under key.
func (c *conn) Insert(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	t, err := c.db.topic(ctx, table)
	if err != nil {
		return err
	}
	c.val = appendRecord(c.val[:0], values)
	return c.produce(ctx, t, key, c.val)
}

// Update reads the newest record at key, lays values over it and produces
// the result (a Kafka record replaces, it does not merge). Updates of one key
// are serialised within the DB.
func (c *conn) Update(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	t, err := c.db.topic(ctx, table)
	if err != nil {
		return err
	}
	mu := &t.keyLocks[partition(key, len(t.keyLocks))]
	mu.Lock()
	defer mu.Unlock()
	c.merge.Reset()
	if l, ok := t.get(key); ok {
		if err := c.fetch(ctx, t, key, l); err != nil && !errors.Is(err, drivers.ErrNotFound) {
			return err
		} else if err == nil {
			if err := mergeRecord(c.val, nil, c.merge); err != nil {
				return fmt.Errorf("update %q in topic %q: %w", key, table, err)
			}
		}
	}
	for i := 0; i < values.Len(); i++ {
		if v, ok := values.Get(i); ok {
			c.merge.Set(i, v)
		}
	}
	c.val = appendRecord(c.val[:0], c.merge)
	return c.produce(ctx, t, key, c.val)
}

// Delete produces a tombstone (null value) for key.
func (c *conn) Delete(ctx context.Context, table string, key []byte) error {
	t, err := c.db.topic(ctx, table)
	if err != nil {
		return err
	}
	return c.produce(ctx, t, key, nil)
}

// Close waits for this connection's produced records (bounded by ctx) and
// leaves the consumer group.
func (c *conn) Close(ctx context.Context) error {
	return errors.Join(c.Flush(ctx), c.closeGroup())
}

// produce sends one record synchronously to key's partition and records its
// offset in the index. value nil is a tombstone. Transient errors (leader
// moving, topic being created) are retried for up to kafka.timeout.
func (c *conn) produce(ctx context.Context, t *topic, key, value []byte) error {
	p := partition(key, t.parts)
	var k, v kafkago.Bytes = kafkago.NewBytes(key), nil
	if value != nil {
		v = kafkago.NewBytes(value)
	}
	deadline := time.Now().Add(c.db.cfg.Timeout)
	for attempt := 0; ; attempt++ {
		res, err := c.db.client.Produce(ctx, &kafkago.ProduceRequest{
			Topic: t.name, Partition: p, RequiredAcks: c.db.cfg.Acks, Compression: c.db.cfg.Compression,
			Records: kafkago.NewRecordReader(kafkago.Record{Key: k, Value: v}),
		})
		if err == nil && res != nil {
			err = res.Error
		}
		if err == nil {
			if c.db.cfg.Acks != kafkago.RequireNone && res != nil {
				if value == nil {
					t.set(key, tombstone(int32(p), res.BaseOffset))
				} else {
					t.set(key, loc{part: int32(p), offset: res.BaseOffset})
				}
			}
			return nil
		}
		if !temporary(err) || ctx.Err() != nil || time.Now().After(deadline) {
			return fmt.Errorf("produce %q to topic %q partition %d: %w", key, t.name, p, classify(err))
		}
		if k != nil {
			k.Close()
			k = kafkago.NewBytes(key)
		}
		if value != nil {
			v = kafkago.NewBytes(value)
		}
		time.Sleep(time.Duration(min(attempt+1, 10)) * 20 * time.Millisecond)
	}
}

// fetch reads the record of key at l into c.val.
func (c *conn) fetch(ctx context.Context, t *topic, key []byte, l loc) error {
	var res *kafkago.FetchResponse
	err := c.db.retry(ctx, func() (err error) {
		// MaxBytes 1: the broker returns just the first batch at the
		// offset, whole (fetch v3+ never splits a batch), not the log after
		// it.
		res, err = c.db.client.Fetch(ctx, &kafkago.FetchRequest{Topic: t.name, Partition: int(l.part), Offset: l.offset,
			MinBytes: 1, MaxBytes: 1, MaxWait: c.db.cfg.FetchWait})
		if err == nil {
			err = res.Error
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("fetch %q from topic %q partition %d offset %d: %w", key, t.name, l.part, l.offset, classify(err))
	}
	defer drain(res.Records)
	for {
		r, err := res.Records.ReadRecord()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("fetch %q from topic %q partition %d: offset %d not readable (high watermark %d): %w",
				key, t.name, l.part, l.offset, res.HighWatermark, drivers.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("fetch %q from topic %q partition %d offset %d: %w", key, t.name, l.part, l.offset, err)
		}
		if r.Offset < l.offset {
			continue
		}
		if r.Offset > l.offset || r.Value == nil {
			return fmt.Errorf("fetch %q from topic %q: offset %d is gone: %w", key, t.name, l.offset, drivers.ErrNotFound)
		}
		if c.val, err = readBytes(c.val[:0], r.Value); err != nil {
			return err
		}
		return nil
	}
}

// drain closes a fetch response's record reader, returning its buffers.
func drain(r kafkago.RecordReader) {
	if cl, ok := r.(io.Closer); ok {
		cl.Close()
	}
}

// temporary reports whether a Kafka error may go away by retrying.
func temporary(err error) bool {
	var ke kafkago.Error
	return errors.As(err, &ke) && ke.Temporary()
}

// classify marks network failures as SERVICE_UNAVAILABLE.
func classify(err error) error {
	var ne interface{ Timeout() bool }
	var ke kafkago.Error
	switch {
	case errors.As(err, &ke):
		return err
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &ne):
		return errors.Join(err, drivers.ErrUnavailable)
	}
	return err
}
