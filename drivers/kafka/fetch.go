package kafka

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/gobench/gobench/drivers"
)

// errGone says that the log no longer has a record at the offset
// (compacted, or expired by retention).
var errGone = errors.New("no record at the offset any more")

// fetchWant asks for the record of partition part at offset off.
type fetchWant struct {
	part int32
	off  int64
}

// fetchGot is what a fetch found for one want: the record at the offset
// (nil when the offset is at or past the high watermark, or the answer had
// no room for it: retry), and the partition's high watermark.
type fetchGot struct {
	rec       *kgo.Record
	hwm       int64
	truncated bool // the answer held no whole batch at the offset
	err       error
}

var decompressor = kgo.DefaultDecompressor()

// fetchOne fetches the record of partition p at offset off.
func (c *conn) fetchOne(ctx context.Context, t *topic, p int32, off int64) (*kgo.Record, int64, error) {
	want := [1]fetchWant{{part: p, off: off}}
	var got [1]fetchGot
	if err := c.db.fetch(ctx, t, c.reader, want[:], got[:]); err != nil {
		return nil, 0, err
	}
	return got[0].rec, got[0].hwm, got[0].err
}

// fetch reads, through read client rd, the batch at each want's offset
// (each want a different partition), one request per leader broker, and
// fills got. The first partition of a request returns its batch whole
// whatever its size (KIP-74); the others get room for the largest batch
// seen so far and come back truncated when theirs is larger. Transient
// errors (a leader moving, a broker restarting) are retried, refreshing the
// metadata, for up to kafka.timeout.
func (db *DB) fetch(ctx context.Context, t *topic, rd int, wants []fetchWant, got []fetchGot) error {
	cl, err := db.reader(rd)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(db.cfg.Timeout)
	// Bound the whole call by kafka.timeout whatever franz-go's own
	// deadlines are (a new connection to a frozen broker waits longer).
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for attempt := 0; ; attempt++ {
		err := db.fetchOnce(ctx, cl, t, wants, got)
		if err == nil {
			return nil
		}
		if !retriable(err) || ctx.Err() != nil || time.Now().After(deadline) {
			if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
				err = errors.Join(err, ctx.Err())
			}
			return fmt.Errorf("fetch topic %q: %w", t.name, classify(err))
		}
		if err := sleepCtx(ctx, backoff(attempt)); err != nil {
			return fmt.Errorf("fetch topic %q: %w", t.name, classify(err))
		}
		if m, err := metadataOf(ctx, cl, t.name); err == nil {
			t.setMeta(m)
		}
	}
}

func (db *DB) fetchOnce(ctx context.Context, cl *kgo.Client, t *topic, wants []fetchWant, got []fetchGot) error {
	m := t.meta()
	var idx []int
	for i, w := range wants {
		leader := m.leaders[w.part]
		seen := false
		for _, v := range wants[:i] {
			seen = seen || m.leaders[v.part] == leader
		}
		if seen {
			continue // asked together with an earlier want
		}
		// One request for this leader, with every want it leads.
		req := kmsg.NewPtrFetchRequest()
		req.MaxWaitMillis, req.MinBytes = 0, 0
		if db.cfg.ReadCommitted {
			req.IsolationLevel = 1
		}
		rt := kmsg.NewFetchRequestTopic()
		rt.Topic, rt.TopicID = t.name, m.id
		idx = idx[:0]
		for j := i; j < len(wants); j++ {
			if m.leaders[wants[j].part] != leader {
				continue
			}
			rp := kmsg.NewFetchRequestTopicPartition()
			rp.Partition, rp.FetchOffset, rp.CurrentLeaderEpoch = wants[j].part, wants[j].off, m.epochs[wants[j].part]
			rp.PartitionMaxBytes = 1 // the first: one whole batch
			if len(idx) > 0 {
				rp.PartitionMaxBytes = db.batchRoom.Load()
			}
			rt.Partitions = append(rt.Partitions, rp)
			idx = append(idx, j)
		}
		req.Topics = append(req.Topics, rt)
		kres, err := cl.Broker(int(leader)).Request(ctx, req)
		if err != nil {
			return err
		}
		if err := db.fetched(t, kres.(*kmsg.FetchResponse), wants, got, idx); err != nil {
			return err
		}
	}
	return nil
}

// fetched decodes a fetch answer into got for the wants at indexes idx.
func (db *DB) fetched(t *topic, res *kmsg.FetchResponse, wants []fetchWant, got []fetchGot, idx []int) error {
	if err := kerr.ErrorForCode(res.ErrorCode); err != nil {
		return err
	}
	byPart := map[int32]*kmsg.FetchResponseTopicPartition{}
	for ti := range res.Topics {
		for pi := range res.Topics[ti].Partitions {
			rp := &res.Topics[ti].Partitions[pi]
			byPart[rp.Partition] = rp
		}
	}
	for _, i := range idx {
		w := wants[i]
		rp := byPart[w.part]
		if rp == nil {
			return fmt.Errorf("partition %d missing from the fetch answer: %w", w.part, kerr.UnknownServerError)
		}
		if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
			if errors.Is(err, kerr.OffsetOutOfRange) {
				got[i] = fetchGot{hwm: rp.HighWatermark, err: fmt.Errorf("partition %d offset %d (log %d to %d): %w",
					w.part, w.off, rp.LogStartOffset, rp.HighWatermark, errGone)}
				continue
			}
			return fmt.Errorf("partition %d: %w", w.part, err)
		}
		if n := int32(len(rp.RecordBatches)); n > db.batchRoom.Load() {
			db.raiseRoom(n)
		}
		fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{Offset: w.off, Topic: t.name, Partition: w.part},
			rp, decompressor, nil)
		g := fetchGot{hwm: rp.HighWatermark}
		switch {
		case fp.Err != nil:
			return fmt.Errorf("partition %d offset %d: %w", w.part, w.off, fp.Err)
		case len(fp.Records) > 0 && fp.Records[0].Offset == w.off:
			g.rec = fp.Records[0]
		case len(fp.Records) > 0:
			g.err = fmt.Errorf("partition %d offset %d (next record at %d): %w", w.part, w.off, fp.Records[0].Offset, errGone)
		case w.off < rp.HighWatermark:
			g.truncated = true
		}
		got[i] = g
	}
	return nil
}

// raiseRoom records a batch size seen, so that the next multi-partition
// fetches leave room for whole batches.
func (db *DB) raiseRoom(n int32) {
	for {
		cur := db.batchRoom.Load()
		if n <= cur || db.batchRoom.CompareAndSwap(cur, min(n, 8<<20)) {
			return
		}
	}
}

// scanState is a conn's scan buffers.
type scanState struct {
	queues [][]int // per partition: indexes of keys still to fetch
	recs   []*kgo.Record
	errs   []error
	hwm    []int64
	keys   []string
	locs   []loc
	key    []byte
	vals   [][]byte
	wants  []fetchWant
	got    []fetchGot
}

// Scan visits up to count live keys >= start in key order, taken from the
// index in O(log n + count), and fetches their records: one request per
// leader and round, a round holding one key of each partition, up to
// scanRounds rounds in flight at once over the DB's read clients. With
// kafka.readlatest the scan also waits, as a read does, until the index
// holds every record below each partition's high watermark and takes the
// keys again; a key another client inserted or updated meanwhile is
// fetched anew.
func (c *conn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, fn func(key []byte, r *drivers.Record) error) error {
	t, err := c.db.indexed(ctx, table, false)
	if err != nil {
		return err
	}
	s := &c.scan
	n := t.partitions()
	if len(s.queues) != n {
		s.queues, s.hwm = make([][]int, n), make([]int64, n)
	}
	if c.db.cfg.StateReads {
		return c.scanState(ctx, t, start, count, fields, fn)
	}
	c.keys, c.locs = t.idx.from(start, count, c.keys[:0], c.locs[:0])
	for attempt := 0; ; attempt++ {
		if err := c.fetchKeys(ctx, t); err != nil {
			return fmt.Errorf("scan topic %q from %q: %w", table, start, err)
		}
		if !c.db.cfg.ReadLatest {
			break
		}
		for p := range n {
			if err := c.awaitCovered(ctx, t, int32(p), s.hwm[p]); err != nil {
				return fmt.Errorf("scan topic %q from %q: %w", table, start, err)
			}
		}
		s.keys, s.locs = t.idx.from(start, count, s.keys[:0], s.locs[:0])
		if sameKeys(c.keys, c.locs, s.keys, s.locs) {
			break
		}
		if attempt >= 16 {
			return fmt.Errorf("scan topic %q from %q: keys keep changing under the scan: %w", table, start, drivers.ErrUnavailable)
		}
		c.keys, s.keys = s.keys, c.keys
		c.locs, s.locs = s.locs, c.locs
	}
	for i, k := range c.keys {
		r := s.recs[i]
		if r == nil {
			continue // gone (compacted) since the index heard of it
		}
		if string(r.Key) != k {
			return fmt.Errorf("scan topic %q at %q: partition %d offset %d: %w", table, k, c.locs[i].part, c.locs[i].offset, errNotKey)
		}
		if err := decodeRecord(r.Value, fields, c.scanRec); err != nil {
			return fmt.Errorf("scan topic %q at %q: %w", table, k, err)
		}
		s.key = append(s.key[:0], k...)
		if err := fn(s.key, c.scanRec); err != nil {
			return err
		}
	}
	return nil
}

// scanRounds bounds the fetch rounds of one scan in flight at once.
const scanRounds = 8

// fetchKeys fetches the records of c.keys at c.locs into c.scan.recs and
// the high watermark of every partition into c.scan.hwm.
func (c *conn) fetchKeys(ctx context.Context, t *topic) error {
	s := &c.scan
	s.recs = append(s.recs[:0], make([]*kgo.Record, len(c.keys))...)
	s.errs = append(s.errs[:0], make([]error, len(c.keys))...)
	for p := range s.queues {
		s.queues[p] = s.queues[p][:0]
		s.hwm[p] = 0
	}
	for i, l := range c.locs {
		s.queues[l.part] = append(s.queues[l.part], i)
	}
	// Round r takes the r-th key of every partition; round 0 also asks the
	// partitions without keys for their high watermark.
	type round struct {
		wants []fetchWant
		keys  []int // key index per want, -1 for a high watermark probe
	}
	var rounds []round
	for r := 0; ; r++ {
		var rd round
		for p, q := range s.queues {
			switch {
			case r < len(q):
				rd.wants = append(rd.wants, fetchWant{part: int32(p), off: c.locs[q[r]].offset})
				rd.keys = append(rd.keys, q[r])
			case r == 0 && c.db.cfg.ReadLatest:
				next := t.idx.covered(int32(p))
				rd.wants = append(rd.wants, fetchWant{part: int32(p), off: next})
				rd.keys = append(rd.keys, -1)
			}
		}
		if len(rd.wants) == 0 {
			break
		}
		rounds = append(rounds, rd)
	}
	var mu sync.Mutex
	var first error
	do := func(i int, rd round) {
		got := make([]fetchGot, len(rd.wants))
		for len(rd.wants) > 0 {
			err := c.db.fetch(ctx, t, c.reader+i, rd.wants, got)
			mu.Lock()
			if err != nil {
				if first == nil {
					first = err
				}
				mu.Unlock()
				return
			}
			var again round
			for j, g := range got {
				p := rd.wants[j].part
				s.hwm[p] = max(s.hwm[p], g.hwm)
				k := rd.keys[j]
				switch {
				case k < 0:
				case g.truncated:
					again.wants, again.keys = append(again.wants, rd.wants[j]), append(again.keys, k)
				case g.err != nil && errors.Is(g.err, errGone):
					s.errs[k] = g.err
				case g.err != nil:
					if first == nil {
						first = g.err
					}
				default:
					s.recs[k] = g.rec
				}
			}
			mu.Unlock()
			// Truncated partitions go again; the first of them comes
			// whole, so every pass makes progress.
			rd, got = again, got[:len(again.wants)]
		}
	}
	if len(rounds) == 1 {
		do(0, rounds[0])
		return first
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, scanRounds)
	for i, rd := range rounds {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			do(i, rd)
		}()
	}
	wg.Wait()
	return first
}

func sameKeys(k1 []string, l1 []loc, k2 []string, l2 []loc) bool {
	if len(k1) != len(k2) {
		return false
	}
	for i := range k1 {
		if k1[i] != k2[i] || l1[i] != l2[i] {
			return false
		}
	}
	return true
}

// scanState is Scan with kafka.reads=state: one fetch per leader for the
// high watermarks (kafka.readlatest), a wait for the index to cover them,
// then the keys and values from the index.
func (c *conn) scanState(ctx context.Context, t *topic, start []byte, count int, fields drivers.FieldSet, fn func(key []byte, r *drivers.Record) error) error {
	s := &c.scan
	if c.db.cfg.ReadLatest {
		s.wants = s.wants[:0]
		for p := range t.partitions() {
			s.wants = append(s.wants, fetchWant{part: int32(p), off: t.idx.covered(int32(p))})
		}
		s.got = append(s.got[:0], make([]fetchGot, len(s.wants))...)
		if err := c.db.fetch(ctx, t, c.reader, s.wants, s.got); err != nil {
			return fmt.Errorf("scan topic %q from %q: %w", t.name, start, err)
		}
		for p, g := range s.got {
			if err := c.awaitCovered(ctx, t, int32(p), g.hwm); err != nil {
				return fmt.Errorf("scan topic %q from %q: %w", t.name, start, err)
			}
		}
	}
	c.keys, c.locs, s.vals = t.idx.values(start, count, c.keys[:0], c.locs[:0], s.vals[:0])
	for i, k := range c.keys {
		if err := decodeRecord(s.vals[i], fields, c.scanRec); err != nil {
			return fmt.Errorf("scan topic %q at %q: %w", t.name, k, err)
		}
		s.key = append(s.key[:0], k...)
		if err := fn(s.key, c.scanRec); err != nil {
			return err
		}
	}
	return nil
}
