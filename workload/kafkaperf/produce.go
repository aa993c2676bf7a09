package kafkaperf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// NameProduce is the produce workload's operation: one record, from before
// the send to its acknowledgement.
const NameProduce = "PRODUCE"

// Produce workload properties.
const (
	KeyProduceTopic        = "produce.topic"
	KeyProduceRecordSize   = "produce.recordsize"
	KeyProducePayloadFile  = "produce.payloadfile"
	KeyProducePayloadDelim = "produce.payloaddelimiter"
	KeyProduceThroughput   = "produce.throughput"
	KeyProduceBufferMemory = "produce.buffermemory"
	KeyProduceMonotonic    = "produce.payloadmonotonic"
)

// ProduceConfig is the produce workload's configuration.
type ProduceConfig struct {
	Topic      string   // default: the table property
	RecordSize int      // payload bytes, when Payloads is empty
	Payloads   [][]byte // payloads to pick from at random (--payload-file)
	// Monotonic makes each payload the decimal record index
	// (--payload-monotonic, Kafka 3.9+); worker w of n sends indexes w,
	// w+n, w+2n, ...
	Monotonic bool
	// Throughput is Kafka's --throughput: records/s over all workers; -1 (any
	// negative) = unthrottled, 0 = send nothing (Kafka blocks forever).
	Throughput float64
	// BufferMemory bounds the payload bytes a worker has in flight (Kafka's
	// buffer.memory, default 32 MiB); a worker past it waits for
	// acknowledgements.
	BufferMemory int64
}

// DefaultProduceConfig returns 100-byte records, unthrottled, 32 MiB in
// flight.
func DefaultProduceConfig() ProduceConfig {
	return ProduceConfig{RecordSize: 100, Throughput: -1, BufferMemory: 32 << 20}
}

// LoadPayloads reads a UTF-8 text file and splits it at matches of the
// regular expression delim (Kafka's --payload-delimiter, default "\n"),
// dropping trailing empty payloads as Java's String.split does. It fails on
// a missing file or one without payloads.
func LoadPayloads(path, delim string) ([][]byte, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, path, fmt.Errorf("payload file %q: %w", path, err)
	}
	re, err := regexp.Compile(delim)
	if err != nil {
		return nil, abs, fmt.Errorf("payload delimiter %q: %w", delim, err)
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return nil, abs, fmt.Errorf("payload file: %w", err)
	}
	parts := re.Split(string(b), -1)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return nil, abs, fmt.Errorf("payload file %q: no payloads (file empty?)", abs)
	}
	out := make([][]byte, len(parts))
	for i, p := range parts {
		out[i] = []byte(p)
	}
	return out, abs, nil
}

// DecodeProduce reads the produce.* properties; topic defaults to table.
func DecodeProduce(d *props.Decoder, table string) (ProduceConfig, error) {
	before := len(d.Errs())
	c := DefaultProduceConfig()
	c.Topic = d.String(KeyProduceTopic, table)
	c.RecordSize = d.IntRange(KeyProduceRecordSize, c.RecordSize, 1, math.MaxInt32)
	c.Throughput = d.Float(KeyProduceThroughput, c.Throughput)
	c.BufferMemory = d.Bytes(KeyProduceBufferMemory, c.BufferMemory)
	c.Monotonic = d.Bool(KeyProduceMonotonic, false)
	if c.BufferMemory < 1 {
		d.Failf(KeyProduceBufferMemory, "want a size of at least 1 byte")
	}
	delim := d.String(KeyProducePayloadDelim, "\n")
	if f := d.String(KeyProducePayloadFile, ""); f != "" {
		p, _, err := LoadPayloads(f, delim)
		if err != nil {
			v, _ := d.Lookup(KeyProducePayloadFile)
			d.Fail(&props.Error{Key: KeyProducePayloadFile, Value: f, Source: v.Source, Line: v.Line, Err: err})
		}
		c.Payloads = p
	}
	if c.Topic == "" {
		d.Failf(KeyProduceTopic, "want a topic name, not an empty value")
	}
	if errs := d.Errs()[before:]; len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	return c, nil
}

// ProduceKind is Kafka's ProducerPerformance as a workload kind
// (workload=produce): produce.* properties, the kafka driver's keys, and
// operationcount records (recordcount when loading without one).
var ProduceKind = engine.Kind{
	Name:    "produce",
	Summary: "Kafka's producer perf test: send records of a size (or from a payload file) at a rate, latency to acknowledgement",
	Command: "producer-perf",
	Needs:   drivers.CapProduce,
	Keys:    ProduceKeys(),
	Build: func(b *engine.Build) (engine.Job, error) {
		c, err := DecodeProduce(b.Props, b.Props.String("table", "usertable"))
		if err != nil {
			return nil, err
		}
		recordsAsOps(b)
		return NewProduce(b.Settings.Threads, b.Settings.Ops, c), nil
	},
}

// recordsAsOps makes the Kafka perf kinds behave alike under `gobench load`
// and `gobench run`: the record count is operationcount in either phase, and
// when loading without one, recordcount.
func recordsAsOps(b *engine.Build) {
	if b.Phase != engine.Load {
		return
	}
	if _, ok := b.Props.Lookup("operationcount"); !ok {
		n := b.Props.Int64("recordcount", 0)
		if n == 0 {
			n = 1<<31 - 1 // Java's recordcount default
		}
		b.Settings.Ops = n
	}
}

// Produce is Kafka's ProducerPerformance as an [engine.Job]: each Step sends one
// record asynchronously through the Conn's [drivers.Producer] (null key,
// payload of uppercase letters regenerated per record, or a random entry of
// Payloads), paced by Kafka's throttler; latency runs from before the send
// to the acknowledgement and is recorded under PRODUCE when the worker
// collects the acknowledgement (on its next Steps, and all of them on its
// last Step). Failed records count as PRODUCE failures, not in the
// throughput. When the run stops early (maxexecutiontime, interrupt), the
// records still in flight are sent (the Conn's Close flushes) but not
// measured.
//
// Each acknowledgement is recorded when the worker collects it, as a sample
// from send to acknowledgement ([engine.Meter.MeasureSpan]); with -target, the
// intended-start latency runs from the send's slot in the schedule.
//
// Its counters are safe to read while the run goes on.
type Produce struct {
	cfg     ProduceConfig
	threads int
	total   int64
	acked   atomic.Int64 // records acknowledged
	bytes   atomic.Int64 // payload bytes acknowledged
}

// NewProduce returns the produce job for the run's threads and op count
// (0 = until stopped).
func NewProduce(threads int, total int64, c ProduceConfig) *Produce {
	if total > 0 && int64(threads) > total {
		threads = int(total)
	}
	return &Produce{cfg: c, threads: max(threads, 1), total: total}
}

// Config returns the job's configuration.
func (j *Produce) Config() ProduceConfig { return j.cfg }

// Acked returns the records and payload bytes acknowledged so far.
func (j *Produce) Acked() (records, bytes int64) { return j.acked.Load(), j.bytes.Load() }

// Ops implements [engine.Job].
func (j *Produce) Ops() []string { return []string{NameProduce} }

// Extra implements [engine.Job].
func (j *Produce) Extra() []string { return nil }

// Warnings implements [engine.Job].
func (j *Produce) Warnings() []string { return nil }

// Schema implements [engine.Job]: the topic is the table.
func (j *Produce) Schema() drivers.Schema { return drivers.Schema{Table: j.cfg.Topic} }

// quota is worker id's share of the records, as the runner divides them.
func (j *Produce) quota(id int) int64 {
	if j.total <= 0 {
		return 0
	}
	q := j.total / int64(j.threads)
	if int64(id) < j.total%int64(j.threads) {
		q++
	}
	return q
}

// NewTask implements [engine.Job]; conn must implement [drivers.Producer].
func (j *Produce) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (engine.Task, error) {
	p, ok := conn.(drivers.Producer)
	if !ok {
		return nil, fmt.Errorf("workload produce: the driver's connection (%T) cannot produce to a stream (no drivers.Producer)", conn)
	}
	size := j.cfg.RecordSize
	for _, pl := range j.cfg.Payloads {
		size = max(size, len(pl))
	}
	slots := int(min(max(j.cfg.BufferMemory/int64(max(size, 1)), 1), 1<<20))
	target := j.cfg.Throughput
	if target > 0 {
		target /= float64(j.threads)
	}
	t := &produceTask{
		j: j, p: p, m: m, rnd: rnd, quota: j.quota(id), id: id,
		acks: make(chan ackNote, slots), slots: make([]sendSlot, slots), free: make([]int32, slots),
		thr: newKafkaThrottle(target, m.Now()),
	}
	for i := range t.free {
		t.free[i] = int32(slots - 1 - i)
	}
	switch {
	case j.cfg.Monotonic:
		t.payload = make([]byte, 0, 20)
	case len(j.cfg.Payloads) == 0:
		t.payload = make([]byte, j.cfg.RecordSize)
	}
	t.done = t.onAck
	t.timer = time.NewTimer(time.Hour)
	t.timer.Stop()
	return t, nil
}

type sendSlot struct {
	start, intended time.Duration
	size            int
}

type ackNote struct {
	slot int32
	end  time.Duration
	err  error
}

type produceTask struct {
	j       *Produce
	p       drivers.Producer
	m       *engine.Meter
	rnd     *rand.Rand
	quota   int64 // 0 = until stopped
	id      int
	sent    int64
	payload []byte
	thr     kafkaThrottle
	timer   *time.Timer

	acks  chan ackNote // filled by the driver's goroutines
	slots []sendSlot   // per record in flight; owned by the worker
	free  []int32      // free slot indexes
	done  func(int64, error)
}

// onAck runs on the driver's goroutine; acks has room for every slot, so it
// never blocks.
func (t *produceTask) onAck(tag int64, err error) {
	t.acks <- ackNote{slot: int32(tag), end: t.m.Now(), err: err}
}

// record measures one acknowledgement on the worker's goroutine: the
// recorded latency is end - start, whenever it is collected.
func (t *produceTask) record(a ackNote) {
	s := t.slots[a.slot]
	t.free = append(t.free, a.slot)
	if st := t.m.MeasureSpan(0, s.start, a.end, s.intended, a.err); st.IsOK() {
		t.j.acked.Add(1)
		t.j.bytes.Add(int64(s.size))
	}
}

// collect measures the acknowledgements that have arrived; with wait it
// first blocks for one (or until ctx ends).
func (t *produceTask) collect(ctx context.Context, wait bool) bool {
	if wait {
		select {
		case a := <-t.acks:
			t.record(a)
		case <-ctx.Done():
			return false
		}
	}
	for {
		select {
		case a := <-t.acks:
			t.record(a)
		default:
			return true
		}
	}
}

// Step sends one record.
func (t *produceTask) Step(ctx context.Context) bool {
	if !t.collect(ctx, len(t.free) == 0) {
		return false
	}
	if t.thr.should(t.sent, t.m.Now()) {
		switch d := t.thr.owed(); {
		case d < 0:
			<-ctx.Done()
			return false
		case d > 0:
			t.timer.Reset(d)
			select {
			case <-t.timer.C:
			case <-ctx.Done():
				t.timer.Stop()
				return false
			}
		}
	}
	value := t.payload
	switch {
	case t.j.cfg.Monotonic:
		value = strconv.AppendInt(value[:0], t.sent*int64(t.j.threads)+int64(t.id), 10)
	case len(t.j.cfg.Payloads) > 0:
		value = t.j.cfg.Payloads[t.rnd.IntN(len(t.j.cfg.Payloads))]
	default:
		fillUpper(value, t.rnd)
	}
	slot := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	start := t.m.Now()
	t.slots[slot] = sendSlot{start: start, intended: t.m.Intended(), size: len(value)}
	if err := t.p.Produce(ctx, t.j.cfg.Topic, nil, value, int64(slot), t.done); err != nil {
		t.free = append(t.free, slot)
		t.m.Measure(0, start, err)
	}
	t.sent++
	if t.sent == t.quota {
		// The worker's last record: wait for every acknowledgement so that
		// the run's time and report include them, as Kafka's close() does.
		if err := t.p.Flush(ctx); err != nil {
			return false
		}
		for len(t.free) < len(t.slots) {
			if !t.collect(ctx, true) {
				return false
			}
		}
	}
	return true
}

// fillUpper fills b with random uppercase ASCII letters, as Kafka
// regenerates its payload before every send.
func fillUpper(b []byte, rnd *rand.Rand) {
	for i := 0; i < len(b); {
		r := rnd.Uint64()
		for k := 0; k < 8 && i < len(b); k++ {
			b[i] = 'A' + byte((r&0xff)%26)
			r >>= 8
			i++
		}
	}
}
