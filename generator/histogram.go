package generator

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
)

// Histogram draws multiples of a block size with frequencies given by a
// histogram (Java HistogramGenerator, YCSB's field_len_dist=histogram).
// Bucket i holds count_i; a draw picks r uniformly in [0, area) with area =
// Σ count_i, then for i = 0 … len-2 subtracts count_i and returns (i+1)·block
// as soon as r ≤ 0, else (len-1)·block. That is Java's loop, off by one
// relative to [Histogram.Mean]: the smallest value is block, not 0, and r = 0
// returns block even when bucket 0 is empty.
//
// Immutable after construction; Last is one atomic word written by every
// Next. Safe for concurrent use.
type Histogram struct {
	block   int64
	buckets []int64
	area    int64
	mean    float64
	last    atomic.Int64
}

// NewHistogram returns a Histogram with the given bucket counts and block
// size. Counts must be ≥ 0 with a positive sum; block must be positive. The
// slice is copied.
func NewHistogram(buckets []int64, blockSize int64) (*Histogram, error) {
	if blockSize <= 0 {
		return nil, fmt.Errorf("histogram generator: block size %d must be positive", blockSize)
	}
	h := &Histogram{block: blockSize, buckets: append([]int64(nil), buckets...)}
	var weighted float64 // Java sums in a long; a float cannot overflow
	for i, c := range h.buckets {
		if c < 0 {
			return nil, fmt.Errorf("histogram generator: bucket %d has negative count %d", i, c)
		}
		if h.area+c < h.area {
			return nil, fmt.Errorf("histogram generator: counts overflow int64 at bucket %d", i)
		}
		h.area += c
		weighted += float64(i) * float64(c)
	}
	if h.area == 0 {
		return nil, fmt.Errorf("histogram generator: %d buckets with a total count of 0", len(h.buckets))
	}
	h.mean = float64(blockSize) * weighted / float64(h.area)
	return h, nil
}

// ParseHistogram reads a histogram in Java YCSB's file format and returns
// the generator: a first line "BlockSize<TAB>b", then one "bucket<TAB>count"
// line per bucket, buckets numbered from 0 in increasing order. name is used
// in error messages only (typically the file name). Blank lines and trailing
// "\r" are ignored. Unlike Java, which inserts lines by position and fails on
// a gap, a skipped bucket number counts as 0; a repeated or decreasing bucket
// number is an error. Errors give the line number.
func ParseHistogram(rd io.Reader, name string) (*Histogram, error) {
	sc := bufio.NewScanner(rd)
	line := 0
	var block int64
	var buckets []int64
	seenBlock := false
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		first, second, ok := strings.Cut(text, "\t")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q: want two fields separated by a TAB", name, line, text)
		}
		if !seenBlock {
			if first != "BlockSize" {
				return nil, fmt.Errorf("%s:%d: first line %q must be \"BlockSize<TAB>size\"", name, line, text)
			}
			b, err := strconv.ParseInt(strings.TrimSpace(second), 10, 64)
			if err != nil || b <= 0 {
				return nil, fmt.Errorf("%s:%d: block size %q must be a positive integer", name, line, second)
			}
			block, seenBlock = b, true
			continue
		}
		bucket, err := strconv.ParseInt(strings.TrimSpace(first), 10, 64)
		if err != nil || bucket < 0 {
			return nil, fmt.Errorf("%s:%d: bucket %q must be an integer >= 0", name, line, first)
		}
		count, err := strconv.ParseInt(strings.TrimSpace(second), 10, 64)
		if err != nil || count < 0 {
			return nil, fmt.Errorf("%s:%d: count %q of bucket %d must be an integer >= 0", name, line, second, bucket)
		}
		if bucket < int64(len(buckets)) {
			return nil, fmt.Errorf("%s:%d: bucket %d out of order (buckets must increase; last was %d)", name, line, bucket, len(buckets)-1)
		}
		if bucket-int64(len(buckets)) > 1<<24 {
			return nil, fmt.Errorf("%s:%d: bucket %d leaves a gap of more than 2^24 buckets after %d", name, line, bucket, len(buckets)-1)
		}
		for int64(len(buckets)) < bucket {
			buckets = append(buckets, 0)
		}
		buckets = append(buckets, count)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read histogram %s: %w", name, err)
	}
	if !seenBlock {
		return nil, fmt.Errorf("%s: empty histogram: want a first line \"BlockSize<TAB>size\"", name)
	}
	h, err := NewHistogram(buckets, block)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return h, nil
}

// Next returns a multiple of the block size: between block and
// (len-1)·block when there are at least two buckets, always 0 with one.
func (h *Histogram) Next(r *rand.Rand) int64 {
	v := h.Draw(r)
	h.last.Store(v)
	return v
}

// Draw is Next without recording the value for Last (see [Drawer]).
func (h *Histogram) Draw(r *rand.Rand) int64 { return h.pick(r.Int64N(h.area)) }

// pick is Java's walk for a number drawn from [0, area).
func (h *Histogram) pick(number int64) int64 {
	i := 0
	for ; i < len(h.buckets)-1; i++ {
		number -= h.buckets[i]
		if number <= 0 {
			return int64(i+1) * h.block
		}
	}
	return int64(i) * h.block
}

// Last returns the value most recently returned by Next (by any goroutine),
// or 0 before the first.
func (h *Histogram) Last() int64 { return h.last.Load() }

// Mean returns block·Σ(i·count_i)/Σcount_i, Java's mean(). Because of the
// off-by-one in Next, the mean of drawn values is about one block higher.
func (h *Histogram) Mean() float64 { return h.mean }
