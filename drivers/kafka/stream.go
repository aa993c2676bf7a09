package kafka

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	kgo "github.com/segmentio/kafka-go"
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
	m := kgo.Message{Topic: topic, Value: append([]byte(nil), value...), WriterData: p}
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
func completion(msgs []kgo.Message, err error) {
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
func (db *DB) writer(big bool, i int) (*kgo.Writer, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, errors.New("kafka: produce on a closed DB")
	}
	if db.small == nil {
		db.small = make([]*kgo.Writer, db.cfg.InFlight)
		db.big = make([]*kgo.Writer, db.cfg.InFlight)
	}
	w := &db.small[i%len(db.small)]
	if big {
		w = &db.big[i%len(db.big)]
	}
	if *w == nil {
		*w = &kgo.Writer{
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

// groupState is a conn's consumer-group reader.
type groupState struct {
	reader    *kgo.Reader
	topic     string
	joinStart atomic.Int64  // unix ns; 0 when not joining
	joined    atomic.Int64  // ns spent joining
	offsets   map[int]int64 // partition -> offset of the last record handed out
	polls     int
	committed time.Time
}

// commitEvery is the offset commit period, Java's auto.commit.interval.ms.
const commitEvery = 5 * time.Second

// commit commits the offsets of the records handed out so far.
func (g *groupState) commit(ctx context.Context) error {
	if len(g.offsets) == 0 {
		return nil
	}
	msgs := make([]kgo.Message, 0, len(g.offsets))
	for p, o := range g.offsets {
		msgs = append(msgs, kgo.Message{Topic: g.topic, Partition: p, Offset: o})
	}
	clear(g.offsets)
	g.committed = time.Now()
	return g.reader.CommitMessages(ctx, msgs...)
}

// Consume returns the next record of topic as a member of kafka.group,
// starting at kafka.offsetreset when the group has no committed offset.
// Offsets are committed every 5 s, as Java's auto-commit default, and when
// the conn closes.
func (c *conn) Consume(ctx context.Context, topic string, fn func(key, value []byte)) error {
	g := &c.group
	if g.reader == nil || g.topic != topic {
		if err := c.closeGroup(); err != nil {
			return err
		}
		start := kgo.FirstOffset
		if c.db.cfg.FromLatest {
			start = kgo.LastOffset
		}
		g.joinStart.Store(time.Now().UnixNano())
		g.topic = topic
		g.reader = kgo.NewReader(kgo.ReaderConfig{
			Brokers: c.db.cfg.Brokers, GroupID: c.db.cfg.Group, Topic: topic, StartOffset: start,
			MinBytes: 1, MaxBytes: int(max(c.db.cfg.FetchSize, 1<<20)), MaxWait: c.db.cfg.FetchWait,
			QueueCapacity: c.db.cfg.ConsumerQueue, HeartbeatInterval: 3 * time.Second,
			SessionTimeout: 45 * time.Second, JoinGroupBackoff: 200 * time.Millisecond,
			ReadBackoffMin: 10 * time.Millisecond, ReadBackoffMax: 200 * time.Millisecond,
			Logger: groupLogger{g},
		})
	}
	m, err := g.reader.FetchMessage(ctx)
	if err != nil {
		return fmt.Errorf("consume topic %q in group %q: %w", topic, c.db.cfg.Group, classify(err))
	}
	fn(m.Key, m.Value)
	// Commit every 5 s (checked every 256 records) rather than per record
	// as kafka-go's ReadMessage does.
	if g.offsets == nil {
		g.offsets, g.committed = map[int]int64{}, time.Now()
	}
	g.offsets[m.Partition] = m.Offset
	if g.polls++; g.polls%256 == 0 && time.Since(g.committed) >= commitEvery {
		if err := g.commit(ctx); err != nil {
			return fmt.Errorf("commit offsets of group %q: %w", c.db.cfg.Group, classify(err))
		}
	}
	return nil
}

// RebalanceTime returns the time spent joining the group: from subscribing
// (or a generation ending) until kafka-go reports its partitions assigned.
func (c *conn) RebalanceTime() time.Duration { return time.Duration(c.group.joined.Load()) }

func (c *conn) closeGroup() error {
	g := &c.group
	if g.reader == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.db.cfg.Timeout)
	cerr := g.commit(ctx)
	cancel()
	err := errors.Join(cerr, g.reader.Close())
	g.reader = nil
	if err != nil {
		return fmt.Errorf("leave group %q: %w", c.db.cfg.Group, err)
	}
	return nil
}

// groupLogger watches kafka-go's reader log for the ends of group joins.
type groupLogger struct{ g *groupState }

func (l groupLogger) Printf(format string, _ ...any) {
	switch {
	case strings.HasPrefix(format, "subscribed to topics and partitions"):
		if s := l.g.joinStart.Swap(0); s != 0 {
			l.g.joined.Add(time.Now().UnixNano() - s)
		}
	case strings.HasPrefix(format, "stopped heartbeat"):
		l.g.joinStart.CompareAndSwap(0, time.Now().UnixNano())
	}
}
