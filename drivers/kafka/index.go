package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// loc is where a key's newest record lives; offset < 0 marks a tombstone.
type loc struct {
	part   int32
	offset int64
}

// topic is one topic's partition count and key index. The index maps each
// key to the offset of its newest record; it is fed by produce
// acknowledgements and, at first use, by reading the topic once.
type topic struct {
	name   string
	parts  int
	known  atomic.Bool // parts is set
	ready  atomic.Bool // the index is built
	initMu sync.Mutex

	mu      sync.RWMutex
	locs    map[string]loc
	sorted  []string // keys in byte order (some may be tombstoned)
	pending []string // keys added since sorted was last merged

	// keyLocks serialise read-modify-write updates of one key (striped).
	keyLocks [64]sync.Mutex
}

// get returns key's location.
func (t *topic) get(key []byte) (loc, bool) {
	t.mu.RLock()
	l, ok := t.locs[string(key)]
	t.mu.RUnlock()
	return l, ok && l.offset >= 0
}

// set records key's newest location, unless the index already holds a newer
// one for the same partition (acknowledgements of concurrent writers may
// arrive out of order).
func (t *topic) set(key []byte, l loc) {
	t.mu.Lock()
	old, ok := t.locs[string(key)]
	switch {
	case !ok:
		k := string(key)
		t.locs[k] = l
		t.pending = append(t.pending, k)
	case abs(old.offset) <= abs(l.offset) || old.part != l.part:
		t.locs[string(key)] = l
	}
	t.mu.Unlock()
}

// abs orders tombstones (stored as -offset-1) with live offsets.
func abs(o int64) int64 {
	if o < 0 {
		return -o - 1
	}
	return o
}

func tombstone(part int32, offset int64) loc { return loc{part: part, offset: -offset - 1} }

// live counts keys that are not tombstoned.
func (t *topic) live() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := 0
	for _, l := range t.locs {
		if l.offset >= 0 {
			n++
		}
	}
	return n
}

// keysFrom returns up to count live keys >= start in byte order, with their
// locations, appended to keys and locs.
func (t *topic) keysFrom(start []byte, count int, keys []string, locs []loc) ([]string, []loc) {
	t.mu.Lock()
	if len(t.pending) > 0 {
		sort.Strings(t.pending)
		t.sorted = mergeSorted(t.sorted, t.pending)
		t.pending = t.pending[:0]
	}
	i, _ := slices.BinarySearch(t.sorted, string(start))
	for ; i < len(t.sorted) && len(keys) < count; i++ {
		k := t.sorted[i]
		if l := t.locs[k]; l.offset >= 0 {
			keys = append(keys, k)
			locs = append(locs, l)
		}
	}
	t.mu.Unlock()
	return keys, locs
}

// mergeSorted merges the sorted slices a and b into a new sorted slice.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] <= b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// buildIndex reads every partition of t from its first offset to its high
// watermark and records each key's newest offset. It returns the number of
// records read.
func (db *DB) buildIndex(ctx context.Context, t *topic) (int64, error) {
	first, err := db.offsets(ctx, t, kafkago.FirstOffsetOf)
	if err != nil {
		return 0, err
	}
	last, err := db.offsets(ctx, t, kafkago.LastOffsetOf)
	if err != nil {
		return 0, err
	}
	var n int64
	for p := 0; p < t.parts; p++ {
		for off := first[p]; off < last[p]; {
			next, read, err := db.indexBatch(ctx, t, p, off)
			if err != nil {
				return n, err
			}
			n += read
			if next <= off {
				return n, fmt.Errorf("partition %d: no progress at offset %d", p, off)
			}
			off = next
		}
	}
	return n, nil
}

// offsets lists the first or last (high watermark) offset of every
// partition of t.
func (db *DB) offsets(ctx context.Context, t *topic, which func(int) kafkago.OffsetRequest) ([]int64, error) {
	var reqs []kafkago.OffsetRequest
	for p := 0; p < t.parts; p++ {
		reqs = append(reqs, which(p))
	}
	out := make([]int64, t.parts)
	err := db.retry(ctx, func() error {
		res, err := db.client.ListOffsets(ctx, &kafkago.ListOffsetsRequest{Topics: map[string][]kafkago.OffsetRequest{t.name: reqs}})
		if err != nil {
			return err
		}
		for _, po := range res.Topics[t.name] {
			if po.Error != nil {
				return fmt.Errorf("partition %d: %w", po.Partition, po.Error)
			}
			if po.Partition >= 0 && po.Partition < t.parts {
				out[po.Partition] = max(po.FirstOffset, po.LastOffset)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list offsets: %w", err)
	}
	return out, nil
}

// indexBatch fetches from partition part at offset and indexes what comes
// back. It returns the offset after the last record seen.
func (db *DB) indexBatch(ctx context.Context, t *topic, part int, offset int64) (next int64, n int64, err error) {
	var res *kafkago.FetchResponse
	err = db.retry(ctx, func() error {
		res, err = db.client.Fetch(ctx, &kafkago.FetchRequest{Topic: t.name, Partition: part, Offset: offset,
			MinBytes: 1, MaxBytes: 8 << 20, MaxWait: db.cfg.FetchWait})
		if err == nil {
			err = res.Error
		}
		return err
	})
	if err != nil {
		return offset, 0, fmt.Errorf("fetch partition %d at offset %d: %w", part, offset, err)
	}
	defer drain(res.Records)
	next = offset
	var key []byte
	for {
		r, err := res.Records.ReadRecord()
		if errors.Is(err, io.EOF) {
			return next, n, nil
		}
		if err != nil {
			return next, n, fmt.Errorf("read partition %d at offset %d: %w", part, next, err)
		}
		if r.Offset < offset {
			continue
		}
		next = r.Offset + 1
		n++
		if r.Key == nil {
			continue
		}
		key, err = readBytes(key[:0], r.Key)
		if err != nil {
			return next, n, err
		}
		if r.Value == nil {
			t.set(key, tombstone(int32(part), r.Offset))
		} else {
			t.set(key, loc{part: int32(part), offset: r.Offset})
		}
	}
}

// readBytes appends the content of b to dst.
func readBytes(dst []byte, b kafkago.Bytes) ([]byte, error) {
	n := b.Len()
	if cap(dst)-len(dst) < n {
		dst = slices.Grow(dst, n)
	}
	start := len(dst)
	dst = dst[:start+n]
	if _, err := io.ReadFull(b, dst[start:]); err != nil {
		return dst[:start], fmt.Errorf("read record bytes: %w", err)
	}
	return dst, nil
}

// retry runs f until it succeeds, fails with a non-transient error, ctx ends
// or kafka.timeout has passed (leaders move, new topics take a moment).
func (db *DB) retry(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(db.cfg.Timeout)
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil || !temporary(err) || ctx.Err() != nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(time.Duration(min(attempt+1, 10)) * 20 * time.Millisecond)
	}
}
