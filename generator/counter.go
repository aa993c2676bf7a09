package generator

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Counter hands out start, start+1, start+2, … (Java CounterGenerator). It is
// YCSB's load-phase key sequence, shared by all workers. Safe for concurrent
// use: Next is one atomic add, and every value is issued exactly once.
type Counter struct {
	next atomic.Int64
}

// NewCounter returns a Counter whose first Next is start.
func NewCounter(start int64) *Counter {
	c := &Counter{}
	c.next.Store(start)
	return c
}

// Next returns the next value in sequence; r is unused.
func (c *Counter) Next(_ *rand.Rand) int64 {
	return c.next.Add(1) - 1
}

// Last returns the counter minus one, as Java's lastValue: the most recent
// value handed out once all Next calls have returned, and start-1 before the
// first one.
func (c *Counter) Last() int64 {
	return c.next.Load() - 1
}

// AckWindow is the number of insertion keys an [AcknowledgedCounter] can have
// outstanding (issued but not yet acknowledged): 2^20, as in Java.
const AckWindow = 1 << 20

const ackMask = AckWindow - 1

// ErrTooManyUnacknowledged is returned by [AcknowledgedCounter.Acknowledge]
// when a value cannot be recorded because more than [AckWindow] insertion keys
// are outstanding.
var ErrTooManyUnacknowledged = errors.New("too many unacknowledged insertion keys")

// AcknowledgedCounter is a [Counter] whose Last only moves past a value once
// that value and every value before it have been acknowledged (Java
// AcknowledgedCounterGenerator). YCSB uses it for run-phase inserts: a new key
// becomes visible to reads, updates, scans and "latest" only when it and all
// earlier new keys have been inserted.
//
// Safe for concurrent use. As in Java, acknowledgements set flags in a ring
// of [AckWindow] slots without locking, and whoever wins a try-lock walks the
// ring forward to advance the limit; a goroutine that loses the try-lock just
// leaves its flag. Unlike Java, after releasing the lock the winner looks at
// the next slot again and retries if it was flagged meanwhile, so a final
// acknowledgement can never be stranded behind a busy lock (in Java it stays
// invisible until some later acknowledgement).
type AcknowledgedCounter struct {
	Counter
	limit  atomic.Int64
	walk   sync.Mutex // held only through TryLock
	window [AckWindow / 64]atomic.Uint64
}

// NewAcknowledgedCounter returns an AcknowledgedCounter whose first Next is
// start and whose Last is start-1 until start is acknowledged. The ring of
// flags takes 128 KiB.
func NewAcknowledgedCounter(start int64) *AcknowledgedCounter {
	c := &AcknowledgedCounter{}
	c.next.Store(start)
	c.limit.Store(start - 1)
	return c
}

// Last returns the largest value v such that every value from start to v
// has been acknowledged (start-1 if none).
func (c *AcknowledgedCounter) Last() int64 {
	return c.limit.Load()
}

// Acknowledge records that v (a value returned by Next) has been dealt with.
// It returns an error wrapping [ErrTooManyUnacknowledged] when v's slot is
// still flagged (as Java) or v lies more than [AckWindow] past Last, and an
// error when v is at or below Last (already acknowledged); in those cases
// nothing is recorded. Acknowledging a value twice is therefore caught unless
// the two calls race with the walk that passes it. It does not allocate
// unless it returns an error.
func (c *AcknowledgedCounter) Acknowledge(v int64) error {
	limit := c.limit.Load()
	if v <= limit {
		return fmt.Errorf("acknowledge insertion key %d: already acknowledged (Last is %d)", v, limit)
	}
	if v-limit > AckWindow {
		return fmt.Errorf("acknowledge insertion key %d: %w (%d keys after %d outstanding, window %d)",
			v, ErrTooManyUnacknowledged, v-limit, limit, AckWindow)
	}
	word, bit := slotOf(v)
	if old := c.window[word].Or(bit); old&bit != 0 {
		return fmt.Errorf("acknowledge insertion key %d: %w (slot %d still flagged, window %d)",
			v, ErrTooManyUnacknowledged, v&ackMask, AckWindow)
	}
	c.advance()
	return nil
}

// advance moves the limit over every contiguous flagged slot, if it can take
// the walk lock. See the type's doc for why it loops.
func (c *AcknowledgedCounter) advance() {
	for c.walk.TryLock() {
		limit := c.limit.Load()
		index := limit + 1
		for ; index <= limit+AckWindow; index++ {
			word, bit := slotOf(index)
			if c.window[word].Load()&bit == 0 {
				break
			}
			c.window[word].And(^bit)
		}
		c.limit.Store(index - 1)
		if testHookWalked != nil {
			testHookWalked(c)
		}
		c.walk.Unlock()
		// A goroutine may have flagged slot index after we looked at it and
		// then failed TryLock because we held it: pick its flag up now.
		word, bit := slotOf(index)
		if c.window[word].Load()&bit == 0 {
			return
		}
	}
}

// testHookWalked, when set by a test, runs after a walk while the walk lock
// is still held.
var testHookWalked func(*AcknowledgedCounter)

func slotOf(v int64) (word int, bit uint64) {
	s := v & ackMask
	return int(s >> 6), 1 << uint(s&63)
}
