package measure

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// StatusLine holds the inputs of one -s status line. It is plain data: the
// caller reads the clocks and counters, so rendering is a pure function.
type StatusLine struct {
	// Label is YCSB's -l label, printed first without a separator.
	Label string
	// Now is the wall-clock time printed as yyyy-MM-dd HH:mm:ss:SSS, in
	// Now's location.
	Now time.Time
	// Elapsed is the time since the status reporting started.
	Elapsed time.Duration
	// Ops is the number of operations completed so far by all workers;
	// PrevOps is the value at the previous line (0 for the first one).
	Ops, PrevOps int64
	// Interval is the time since the previous line (since the start for the
	// first one).
	Interval time.Duration
	// Remaining is the number of operations still to do; 0 when unknown or
	// unlimited, which leaves out the completion estimate.
	Remaining int64
	// Type selects the per-series summary: HdrHistogram gives
	// "[READ: Count=.., Max=.., ...]", TimeSeries and Histogram give
	// "[READ AverageLatency(us)=..]", Raw "READ count: .., average
	// latency(us): ..", and the hdrhistogram+ types both, a newline
	// between (Java's TwoInOneMeasurement).
	Type Type
}

// FormatStatus renders the status line (without a newline) exactly as Java
// YCSB's StatusThread does:
//
//	<label><yyyy-MM-dd HH:mm:ss:SSS> <E> sec: <N> operations; <C> current ops/sec; est completion in <T><S>
//
// where "<C> current ops/sec; " appears only when N ≠ 0, the estimate only
// when Remaining ≠ 0, and <S> is the summary of every series of iv that has
// been seen so far (iv.Seen), each followed by a space, in the report's map
// order. iv is the interval since the previous line; it may be nil.
func FormatStatus(st StatusLine, iv *Snapshot) string {
	var b strings.Builder
	b.WriteString(st.Label)
	b.WriteString(st.Now.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, ":%03d", st.Now.Nanosecond()/1e6)
	elapsedMs := st.Elapsed.Milliseconds()
	b.WriteByte(' ')
	b.WriteString(strconv.FormatInt(elapsedMs/1000, 10))
	b.WriteString(" sec: ")
	b.WriteString(strconv.FormatInt(st.Ops, 10))
	b.WriteString(" operations; ")
	if st.Ops != 0 {
		cur := 1000.0 * float64(st.Ops-st.PrevOps) / float64(st.Interval.Milliseconds())
		b.WriteString(FormatDecimal2(cur))
		b.WriteString(" current ops/sec; ")
	}
	if st.Remaining != 0 {
		throughput := 1000.0 * float64(st.Ops) / float64(elapsedMs)
		b.WriteString("est completion in ")
		b.WriteString(formatRemaining(javaLong(math.Ceil(float64(st.Remaining) / throughput))))
	}
	if iv != nil {
		for _, i := range iv.seenOrder() {
			b.WriteString(summary(st.Type, iv.Layout.Series[i], &iv.Series[i]))
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// WriteStatus writes FormatStatus(st, iv) and a newline to w.
func WriteStatus(w io.Writer, st StatusLine, iv *Snapshot) error {
	_, err := io.WriteString(w, FormatStatus(st, iv)+"\n")
	return err
}

// javaLong converts like Java's (long) cast: NaN → 0, saturating at the
// int64 range.
func javaLong(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// formatRemaining is Java YCSB's RemainingFormatter: days, then hours, then
// minutes (only below one day), and seconds only when nothing else was
// printed; every part is followed by a space.
func formatRemaining(seconds int64) string {
	var b strings.Builder
	part := func(n int64, one, many string) {
		b.WriteString(strconv.FormatInt(n, 10))
		if n == 1 {
			b.WriteString(one)
		} else {
			b.WriteString(many)
		}
	}
	days := seconds / 86400
	if days > 0 {
		part(days, " day ", " days ")
		seconds -= days * 86400
	}
	if hours := seconds / 3600; hours > 0 {
		part(hours, " hour ", " hours ")
		seconds -= hours * 3600
	}
	if days < 1 {
		if minutes := seconds / 60; minutes > 0 {
			part(minutes, " minute ", " minutes ")
		}
	}
	if b.Len() == 0 {
		// Java's test for the singular never matches: always "seconds".
		b.WriteString(strconv.FormatInt(seconds, 10))
		b.WriteString(" seconds ")
	}
	return b.String()
}

// summary renders one series' part of the status line.
func summary(t Type, name string, s *Series) string {
	switch t {
	case TimeSeries, Histogram:
		n := s.Count()
		if n == 0 {
			return ""
		}
		return "[" + name + " AverageLatency(us)=" + FormatDecimal2(float64(s.SumMicros)/float64(n)) + "]"
	case Raw:
		n := s.Count()
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("%s count: %d, average latency(us): %s", name, n, FormatJavaFixed(float64(s.SumMicros)/float64(n), 2))
	case HdrAndHistogram:
		return summary(HdrHistogram, "Hdr"+name, s) + "\n" + summary(Histogram, "Bucket"+name, s)
	case HdrAndRaw:
		return summary(HdrHistogram, "Hdr"+name, s) + "\n" + summary(Raw, "Raw"+name, s)
	}
	mean, _ := s.Mean() // 0 when empty, as HdrHistogram 2.1.12
	var b strings.Builder
	b.WriteString("[")
	b.WriteString(name)
	fmt.Fprintf(&b, ": Count=%d, Max=%d, Min=%d, Avg=%s", s.Count(), s.Max(), s.Min(), FormatDecimal2(mean))
	for i, v := range s.Percentiles(statusPercentiles) {
		fmt.Fprintf(&b, ", %s=%d", statusLabels[i], v)
	}
	b.WriteString("]")
	return b.String()
}

var (
	statusPercentiles = []float64{50, 90, 99, 99.9, 99.99}
	statusLabels      = []string{"50", "90", "99", "99.9", "99.99"}
)

// seenOrder is mapOrder restricted to the series in Seen, whether or not
// they are active in this snapshot.
func (s *Snapshot) seenOrder() []int {
	var idx []int
	for _, i := range s.Seen {
		if i < len(s.Series) {
			idx = append(idx, i)
		}
	}
	return s.javaOrder(idx)
}
