package netperf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
)

// Names in the report.
const (
	NameStart   = "START"   // joining the test (the handshake, for the first stream)
	NameSend    = "SEND"    // one block written
	NameReceive = "RECEIVE" // one read
	NameFinish  = "FINISH"  // ending the stream and exchanging the results
	opStart     = 0
	opSend      = 1
	opReceive   = 2
	opFinish    = 3
)

// tcpSample is how often a sender samples TCP_INFO for interval lines.
const tcpSample = 200 * time.Millisecond

// Stream is one stream's state. Bytes, Retransmits and Cwnd are live
// (safe to read while the run goes on); the rest is set at its start and
// end.
type Stream struct {
	bytes   atomic.Int64
	retrans atomic.Int64
	cwnd    atomic.Int64
	tcpOK   atomic.Bool
	_       [32]byte

	mu      sync.Mutex
	started bool
	sender  bool
	info    drivers.NetInfo
	result  drivers.NetResult
	err     error
	done    bool
}

// Bytes returns the bytes this end has moved on the stream so far.
func (s *Stream) Bytes() int64 { return s.bytes.Load() }

// TCP returns the last sampled retransmission count and congestion window
// (bytes) of a sending stream; ok is false when not known.
func (s *Stream) TCP() (retransmits, cwnd int64, ok bool) {
	return s.retrans.Load(), s.cwnd.Load(), s.tcpOK.Load()
}

// StreamState is a stream's outcome, once its worker has finished.
type StreamState struct {
	Started bool
	Sender  bool
	Info    drivers.NetInfo
	Result  drivers.NetResult // both ends' counts (Result.PeerReported)
	Err     error             // why the stream failed, if it did
	Done    bool              // Finish ran
}

// State returns the stream's outcome so far.
func (s *Stream) State() StreamState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return StreamState{Started: s.started, Sender: s.sender, Info: s.info, Result: s.result, Err: s.err, Done: s.done}
}

// Job is the net test as an [engine.Job]: worker i runs stream i. Its
// methods are safe for concurrent use.
type Job struct {
	cfg     Config
	streams []*Stream
	t0      atomic.Pointer[time.Time]
	started chan struct{}
	once    sync.Once
	nStart  atomic.Int32
}

// NewJob returns the job of test c.
func NewJob(c Config) *Job {
	j := &Job{cfg: c, started: make(chan struct{})}
	for i := 0; i < c.Streams; i++ {
		j.streams = append(j.streams, &Stream{})
	}
	return j
}

// Config returns the test.
func (j *Job) Config() Config { return j.cfg }

// Streams returns the streams, in worker order.
func (j *Job) Streams() []*Stream { return j.streams }

// Started is closed when every stream has started (or failed to).
func (j *Job) Started() <-chan struct{} { return j.started }

// StartTime is when the test started (the first stream's Start returned);
// zero before.
func (j *Job) StartTime() time.Time {
	if p := j.t0.Load(); p != nil {
		return *p
	}
	return time.Time{}
}

// Ops implements [engine.Job].
func (j *Job) Ops() []string { return []string{NameStart, NameSend, NameReceive, NameFinish} }

// Extra implements [engine.Job].
func (j *Job) Extra() []string { return nil }

// Schema implements [engine.Job].
func (j *Job) Schema() drivers.Schema { return drivers.Schema{Table: "usertable"} }

// Warnings implements [engine.Job].
func (j *Job) Warnings() []string { return nil }

// NewTask implements [engine.Job].
func (j *Job) NewTask(id int, conn drivers.Conn, _ *rand.Rand, m *engine.Meter) (engine.Task, error) {
	ns, ok := conn.(drivers.NetStream)
	if !ok {
		return nil, errors.New("the net workload needs network test streams, which this db does not offer (use db iperf3)")
	}
	if id >= len(j.streams) {
		return nil, fmt.Errorf("net: worker %d has no stream (%d streams)", id, len(j.streams))
	}
	buf := make([]byte, j.cfg.Len)
	for i := range buf {
		buf[i] = byte('0' + i%64) // iperf3 sends a repeating pattern too (random by default)
	}
	return &task{j: j, s: j.streams[id], ns: ns, m: m, buf: buf}, nil
}

func (j *Job) startedOne(ok bool) {
	if ok {
		now := time.Now()
		j.t0.CompareAndSwap(nil, &now)
	}
	if int(j.nStart.Add(1)) == len(j.streams) {
		j.once.Do(func() { close(j.started) })
	}
}

type task struct {
	j       *Job
	s       *Stream
	ns      drivers.NetStream
	m       *engine.Meter
	buf     []byte
	started bool
	sender  bool
	ended   bool
	sampled time.Duration
	bytes   int64
	stopAt  time.Duration // the test's end, on the Meter's clock
}

// Step implements [engine.Task]: the start, then one block.
func (t *task) Step(ctx context.Context) bool {
	if t.ended {
		return false
	}
	if !t.started {
		return t.start(ctx)
	}
	start := t.m.Now()
	if start >= t.stopAt {
		t.ended = true
		return false
	}
	if t.sender {
		err := t.ns.Send(ctx, t.buf)
		if errors.Is(err, io.EOF) {
			t.ended = true
			return false
		}
		if t.m.Measure(opSend, start, err); err != nil {
			return t.fail(err)
		}
		t.bytes += int64(len(t.buf))
		t.s.bytes.Store(t.bytes)
		if now := t.m.Now(); now-t.sampled >= tcpSample {
			t.sampled = now
			if r, c, ok := t.ns.TCPInfo(); ok {
				t.s.retrans.Store(r)
				t.s.cwnd.Store(c)
				t.s.tcpOK.Store(true)
			}
		}
		return true
	}
	n, err := t.ns.Receive(ctx, t.buf)
	t.bytes += int64(n)
	t.s.bytes.Store(t.bytes)
	if errors.Is(err, io.EOF) {
		t.ended = true
		return false
	}
	if t.m.Measure(opReceive, start, err); err != nil {
		return t.fail(err)
	}
	return true
}

func (t *task) start(ctx context.Context) bool {
	t.started = true
	start := t.m.Now()
	sender, err := t.ns.Start(ctx, t.j.cfg.Spec())
	t.m.Measure(opStart, start, err)
	t.s.mu.Lock()
	t.s.started, t.s.sender = err == nil, sender
	if err == nil {
		t.s.info = t.ns.Info()
	} else {
		t.s.err = err
	}
	t.s.mu.Unlock()
	t.j.startedOne(err == nil)
	if err != nil {
		t.ended = true
		return false
	}
	t.sender = sender
	t.stopAt = t.m.Now() + t.j.cfg.Duration
	return true
}

func (t *task) fail(err error) bool {
	t.s.mu.Lock()
	if t.s.err == nil {
		t.s.err = err
	}
	t.s.mu.Unlock()
	t.ended = true
	return false
}

// Close implements [engine.TaskCloser]: the stream's Finish, which (for
// the last stream) exchanges the results with the peer.
func (t *task) Close(ctx context.Context) error {
	if !t.started {
		t.j.startedOne(false)
		return nil
	}
	if !t.s.State().Started {
		return nil
	}
	start := t.m.Now()
	res, err := t.ns.Finish(ctx)
	t.m.Measure(opFinish, start, err)
	t.s.mu.Lock()
	t.s.result, t.s.done = res, true
	if err != nil && t.s.err == nil {
		t.s.err = err
	}
	t.s.mu.Unlock()
	return nil
}
