package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// producerState is a conn's share of the DB's asynchronous producers.
type producerState struct {
	inflight atomic.Int64
	topics   map[string]bool // topics known to exist
	next     int             // writer taking the current batch
	filled   int64           // bytes given to it
}

// pending travels with a record through kafka-go's asynchronous writer to
// its completion.
type pending struct {
	c    *conn
	tag  int64
	done func(int64, error)
}

var pendingPool = sync.Pool{New: func() any { return new(pending) }}

// recordOverhead bounds kafka-go's per-record framing, used to route records
// that cannot share a batch of kafka.batchsize bytes to the large-record
// producer.
const recordOverhead = 128

// Produce queues one record on the DB's asynchronous producer: batches of up
// to kafka.batchsize bytes sent after kafka.linger, or one request per
// record for records larger than a batch.
func (c *conn) Produce(ctx context.Context, topic string, key, value []byte, tag int64, done func(int64, error)) error {
	if !c.prod.topics[topic] {
		if _, err := c.db.meta(ctx, topic); err != nil {
			return err
		}
		if c.prod.topics == nil {
			c.prod.topics = map[string]bool{}
		}
		c.prod.topics[topic] = true
	}
	// Rotate over kafka.inflight writers, one batch's worth of bytes (or
	// one large record) each, so that as many batches are in flight per
	// partition as Java's max.in.flight.requests.per.connection allows:
	// a kafka-go writer sends one batch per partition at a time.
	size := int64(len(key) + len(value) + recordOverhead)
	big := size > c.db.cfg.BatchSize
	if c.prod.filled += size; big || c.prod.filled > c.db.cfg.BatchSize {
		c.prod.next++
		c.prod.filled = size
	}
	w, err := c.db.writer(big, c.prod.next)
	if err != nil {
		return err
	}
	p := pendingPool.Get().(*pending)
	p.c, p.tag, p.done = c, tag, done
	m := kafkago.Message{Topic: topic, Value: append([]byte(nil), value...), WriterData: p}
	if key != nil {
		m.Key = append([]byte(nil), key...)
	}
	c.prod.inflight.Add(1)
	if err := w.WriteMessages(ctx, m); err != nil {
		c.prod.inflight.Add(-1)
		*p = pending{}
		pendingPool.Put(p)
		return fmt.Errorf("produce to topic %q: %w", topic, classify(err))
	}
	return nil
}

// completion is the writers' callback: it reports each record's outcome.
func completion(msgs []kafkago.Message, err error) {
	if err != nil {
		err = classify(err)
	}
	for i := range msgs {
		p, ok := msgs[i].WriterData.(*pending)
		if !ok {
			continue
		}
		c, tag, done := p.c, p.tag, p.done
		*p = pending{}
		pendingPool.Put(p)
		done(tag, err)
		c.prod.inflight.Add(-1)
	}
}

// Flush waits until every record this conn produced has completed.
func (c *conn) Flush(ctx context.Context) error {
	for c.prod.inflight.Load() > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("flush %d records: %w", c.prod.inflight.Load(), ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}

// writer returns the DB's i-th (modulo kafka.inflight) small-batch or
// large-record producer, making it on first use.
func (db *DB) writer(big bool, i int) (*kafkago.Writer, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, errors.New("kafka: produce on a closed DB")
	}
	if db.small == nil {
		db.small = make([]*kafkago.Writer, db.cfg.InFlight)
		db.big = make([]*kafkago.Writer, db.cfg.InFlight)
	}
	w := &db.small[i%len(db.small)]
	if big {
		w = &db.big[i%len(db.big)]
	}
	if *w == nil {
		*w = &kafkago.Writer{
			Addr: db.addr, Balancer: &balancer{}, Transport: db.tr, Async: true, Completion: completion,
			RequiredAcks: db.cfg.Acks, Compression: db.cfg.Compression, MaxAttempts: 3,
			WriteBackoffMin: 50 * time.Millisecond, WriteBackoffMax: 500 * time.Millisecond,
			BatchTimeout: max(db.cfg.Linger, time.Microsecond), WriteTimeout: db.cfg.Timeout, ReadTimeout: db.cfg.Timeout,
			// kafka-go allocates BatchSize messages per batch up front: cap the
			// count by bytes / 64 (a 64-byte record with its framing).
			BatchBytes: db.cfg.BatchSize, BatchSize: int(max(db.cfg.BatchSize/64, 1)),
		}
		if big {
			(*w).BatchBytes, (*w).BatchSize = db.cfg.MaxMessageBytes, 1
		}
	}
	return *w, nil
}
