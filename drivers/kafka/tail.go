package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// topic is one topic's metadata, key index and the tail that keeps the
// index current.
type topic struct {
	name   string
	known  atomic.Bool // metadata is set
	ready  atomic.Bool // the index is built and tailed
	initMu sync.Mutex
	m      atomic.Pointer[topicMeta]
	// lookErr is the last failed look-up's error (no broker answered
	// within kafka.timeout); until lookNext, callers get it at once
	// instead of each waiting out kafka.timeout again. Under initMu.
	lookErr  error
	lookNext time.Time
	idx      *index

	tailCl   *kgo.Client
	tailDone chan struct{}
	tailErr  atomic.Pointer[error]
	closeMu  sync.Mutex
	closed   bool

	// keyLocks serialise read-modify-write updates of one key (striped).
	keyLocks [64]sync.Mutex
}

func (t *topic) meta() *topicMeta     { return t.m.Load() }
func (t *topic) setMeta(m topicMeta)  { t.m.Store(&m) }
func (t *topic) partitions() int      { return len(t.meta().leaders) }
func (t *topic) leader(p int32) int32 { return t.meta().leaders[p] }
func (t *topic) keyLock(key []byte) *sync.Mutex {
	return &t.keyLocks[partition(key, len(t.keyLocks))]
}

// close stops the tail.
func (t *topic) close() {
	t.closeMu.Lock()
	cl, done := t.tailCl, t.tailDone
	t.closed = true
	t.closeMu.Unlock()
	if cl != nil {
		cl.Close()
		<-done
	}
}

// buildIndex reads topic t from the log start of every partition to the high
// watermark each had when the build began, with a consumer that then goes
// on tailing the topic: every record any client appends is applied to the
// index as it arrives (see [index.covered] and the package doc).
func (db *DB) buildIndex(ctx context.Context, t *topic) (IndexBuild, error) {
	start := time.Now()
	first, err := db.offsets(ctx, t, false)
	if err != nil {
		return IndexBuild{}, err
	}
	last, err := db.offsets(ctx, t, true)
	if err != nil {
		return IndexBuild{}, err
	}
	x := t.idx
	x.mu.Lock()
	for p := range x.next {
		x.next[p] = max(x.next[p], first[p])
	}
	x.mu.Unlock()
	offs := map[int32]kgo.Offset{}
	for p, o := range first {
		offs[int32(p)] = kgo.NewOffset().At(o)
	}
	opts := append(db.commonOpts("-tail", &db.metrics.other),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{t.name: offs}),
		kgo.FetchMaxPartitionBytes(8<<20), kgo.FetchMaxBytes(64<<20), kgo.FetchMaxWait(200*time.Millisecond),
		kgo.MaxConcurrentFetches(4))
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return IndexBuild{}, fmt.Errorf("tail client: %w", err)
	}
	t.closeMu.Lock()
	if t.closed {
		t.closeMu.Unlock()
		cl.Close()
		return IndexBuild{}, errors.New("kafka: topic closed")
	}
	t.tailCl, t.tailDone = cl, make(chan struct{})
	t.closeMu.Unlock()
	var records atomic.Int64
	go t.tail(cl, first, &records)
	// Wait until the tail has passed the end offsets read above.
	deadline := time.Now().Add(db.cfg.Timeout)
	progress := int64(-1)
	for p := int32(0); int(p) < len(last); {
		n, wake := x.coveredWait(p)
		if n >= last[p] {
			p++
			continue
		}
		if e := t.tailErr.Load(); e != nil {
			return IndexBuild{}, *e
		}
		if r := records.Load(); r != progress {
			progress, deadline = r, time.Now().Add(db.cfg.Timeout)
		} else if time.Now().After(deadline) {
			return IndexBuild{}, fmt.Errorf("partition %d: no progress for %v at offset %d of %d: %w", p, db.cfg.Timeout, n, last[p], errTailStuck)
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return IndexBuild{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return IndexBuild{Topic: t.name, Records: records.Load(), Keys: x.liveKeys(), Took: time.Since(start)}, nil
}

var errTailStuck = errors.New("the topic's tail makes no progress")

// tail applies every record of the topic to the index until its client
// closes. pos[p] is the next offset the tail expects in partition p.
func (t *topic) tail(cl *kgo.Client, pos []int64, records *atomic.Int64) {
	defer close(t.tailDone)
	x := t.idx
	for {
		f := cl.PollFetches(context.Background())
		if f.IsClientClosed() {
			return
		}
		x.mu.Lock()
		f.EachPartition(func(fp kgo.FetchTopicPartition) {
			if len(fp.Records) == 0 || int(fp.Partition) >= len(pos) {
				return
			}
			for _, r := range fp.Records {
				if r.Key == nil {
					continue
				}
				if r.Value == nil {
					x.setLocked(r.Key, tombstone(fp.Partition, r.Offset), nil)
				} else {
					x.setLocked(r.Key, loc{part: fp.Partition, offset: r.Offset}, r.Value)
				}
			}
			end := fp.Records[len(fp.Records)-1].Offset + 1
			x.appliedLocked(fp.Partition, pos[fp.Partition], end)
			pos[fp.Partition] = end
			records.Add(int64(len(fp.Records)))
		})
		x.mu.Unlock()
	}
}
