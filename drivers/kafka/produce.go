package kafka

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kgo"
)

// producerOpts are the options of a producer client whose batches are
// capped per topic by limit (bounded above by request, Java's
// max.request.size).
func (db *DB) producerOpts(limit func(string) int32, request int64) []kgo.Opt {
	c := db.cfg
	opts := append(db.commonOpts("", &db.metrics.prod),
		kgo.ProducerBatchMaxBytesFn(limit),
		kgo.BrokerMaxWriteBytes(int32(min(request+(1<<20), 1<<30))),
		kgo.ProducerLinger(c.Linger),
		kgo.ProduceRequestTimeout(c.Timeout),
		kgo.RecordDeliveryTimeout(c.DeliveryTimeout),
		kgo.ProducerBatchCompression(codec(c)),
		// The produce workload bounds what it has in flight itself
		// (buffer.memory); the client's own limits must not be lower.
		kgo.MaxBufferedRecords(1<<30), kgo.MaxBufferedBytes(1<<40),
		kgo.RecordPartitioner(kgo.UniformBytesPartitioner(int(c.BatchSize), true, true, fnvHasher)),
		kgo.UnknownTopicRetries(-1),
	)
	switch c.Acks {
	case 1:
		opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()))
	case 0:
		opts = append(opts, kgo.RequiredAcks(kgo.NoAck()))
	}
	if !c.Idempotence {
		opts = append(opts, kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(c.InFlight))
	} else {
		// Java's delivery.timeout.ms bounds the time from send to its
		// callback even for a batch in flight to a broker that stopped
		// answering (KIP-91); the producer then bumps its epoch for the
		// unresolved sequence (KIP-360). franz-go by default waits for an
		// in-flight idempotent batch's outcome however long that takes: a
		// frozen broker held every update of a YCSB run for the whole
		// freeze.
		opts = append(opts, kgo.AllowIdempotentProduceCancellation())
	}
	if c.Retries >= 0 {
		opts = append(opts, kgo.RecordRetries(c.Retries+1)) // franz-go counts tries
	}
	return opts
}

// commonOpts are the options every client of the DB shares; suffix is
// appended to the client id (Java's tools name their clients too).
func (db *DB) commonOpts(suffix string, s *clientStats) []kgo.Opt {
	c := db.cfg
	return append(append(s.hooks(), db.securityOpts()...),
		kgo.SeedBrokers(c.Brokers...), kgo.ClientID(c.ClientID+suffix),
		kgo.RequestTimeoutOverhead(c.Timeout), kgo.RetryTimeout(c.Timeout),
		kgo.RetryBackoffFn(func(tries int) time.Duration {
			d := c.RetryBackoff << min(max(tries-1, 0), 20)
			return min(d, c.RetryBackoffMax)
		}),
		kgo.MetadataMaxAge(c.MetadataMaxAge), kgo.ConnIdleTimeout(c.ConnIdle),
		kgo.DisableClientMetrics(),
	)
}

func codec(c Config) kgo.CompressionCodec {
	switch c.Compression {
	case "gzip":
		return kgo.GzipCompression().WithLevel(c.GzipLevel)
	case "snappy":
		return kgo.SnappyCompression()
	case "lz4":
		return kgo.Lz4Compression().WithLevel(c.Lz4Level)
	case "zstd":
		return kgo.ZstdCompression().WithLevel(c.ZstdLevel)
	}
	return kgo.NoCompression()
}

// partition maps a key to a partition: FNV-1a modulo the partition count
// (the producer's partitioner for keyed records, so topics written by
// earlier gobench versions stay readable).
func partition(key []byte, n int) int {
	if n <= 1 {
		return 0
	}
	h := uint32(2166136261)
	for _, c := range key {
		h ^= uint32(c)
		h *= 16777619
	}
	return int(h % uint32(n))
}

func fnvHasher(key []byte, n int) int { return partition(key, n) }

// producerState is a conn's asynchronous produce bookkeeping.
type producerState struct {
	inflight atomic.Int64
	topics   map[string]bool // topics known to exist
}

// pending carries a record through franz-go to its promise. rec is the
// first field, so the promise finds the pending from the record.
type pending struct {
	rec  kgo.Record
	buf  []byte
	c    *conn
	tag  int64
	done func(int64, error)
}

var pendingPool = sync.Pool{New: func() any { return new(pending) }}

// Produce queues one record on the DB's idempotent producer (batches of up
// to kafka.batchsize per partition, sent after kafka.linger, 5 requests in
// flight per broker, retried until kafka.deliverytimeout).
func (c *conn) Produce(ctx context.Context, topic string, key, value []byte, tag int64, done func(int64, error)) error {
	if !c.prod.topics[topic] {
		if _, err := c.db.topic(ctx, topic); err != nil {
			return err
		}
		if c.prod.topics == nil {
			c.prod.topics = map[string]bool{}
		}
		c.prod.topics[topic] = true
	}
	cl, err := c.producerFor(topic, len(key)+len(value))
	if err != nil {
		return err
	}
	p := pendingPool.Get().(*pending)
	p.buf = append(p.buf[:0], key...)
	p.buf = append(p.buf, value...)
	p.rec = kgo.Record{Topic: topic, Value: p.buf[len(key) : len(key)+len(value) : len(key)+len(value)]}
	if key != nil {
		p.rec.Key = p.buf[:len(key):len(key)]
	}
	p.c, p.tag, p.done = c, tag, done
	c.prod.inflight.Add(1)
	cl.Produce(ctx, &p.rec, asyncPromise)
	return nil
}

// producerFor returns the client for a record of size bytes to topic.
func (c *conn) producerFor(topic string, size int) (*kgo.Client, error) {
	if int64(size)+recordOverhead > c.db.cfg.MaxMessageBytes {
		return nil, fmt.Errorf("produce to topic %q: a record of %d bytes is larger than %s (%d bytes) allows: %w",
			topic, size, KeyMaxMessageBytes, c.db.cfg.MaxMessageBytes, errTooLarge)
	}
	if c.db.fixCap(topic, size) {
		return c.db.client()
	}
	return c.db.bigClient()
}

// asyncPromise reports a record's outcome to its producer.
func asyncPromise(r *kgo.Record, err error) {
	p := (*pending)(unsafe.Pointer(r))
	c, tag, done := p.c, p.tag, p.done
	p.c, p.done, p.rec = nil, nil, kgo.Record{}
	pendingPool.Put(p)
	done(tag, classifyProduce(err))
	c.prod.inflight.Add(-1)
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

// produceSync sends one record and waits for its acknowledgement (the YCSB
// operations), recording its offset in the index. value nil is a
// tombstone.
func (c *conn) produceSync(ctx context.Context, t *topic, key, value []byte) error {
	cl, err := c.producerFor(t.name, len(key)+len(value))
	if err != nil {
		return err
	}
	c.rec = kgo.Record{Topic: t.name, Key: key, Value: value}
	cl.Produce(ctx, &c.rec, c.syncPromise)
	if err := <-c.syncDone; err != nil {
		return fmt.Errorf("produce %q to topic %q: %w", key, t.name, classifyProduce(err))
	}
	if c.db.cfg.Acks != 0 && c.rec.Offset >= 0 {
		l := loc{part: c.rec.Partition, offset: c.rec.Offset}
		if value == nil {
			l = tombstone(c.rec.Partition, c.rec.Offset)
		}
		t.idx.acked(key, l, value)
	}
	c.rec = kgo.Record{}
	return nil
}

// classifyProduce marks a record that outlived kafka.deliverytimeout, or
// failed on the network, as SERVICE_UNAVAILABLE.
func classifyProduce(err error) error {
	if err == nil {
		return nil
	}
	return classify(err)
}
