package kafkaperf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// NameConsume is the consume workload's operation: waiting for and taking
// one record.
const NameConsume = "CONSUME"

// Consume workload properties.
const (
	KeyConsumeTopic   = "consume.topic"
	KeyConsumeTimeout = "consume.timeout"
)

// ConsumeConfig is the consume workload's configuration. The group, start
// position and fetch sizes are the driver's properties.
type ConsumeConfig struct {
	Topic string // default: the table property
	// Timeout is Kafka's --timeout: a worker stops when no record came for
	// this long (default 10 s).
	Timeout time.Duration
}

// DecodeConsume reads the consume.* properties; topic defaults to table.
func DecodeConsume(d *props.Decoder, table string) (ConsumeConfig, error) {
	before := len(d.Errs())
	c := ConsumeConfig{
		Topic:   d.String(KeyConsumeTopic, table),
		Timeout: d.Duration(KeyConsumeTimeout, 10*time.Second, time.Millisecond),
	}
	if c.Topic == "" {
		d.Failf(KeyConsumeTopic, "want a topic name, not an empty value")
	}
	if c.Timeout <= 0 {
		d.Failf(KeyConsumeTimeout, "want a positive number of milliseconds")
	}
	if errs := d.Errs()[before:]; len(errs) > 0 {
		return c, fmt.Errorf("workload consume: %w", errs[0])
	}
	return c, nil
}

// ConsumeKind is Kafka's ConsumerPerformance as a workload kind
// (workload=consume): consume.* properties, the kafka driver's keys (group,
// start position, fetch size), and operationcount records.
var ConsumeKind = engine.Kind{
	Name:    "consume",
	Summary: "Kafka's consumer perf test: consume records as a group, MB/s and records/s, latency per record",
	Command: "consumer-perf",
	Needs:   drivers.CapConsume,
	Keys:    ConsumeKeys(),
	Build: func(b *engine.Build) (engine.Job, error) {
		c, err := DecodeConsume(b.Props, b.Props.String("table", "usertable"))
		if err != nil {
			return nil, err
		}
		recordsAsOps(b)
		return NewConsume(c), nil
	},
}

// Consume is Kafka's ConsumerPerformance as an [engine.Job]: each Step takes one
// record through the Conn's [drivers.Consumer] (one group member per
// worker), timed under CONSUME, counting key + value bytes. A worker stops
// when no record came for Timeout; [Consume.TimedOut] then reports it.
//
// Its counters are safe to read while the run goes on.
type Consume struct {
	cfg      ConsumeConfig
	records  atomic.Int64
	bytes    atomic.Int64
	timedOut atomic.Bool

	mu    sync.Mutex
	rebal []drivers.Rebalancer
}

// NewConsume returns the consume job.
func NewConsume(c ConsumeConfig) *Consume { return &Consume{cfg: c} }

// Config returns the job's configuration.
func (j *Consume) Config() ConsumeConfig { return j.cfg }

// Consumed returns the records and key + value bytes consumed so far.
func (j *Consume) Consumed() (records, bytes int64) { return j.records.Load(), j.bytes.Load() }

// TimedOut reports whether a worker stopped because no record came within
// the timeout.
func (j *Consume) TimedOut() bool { return j.timedOut.Load() }

// RebalanceTime sums the group join time of every worker whose driver
// reports it ([drivers.Rebalancer]).
func (j *Consume) RebalanceTime() time.Duration {
	j.mu.Lock()
	defer j.mu.Unlock()
	var d time.Duration
	for _, r := range j.rebal {
		d += r.RebalanceTime()
	}
	return d
}

// Ops implements [engine.Job].
func (j *Consume) Ops() []string { return []string{NameConsume} }

// Extra implements [engine.Job].
func (j *Consume) Extra() []string { return nil }

// Warnings implements [engine.Job].
func (j *Consume) Warnings() []string { return nil }

// Schema implements [engine.Job]: the topic is the table.
func (j *Consume) Schema() drivers.Schema { return drivers.Schema{Table: j.cfg.Topic} }

// NewTask implements [engine.Job]; conn must implement [drivers.Consumer].
func (j *Consume) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (engine.Task, error) {
	c, ok := conn.(drivers.Consumer)
	if !ok {
		return nil, fmt.Errorf("workload consume: the driver's connection (%T) cannot consume a stream (no drivers.Consumer)", conn)
	}
	if r, ok := conn.(drivers.Rebalancer); ok {
		j.mu.Lock()
		j.rebal = append(j.rebal, r)
		j.mu.Unlock()
	}
	t := &consumeTask{j: j, c: c, m: m}
	t.fn = func(k, v []byte) { t.n = len(k) + len(v) }
	return t, nil
}

type consumeTask struct {
	j      *Consume
	c      drivers.Consumer
	m      *engine.Meter
	fn     func(k, v []byte)
	n      int
	ctx    context.Context // cancelled by the idle watchdog
	parent context.Context
	idle   *time.Timer
}

// Step takes one record.
func (t *consumeTask) Step(ctx context.Context) bool {
	if t.ctx == nil || t.parent != ctx {
		var cancel context.CancelFunc
		t.parent = ctx
		t.ctx, cancel = context.WithCancel(ctx)
		t.idle = time.AfterFunc(t.j.cfg.Timeout, cancel)
	}
	start := t.m.Now()
	err := t.c.Consume(t.ctx, t.j.cfg.Topic, t.fn)
	if err != nil && t.ctx.Err() != nil {
		if ctx.Err() == nil {
			t.j.timedOut.Store(true)
		}
		return false
	}
	if st := t.m.Measure(0, start, err); st.IsOK() {
		t.idle.Reset(t.j.cfg.Timeout)
		t.j.records.Add(1)
		t.j.bytes.Add(int64(t.n))
	}
	return true
}
