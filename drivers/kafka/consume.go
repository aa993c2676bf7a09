package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	franz "github.com/twmb/franz-go/pkg/kgo"
)

// groupState is a conn's consumer-group member. Consumption uses franz-go
// rather than kafka-go: bench/kafka.sh measured kafka-go's Reader (one
// channel send per record) at 0.56-0.86x of Java's ConsumerPerformance on
// 100-byte records, franz-go at 1.5-5x (see the package doc).
type groupState struct {
	cl        *franz.Client
	topic     string
	recs      []*franz.Record // the current poll's records
	next      int
	joinStart atomic.Int64 // unix ns; 0 when not joining
	joined    atomic.Int64 // ns spent joining
}

// Consume returns the next record of topic as a member of kafka.group,
// starting at kafka.offsetreset when the group has no committed offset.
// Offsets of polled records are committed every 5 s and at close, as Java's
// auto-commit does.
func (c *conn) Consume(ctx context.Context, topic string, fn func(key, value []byte)) error {
	g := &c.group
	if g.cl == nil || g.topic != topic {
		if err := c.closeGroup(); err != nil {
			return err
		}
		if err := c.joinGroup(topic); err != nil {
			return err
		}
	}
	for g.next >= len(g.recs) {
		f := g.cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("consume topic %q in group %q: %w", topic, c.db.cfg.Group, err)
		}
		g.recs, g.next = f.Records(), 0
		if len(g.recs) == 0 {
			if errs := f.Errors(); len(errs) > 0 {
				e := errs[0]
				return fmt.Errorf("consume topic %q partition %d in group %q: %w", e.Topic, e.Partition, c.db.cfg.Group, classify(e.Err))
			}
		}
	}
	r := g.recs[g.next]
	g.recs[g.next] = nil
	g.next++
	fn(r.Key, r.Value)
	return nil
}

func (c *conn) joinGroup(topic string) error {
	g := &c.group
	cfg := c.db.cfg
	reset := franz.NewOffset().AtStart()
	if cfg.FromLatest {
		reset = franz.NewOffset().AtEnd()
	}
	g.joinStart.Store(time.Now().UnixNano())
	cl, err := franz.NewClient(
		franz.SeedBrokers(cfg.Brokers...), franz.ConsumerGroup(cfg.Group), franz.ConsumeTopics(topic),
		franz.ConsumeResetOffset(reset), franz.FetchMaxPartitionBytes(int32(min(cfg.FetchSize, 1<<30))),
		franz.FetchMaxWait(cfg.FetchWait), franz.AutoCommitInterval(commitEvery),
		franz.SessionTimeout(45*time.Second), franz.RequestTimeoutOverhead(cfg.Timeout),
		franz.MaxBufferedRecords(cfg.ConsumerQueue), franz.ClientID("gobench"),
		franz.OnPartitionsAssigned(func(context.Context, *franz.Client, map[string][]int32) {
			if s := g.joinStart.Swap(0); s != 0 {
				g.joined.Add(time.Now().UnixNano() - s)
			}
		}),
		franz.OnPartitionsRevoked(func(context.Context, *franz.Client, map[string][]int32) {
			g.joinStart.CompareAndSwap(0, time.Now().UnixNano())
		}),
	)
	if err != nil {
		return fmt.Errorf("join group %q on topic %q: %w", cfg.Group, topic, err)
	}
	g.cl, g.topic, g.recs, g.next = cl, topic, nil, 0
	return nil
}

// commitEvery is the offset commit period, Java's auto.commit.interval.ms.
const commitEvery = 5 * time.Second

// RebalanceTime returns the time spent joining the group: from subscribing
// (or a revocation) until partitions are assigned, as Java's
// ConsumerPerformance counts it.
func (c *conn) RebalanceTime() time.Duration { return time.Duration(c.group.joined.Load()) }

// closeGroup commits what was polled and leaves the group.
func (c *conn) closeGroup() error {
	g := &c.group
	if g.cl == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.db.cfg.Timeout)
	defer cancel()
	err := g.cl.CommitUncommittedOffsets(ctx)
	g.cl.Close()
	g.cl, g.recs = nil, nil
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("commit offsets of group %q: %w", c.db.cfg.Group, err)
	}
	return nil
}
