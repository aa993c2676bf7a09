package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// groupState is a conn's consumer-group member.
type groupState struct {
	cl    *kgo.Client
	topic string
	recs  []*kgo.Record // the current poll's records
	next  int

	mu        sync.Mutex
	assigned  int       // partitions held
	joinStart time.Time // zero when not joining
	joined    time.Duration
}

// Consume returns the next record of topic as a member of kafka.group,
// starting at kafka.offsetreset when the group has no committed offset.
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
		f := g.cl.PollRecords(ctx, c.db.cfg.ConsumerQueue)
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

// consumerOpts are the group member's options (the consumer properties of
// the package doc's table).
func (c *conn) consumerOpts(topic string) []kgo.Opt {
	cfg := c.db.cfg
	g := &c.group
	reset := kgo.NewOffset().AtStart()
	if cfg.FromLatest {
		reset = kgo.NewOffset().AtEnd()
	}
	var bal []kgo.GroupBalancer
	for _, a := range cfg.Assignors {
		switch a {
		case "range":
			bal = append(bal, kgo.RangeBalancer())
		case "roundrobin":
			bal = append(bal, kgo.RoundRobinBalancer())
		case "sticky":
			bal = append(bal, kgo.StickyBalancer())
		case "cooperative-sticky":
			bal = append(bal, kgo.CooperativeStickyBalancer())
		}
	}
	opts := append(c.db.commonOpts("", &c.db.metrics.cons),
		kgo.ConsumerGroup(cfg.Group), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(reset),
		kgo.FetchMaxPartitionBytes(int32(cfg.FetchSize)), kgo.FetchMaxBytes(int32(cfg.FetchMaxBytes)),
		kgo.FetchMinBytes(int32(cfg.FetchMinBytes)), kgo.FetchMaxWait(cfg.FetchWait),
		kgo.AutoCommitInterval(cfg.AutoCommitInterval), kgo.SessionTimeout(cfg.SessionTimeout),
		kgo.HeartbeatInterval(cfg.Heartbeat), kgo.RebalanceTimeout(cfg.RebalanceTimeout),
		kgo.Balancers(bal...),
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, m map[string][]int32) { g.onAssigned(count(m)) }),
		kgo.OnPartitionsRevoked(func(_ context.Context, _ *kgo.Client, m map[string][]int32) { g.onRevoked(count(m)) }),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, m map[string][]int32) { g.onRevoked(count(m)) }),
	)
	if cfg.GroupProtocol == "consumer" {
		opts = append(opts, kgo.GroupProtocol("consumer"))
	}
	if !cfg.AutoCommit {
		opts = append(opts, kgo.DisableAutoCommit())
	}
	if cfg.ReadCommitted {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	if cfg.GroupInstanceID != "" {
		opts = append(opts, kgo.InstanceID(cfg.GroupInstanceID))
	}
	if cfg.Rack != "" {
		opts = append(opts, kgo.Rack(cfg.Rack))
	}
	if !cfg.CheckCRCs {
		opts = append(opts, kgo.DisableFetchCRCValidation())
	}
	return opts
}

func count(m map[string][]int32) int {
	n := 0
	for _, ps := range m {
		n += len(ps)
	}
	return n
}

// onAssigned and onRevoked measure rebalance time as Kafka's
// ConsumerPerformance does: from subscribing, or from the revocation that
// left the member without partitions, until partitions are assigned to a
// member that held none.
func (g *groupState) onAssigned(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.assigned == 0 && !g.joinStart.IsZero() {
		g.joined += time.Since(g.joinStart)
		g.joinStart = time.Time{}
	}
	g.assigned += n
}

func (g *groupState) onRevoked(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.assigned = max(g.assigned-n, 0)
	if g.assigned == 0 {
		g.joinStart = time.Now()
	}
}

func (c *conn) joinGroup(topic string) error {
	g := &c.group
	g.mu.Lock()
	g.assigned, g.joinStart = 0, time.Now() // Java: just before subscribe
	g.mu.Unlock()
	cl, err := kgo.NewClient(c.consumerOpts(topic)...)
	if err != nil {
		return fmt.Errorf("join group %q on topic %q: %w", c.db.cfg.Group, topic, err)
	}
	g.cl, g.topic, g.recs, g.next = cl, topic, nil, 0
	return nil
}

// RebalanceTime returns the time spent joining the group (Kafka's
// rebalance.time.ms).
func (c *conn) RebalanceTime() time.Duration {
	g := &c.group
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.joined
}

// closeGroup commits what was polled (with auto-commit on) and leaves the
// group.
func (c *conn) closeGroup() error {
	g := &c.group
	if g.cl == nil {
		return nil
	}
	var err error
	if c.db.cfg.AutoCommit {
		ctx, cancel := context.WithTimeout(context.Background(), c.db.cfg.Timeout)
		err = g.cl.CommitUncommittedOffsets(ctx)
		cancel()
	}
	g.cl.Close()
	g.cl, g.recs = nil, nil
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("commit offsets of group %q: %w", c.db.cfg.Group, err)
	}
	return nil
}
