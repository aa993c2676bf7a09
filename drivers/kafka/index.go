package kafka

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/google/btree"
)

// loc is where a key's newest record lives; offset < 0 marks a tombstone
// (stored as -offset-1, so that tombstones order with live offsets).
type loc struct {
	part   int32
	offset int64
}

func tombstone(part int32, offset int64) loc { return loc{part: part, offset: -offset - 1} }

// abs returns the log offset of l, live or tombstone.
func (l loc) abs() int64 {
	if l.offset < 0 {
		return -l.offset - 1
	}
	return l.offset
}

type entry struct {
	key string
	loc loc
	val []byte // the record's value, kept with kafka.reads=state
}

func entryLess(a, b entry) bool { return a.key < b.key }

// index maps each key of a topic to the location of its newest record, in
// key order: a B-tree, so a lookup or an insert costs O(log n) and a scan of
// count keys O(log n + count) (plus the tombstones it steps over). It also
// tracks, per partition, the offset below which every record is in the
// index (see [index.covered]). Safe for concurrent use.
type index struct {
	mu    sync.RWMutex
	tree  *btree.BTreeG[entry]
	live  int
	state bool // keep values (kafka.reads=state)

	// next[p]: every record of partition p with an offset below next[p] is
	// in the index. ahead[p]: offsets at or above next[p] already applied
	// (from this process's acknowledgements), as [start, end) ranges.
	next  []int64
	ahead [][][2]int64
	wake  chan struct{} // closed and replaced when next advances and someone waits
	waits atomic.Bool   // someone holds wake
}

func newIndex(parts int, state bool) *index {
	return &index{tree: btree.NewG(32, entryLess), state: state, next: make([]int64, parts), ahead: make([][][2]int64, parts), wake: make(chan struct{})}
}

// probe returns an entry for key without copying it (the entry is only
// compared, never stored).
func probe(key []byte) entry { return entry{key: unsafe.String(unsafe.SliceData(key), len(key))} }

// get returns key's newest location; ok is false when the key is missing or
// its newest record is a tombstone.
func (x *index) get(key []byte) (loc, bool) {
	x.mu.RLock()
	e, ok := x.tree.Get(probe(key))
	x.mu.RUnlock()
	return e.loc, ok && e.loc.offset >= 0
}

// setLocked records l as key's location (and with state, val as its value)
// unless the index holds a newer record of the key (acknowledgements of
// concurrent writers, and the tail, may arrive out of order). Callers hold
// x.mu.
func (x *index) setLocked(key []byte, l loc, val []byte) {
	if old, ok := x.tree.Get(probe(key)); ok {
		if old.loc.part == l.part && old.loc.abs() >= l.abs() {
			return
		}
		if old.loc.offset >= 0 {
			x.live--
		}
		old.loc = l
		if x.state {
			old.val = append(old.val[:0], val...) // readers copy under the read lock
		}
		x.tree.ReplaceOrInsert(old) // keeps the stored key
	} else {
		e := entry{key: string(key), loc: l}
		if x.state {
			e.val = append([]byte(nil), val...)
		}
		x.tree.ReplaceOrInsert(e)
	}
	if l.offset >= 0 {
		x.live++
	}
}

// value appends key's newest value to dst (kafka.reads=state).
func (x *index) value(key []byte, dst []byte) ([]byte, loc, bool) {
	x.mu.RLock()
	e, ok := x.tree.Get(probe(key))
	if ok && e.loc.offset >= 0 {
		dst = append(dst, e.val...)
	}
	x.mu.RUnlock()
	return dst, e.loc, ok && e.loc.offset >= 0
}

// values appends up to count live keys >= start in byte order with their
// locations, and their values to vals (kafka.reads=state).
func (x *index) values(start []byte, count int, keys []string, locs []loc, vals [][]byte) ([]string, []loc, [][]byte) {
	x.mu.RLock()
	x.tree.AscendGreaterOrEqual(probe(start), func(e entry) bool {
		if e.loc.offset >= 0 {
			keys = append(keys, e.key)
			locs = append(locs, e.loc)
			if len(vals) < cap(vals) {
				vals = vals[:len(vals)+1]
				vals[len(vals)-1] = append(vals[len(vals)-1][:0], e.val...)
			} else {
				vals = append(vals, append([]byte(nil), e.val...))
			}
		}
		return len(keys) < count
	})
	x.mu.RUnlock()
	return keys, locs, vals
}

// acked records the location of a record this process produced, and marks
// its offset as applied.
func (x *index) acked(key []byte, l loc, val []byte) {
	x.mu.Lock()
	x.setLocked(key, l, val)
	x.appliedLocked(l.part, l.abs(), l.abs()+1)
	x.mu.Unlock()
}

// appliedLocked marks offsets [from, to) of partition p as applied,
// advancing next[p] over every contiguous applied range.
func (x *index) appliedLocked(p int32, from, to int64) {
	if int(p) >= len(x.next) || to <= x.next[p] {
		return
	}
	if from > x.next[p] {
		a := x.ahead[p]
		if len(a) < 1024 { // bounded: what is dropped the tail applies later
			x.ahead[p] = append(a, [2]int64{from, to})
		}
		return
	}
	x.next[p] = to
	for moved := true; moved; {
		moved = false
		a := x.ahead[p]
		for i := 0; i < len(a); i++ {
			if a[i][0] <= x.next[p] {
				x.next[p] = max(x.next[p], a[i][1])
				a[i] = a[len(a)-1]
				a = a[:len(a)-1]
				i--
				moved = true
			}
		}
		x.ahead[p] = a
	}
	if x.waits.Swap(false) {
		close(x.wake)
		x.wake = make(chan struct{})
	}
}

// covered returns next[p].
func (x *index) covered(p int32) int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if int(p) >= len(x.next) {
		return 0
	}
	return x.next[p]
}

// coveredWait returns next[p] and a channel closed when it next advances.
func (x *index) coveredWait(p int32) (int64, <-chan struct{}) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	x.waits.Store(true)
	if int(p) >= len(x.next) {
		return 0, x.wake
	}
	return x.next[p], x.wake
}

// liveKeys returns the number of keys whose newest record is not a
// tombstone.
func (x *index) liveKeys() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.live
}

// from appends to keys and locs up to count live keys >= start in byte
// order, with their locations.
func (x *index) from(start []byte, count int, keys []string, locs []loc) ([]string, []loc) {
	x.mu.RLock()
	x.tree.AscendGreaterOrEqual(probe(start), func(e entry) bool {
		if e.loc.offset >= 0 {
			keys = append(keys, e.key)
			locs = append(locs, e.loc)
		}
		return len(keys) < count
	})
	x.mu.RUnlock()
	return keys, locs
}
