package timeseries

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// letters is Java's IncrementingPrintableStringGenerator character set by
// default (printableBasicAlphaASCIISet): the code points 0-127 that are
// upper or lower case letters, in code point order.
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// incrementing is Java's IncrementingPrintableStringGenerator over
// letters: "AA", "AB", ..., "Az", "BA", ..., rolling over to "AA" after
// "zz".
type incrementing struct{ idx []int }

func newIncrementing(length int) *incrementing { return &incrementing{idx: make([]int, length)} }

func (g *incrementing) next() string {
	b := make([]byte, len(g.idx))
	for i, k := range g.idx {
		b[i] = letters[k]
	}
	for i := len(g.idx) - 1; i >= 0; i-- {
		if g.idx[i] >= len(letters)-1 {
			g.idx[i] = 0
			continue
		}
		g.idx[i]++
		break
	}
	return string(b)
}

// series is what every worker shares: the metric keys, tag keys and tag
// values, and the cardinality arithmetic of Java's initKeysAndTags.
type series struct {
	keys      []string
	tagKeys   []string
	tagValues []string
	// tagCard is Java's tagCardinality array: the parsed cardinalities,
	// then one 1 for the first tag without one, then zeros (Java fills
	// only one; its writes treat a zero as 1, its reads throw, gobench's
	// reads treat it as 1).
	tagCard   []int
	firstIncr int     // firstIncrementableCardinality
	total     int32   // totalCardinality (Java int)
	perKey    int32   // perKeyCardinality (Java int)
	cum       []int32 // cumulativeCardinality (Java int)
	// maxOffsets is the number of timestamp intervals the records span:
	// recordcount / totalCardinality + 1.
	maxOffsets int64
}

func newSeries(s *Spec, seed uint64) (*series, error) {
	sr := &series{tagCard: make([]int, s.TagCount)}
	sr.total, sr.perKey = int32(s.NumKeys), 1
	maxCard, idx := 0, 0
	for _, c := range s.TagCardinality {
		sr.tagCard[idx] = c
		sr.total *= int32(c)
		sr.perKey *= int32(c)
		maxCard = max(maxCard, c)
		idx++
		if idx >= s.TagCount {
			break // more cardinalities than tags: the rest are ignored
		}
	}
	if idx < s.TagCount {
		sr.tagCard[idx] = 1
	}
	if sr.total <= 0 || sr.perKey <= 0 {
		return nil, fmt.Errorf("tagcardinality %v with fieldcount %d: more series than Java's int counts (%d)", s.TagCardinality, s.NumKeys, math.MaxInt32)
	}
	for i, c := range sr.tagCard {
		if c > 1 {
			sr.firstIncr = i
			break
		}
	}
	kg, tkg, tvg := newIncrementing(s.KeyLength), newIncrementing(s.TagKeyLength), newIncrementing(s.TagValueLength)
	sr.keys = make([]string, s.NumKeys)
	for i := range sr.keys {
		sr.keys[i] = kg.next()
	}
	sr.tagKeys = make([]string, s.TagCount)
	for i := range sr.tagKeys {
		sr.tagKeys[i] = tkg.next()
		if sr.tagKeys[i] == s.TimestampKey || sr.tagKeys[i] == s.ValueKey {
			return nil, fmt.Errorf("tag key %q is also the timestampkey or valuekey", sr.tagKeys[i])
		}
	}
	sr.tagValues = make([]string, maxCard)
	for i := range sr.tagValues {
		sr.tagValues[i] = tvg.next()
	}
	if s.RandomTimeseriesOrder {
		// Java's Utils.shuffleArray (from the top down), from the seed.
		r := rand.New(rand.NewPCG(seed, 0x74696d65736572)) // "timeser"
		shuffle(r, sr.keys)
		shuffle(r, sr.tagValues)
	}
	rc := s.RecordCount
	if rc == 0 {
		rc = math.MaxInt32 // Java: recordcount 0 means Integer.MAX_VALUE
	}
	sr.maxOffsets = rc/int64(sr.total) + 1
	card := append([]int32{int32(s.NumKeys)}, make([]int32, s.TagCount)...)
	for i, c := range sr.tagCard {
		card[i+1] = int32(c)
	}
	sr.cum = make([]int32, len(card))
	for i := 1; i < len(card); i++ {
		p := int32(1)
		for _, c := range card[i:] {
			p *= c
		}
		sr.cum[i-1] = p
	}
	sr.cum[len(sr.cum)-1] = 1
	if s.RandomWriteTimestampOrder && sr.maxOffsets > maxIntervals {
		return nil, fmt.Errorf("randomwritetimestamporder: %d timestamp intervals (recordcount / series + 1) is more than Java's limit of %d", sr.maxOffsets, maxIntervals)
	}
	return sr, nil
}

func shuffle(r *rand.Rand, a []string) {
	for i := len(a) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// maxIntervals is Java RandomDiscreteTimestampGenerator's MAX_INTERVALS.
const maxIntervals = 16777216

// unitMultiplier is what Java's UnixEpochTimestampGenerator.getOffset
// multiplies an interval by: minutes, hours and days are counted in
// seconds.
func unitMultiplier(units string) int64 {
	switch units {
	case "MINUTES":
		return 60
	case "HOURS":
		return 3600
	case "DAYS":
		return 86400
	}
	return 1
}

// clockNow is Java's initalizeTimestamp clock reading: milliseconds for
// MILLISECONDS, else seconds (minutes, hours and days too).
func clockNow(units string) int64 {
	if units == "MILLISECONDS" {
		return time.Now().UnixMilli()
	}
	return time.Now().Unix()
}

// clock is Java's UnixEpochTimestampGenerator, or with random order its
// RandomDiscreteTimestampGenerator: one per worker.
type clock struct {
	start, current, last int64
	step                 int64   // getOffset(1)
	offsets              []int32 // random order: the shuffled interval offsets
	next                 int
}

var errClockDone = errors.New("randomwritetimestamporder: every timestamp interval has been written")

func newClock(s *Spec, maxOffsets int64, r *rand.Rand) *clock {
	c := &clock{step: s.TimestampInterval * unitMultiplier(s.TimestampUnits)}
	if s.StartSet {
		c.current = s.StartTimestamp - c.step
		c.start = c.current
		c.last = c.current - c.step
	} else {
		c.current = clockNow(s.TimestampUnits) - c.step
		c.start = c.current
		c.current -= c.step
		c.last = c.current
	}
	if s.RandomWriteTimestampOrder {
		c.offsets = make([]int32, maxOffsets)
		for i := range c.offsets {
			c.offsets[i] = int32(i)
		}
		for i := len(c.offsets) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			c.offsets[i], c.offsets[j] = c.offsets[j], c.offsets[i]
		}
	}
	return c
}

// advance is nextValue: the next timestamp.
func (c *clock) advance() (int64, error) {
	c.last = c.current
	if c.offsets == nil {
		c.current += c.step
		return c.current, nil
	}
	if c.next >= len(c.offsets) {
		return 0, errClockDone
	}
	c.current = c.start + int64(c.offsets[c.next])*c.step
	c.next++
	return c.current, nil
}

// offset is getOffset(n).
func (c *clock) offset(n int64) int64 { return n * c.step }
