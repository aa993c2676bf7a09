package drivers

import (
	"context"
	"time"
)

// Streams: optional capabilities of a Conn for log-structured backends
// (Kafka), used by the produce and consume workloads. A DB whose Conns
// implement them declares [CapProduce] and [CapConsume]; a workload that
// needs one is refused before any connection opens when the DB lacks it.

// Producer is implemented by a Conn that sends records to a stream (a Kafka
// topic) asynchronously, batching them as the backend's producer does.
type Producer interface {
	// Produce queues one record for topic and returns without waiting for
	// its acknowledgement. key may be nil (no key: the driver spreads
	// records over partitions itself). Produce copies key and value, so the
	// caller may reuse them at once.
	//
	// done is called exactly once per record whose Produce returned nil,
	// with tag unchanged (a send time or sequence number of the caller's)
	// and the outcome, on a goroutine of the driver's, possibly before
	// Produce returns. done must not block for long and must not call back
	// into the Conn. Callers bound the records they have in flight
	// themselves (Kafka's buffer.memory). When Produce returns an error,
	// done is not called.
	Produce(ctx context.Context, topic string, key, value []byte, tag int64, done func(tag int64, err error)) error
	// Flush waits until every record produced on this Conn has been
	// acknowledged or has failed (its done called), or ctx ends.
	Flush(ctx context.Context) error
}

// Consumer is implemented by a Conn that reads records from a stream as a
// member of a consumer group (group, start position and fetch sizes are the
// driver's properties).
type Consumer interface {
	// Consume waits for the next record of topic and calls fn with its key
	// and value, which are valid only during the call. The first call
	// subscribes (joins the group). It returns ctx's error, wrapped, when
	// ctx ends first.
	Consume(ctx context.Context, topic string, fn func(key, value []byte)) error
}

// Rebalancer is implemented by a [Consumer] that can tell how long it spent
// joining its consumer group (Kafka's rebalance.time.ms).
type Rebalancer interface {
	// RebalanceTime returns the total time spent in group joins so far.
	RebalanceTime() time.Duration
}
