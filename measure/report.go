package measure

import (
	"bufio"
	"cmp"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Value is a report value: an integer (Java long or int) or a double,
// rendered the way Java YCSB's exporters render them, or a word of
// gobench's own lines (such as merge's "[OVERALL], Window, common").
type Value struct {
	I       int64
	F       float64
	IsFloat bool
	Text    string
	IsText  bool
}

// Int returns an integer Value.
func Int(v int64) Value { return Value{I: v} }

// Float returns a double Value.
func Float(v float64) Value { return Value{F: v, IsFloat: true} }

// Text returns a word Value, printed as is (a JSON string in
// [WriteJSONArray]).
func Text(s string) Value { return Value{Text: s, IsText: true} }

// String renders an integer plainly, a double with [FormatJavaDouble] and
// a word as is.
func (v Value) String() string {
	switch {
	case v.IsText:
		return v.Text
	case v.IsFloat:
		return FormatJavaDouble(v.F)
	}
	return strconv.FormatInt(v.I, 10)
}

// Line is one line of a YCSB report: "[Metric], Measurement, Value".
type Line struct {
	Metric      string
	Measurement string
	Value       Value
}

// Type is the measurement type whose final block shape a report uses
// (YCSB's measurementtype property).
type Type int

const (
	// HdrHistogram is measurementtype=hdrhistogram (the default):
	// Operations, AverageLatency, Min, Max, one line per percentile, then
	// the Return= lines.
	HdrHistogram Type = iota
	// TimeSeries is measurementtype=timeseries: Operations, exact
	// AverageLatency, Min and Max, the Return= lines, then one
	// "[NAME], <window start ms>, <average>" line per non-empty window.
	TimeSeries
	// Histogram is measurementtype=histogram, Java's OneMeasurementHistogram:
	// Operations, AverageLatency, LatencyVariance, MinLatency and
	// MaxLatency (exact; -1 without samples), 95th and 99th percentiles at
	// 1 ms resolution from the 1 ms buckets (left out when they fall in the
	// overflow), then the Return= lines. It needs a collector with
	// [Options].Buckets; a series without buckets prints the HdrHistogram
	// block.
	Histogram
	// Raw is measurementtype=raw, Java's OneMeasurementRaw: Total
	// Operations, then (unless [LineOptions].NoRawSummary) a summary line,
	// Average, Min, Max and p1 to p99.99 ranked over the sorted samples,
	// then the Return= lines. The samples themselves are written with
	// [WriteRawData]. It needs a collector with [Options].Raw.
	Raw
	// HdrAndHistogram is measurementtype=hdrhistogram+histogram: per
	// series an HdrHistogram block named "Hdr<NAME>" (with the Return=
	// lines) and a Histogram block named "Bucket<NAME>" (without).
	HdrAndHistogram
	// HdrAndRaw is measurementtype=hdrhistogram+raw: "Hdr<NAME>" and
	// "Raw<NAME>" blocks.
	HdrAndRaw
)

// ParseType returns the Type of a measurementtype value.
func ParseType(s string) (Type, bool) {
	switch s {
	case "hdrhistogram":
		return HdrHistogram, true
	case "timeseries":
		return TimeSeries, true
	case "histogram":
		return Histogram, true
	case "raw":
		return Raw, true
	case "hdrhistogram+histogram":
		return HdrAndHistogram, true
	case "hdrhistogram+raw":
		return HdrAndRaw, true
	}
	return HdrHistogram, false
}

// Buckets reports whether t reports 1 ms buckets (collect with
// [Options].Buckets).
func (t Type) Buckets() bool { return t == Histogram || t == HdrAndHistogram }

// Raw reports whether t reports raw samples (collect with [Options].Raw).
func (t Type) Raw() bool { return t == Raw || t == HdrAndRaw }

// DefaultPercentiles is hdrhistogram.percentiles' default in Java YCSB
// master (0.17.0 used 95,99).
var DefaultPercentiles = []float64{50, 95, 99}

// GCStats is the garbage collector activity during a run, reported under
// Java YCSB's GC line names with "Go" as the collector name.
type GCStats struct {
	Count int64         // completed GC cycles
	Pause time.Duration // total stop-the-world pause time
}

// ReadGCStats returns the process's GC totals so far; subtract the values
// read at the start of a run from those read at its end.
func ReadGCStats() GCStats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return GCStats{Count: int64(m.NumGC), Pause: time.Duration(m.PauseTotalNs)}
}

// Sub returns g - o.
func (g GCStats) Sub(o GCStats) GCStats {
	return GCStats{Count: g.Count - o.Count, Pause: g.Pause - o.Pause}
}

// LineOptions shapes the final report.
type LineOptions struct {
	// RunTime is the run's wall time, printed as RunTime(ms) and used for
	// Throughput(ops/sec) = 1000 × Snapshot.Ops / RunTime(ms).
	RunTime time.Duration
	// Percentiles lists the percentile lines of each hdrhistogram block
	// (hdrhistogram.percentiles); nil means [DefaultPercentiles].
	Percentiles []float64
	// Type selects the block shape.
	Type Type
	// Granularity is timeseries.granularity; window labels are the window's
	// offset from the series' first window, rounded to a multiple of it.
	// Zero means one second.
	Granularity time.Duration
	// GC, when set, adds Java's GC lines after the OVERALL lines:
	// [TOTAL_GCS_Go], [TOTAL_GC_TIME_Go], [TOTAL_GC_TIME_%_Go], [TOTAL_GCs],
	// [TOTAL_GC_TIME] and [TOTAL_GC_TIME_%]. When nil they are left out.
	GC *GCStats
	// Verbose adds, after each hdrhistogram block's Return= lines, one
	// "[NAME], <value>, <count>" line per recorded histogram bucket
	// (measurement.histogram.verbose): the bucket's highest equivalent value
	// (capped at 2^31-1 as Java's int) and its count printed as a double.
	// After a histogram block it adds "[NAME], <i>, <count>" for every 1 ms
	// bucket and "[NAME], ><buckets>, <overflow>", as Java does.
	Verbose bool
	// NoRawSummary leaves the summary lines out of raw blocks
	// (measurement.raw.no_summary).
	NoRawSummary bool
	// Extra lines are written after the OVERALL (and GC) lines and before
	// the measurement blocks, where Java puts its optional JVM lines. Use
	// them for facts Java lacks, such as warm-up information; the default
	// report has none.
	Extra []Line
}

// Lines returns the lines of the final report for s in Java YCSB's order:
// [OVERALL] RunTime and Throughput, GC lines if requested, extra lines, then
// one block per active series, plain series first and Intended- series
// after, each group in java.util.concurrent.ConcurrentHashMap iteration
// order.
func Lines(s *Snapshot, o LineOptions) []Line {
	ms := o.RunTime.Milliseconds()
	lines := []Line{
		{"OVERALL", "RunTime(ms)", Int(ms)},
		{"OVERALL", "Throughput(ops/sec)", Float(1000.0 * float64(s.Ops) / float64(ms))},
	}
	if g := o.GC; g != nil {
		gcMs := g.Pause.Milliseconds()
		pct := float64(gcMs) / float64(ms) * 100
		lines = append(lines,
			Line{"TOTAL_GCS_Go", "Count", Int(g.Count)},
			Line{"TOTAL_GC_TIME_Go", "Time(ms)", Int(gcMs)},
			Line{"TOTAL_GC_TIME_%_Go", "Time(%)", Float(pct)},
			Line{"TOTAL_GCs", "Count", Int(g.Count)},
			Line{"TOTAL_GC_TIME", "Time(ms)", Int(gcMs)},
			Line{"TOTAL_GC_TIME_%", "Time(%)", Float(pct)},
		)
	}
	lines = append(lines, o.Extra...)
	pcts := o.Percentiles
	if pcts == nil {
		pcts = DefaultPercentiles
	}
	gran := o.Granularity
	if gran <= 0 {
		gran = time.Second
	}
	for _, i := range s.mapOrder() {
		name := s.Layout.Series[i]
		ser := &s.Series[i]
		switch o.Type {
		case TimeSeries:
			lines = appendTimeSeriesBlock(lines, s, name, ser, gran)
		case Histogram:
			lines = appendHistogramBlock(lines, s, name, ser, pcts, o.Verbose, true)
		case Raw:
			lines = appendRawBlock(lines, s, name, ser, o.NoRawSummary, true)
		case HdrAndHistogram:
			lines = appendHdrVerbose(lines, s, "Hdr"+name, ser, pcts, o.Verbose)
			lines = appendHistogramBlock(lines, s, "Bucket"+name, ser, pcts, o.Verbose, false)
		case HdrAndRaw:
			lines = appendHdrVerbose(lines, s, "Hdr"+name, ser, pcts, o.Verbose)
			lines = appendRawBlock(lines, s, "Raw"+name, ser, o.NoRawSummary, false)
		default:
			lines = appendHdrVerbose(lines, s, name, ser, pcts, o.Verbose)
		}
	}
	return lines
}

// appendHdrVerbose is the hdrhistogram block with, when verbose, its
// bucket lines.
func appendHdrVerbose(lines []Line, s *Snapshot, name string, ser *Series, pcts []float64, verbose bool) []Line {
	lines = appendHdrBlock(lines, s, name, ser, pcts)
	if verbose && ser.Count() > 0 {
		for _, b := range ser.Hist.Distribution() {
			if b.Count != 0 {
				v := min(b.To, math.MaxInt32)
				lines = append(lines, Line{name, strconv.FormatInt(v, 10), Float(float64(b.Count))})
			}
		}
	}
	return lines
}

func appendHdrBlock(lines []Line, s *Snapshot, name string, ser *Series, pcts []float64) []Line {
	mean, ok := ser.Mean()
	minV := ser.Min()
	if !ok {
		// Java YCSB 0.17.0 (HdrHistogram 2.1.4) prints an empty block so.
		mean, minV = math.NaN(), math.MaxInt64
	}
	lines = append(lines,
		Line{name, "Operations", Int(ser.Count())},
		Line{name, "AverageLatency(us)", Float(mean)},
		Line{name, "MinLatency(us)", Int(minV)},
		Line{name, "MaxLatency(us)", Int(ser.Max())},
	)
	for i, v := range ser.Percentiles(pcts) {
		lines = append(lines, Line{name, ordinal(pcts[i]) + "PercentileLatency(us)", Int(v)})
	}
	return appendReturnLines(lines, s, name, ser)
}

// appendHistogramBlock is Java's OneMeasurementHistogram export; codes
// says whether the block carries the Return= lines (not the second half
// of hdrhistogram+histogram, whose return codes Java gives the first).
func appendHistogramBlock(lines []Line, s *Snapshot, name string, ser *Series, pcts []float64, verbose, codes bool) []Line {
	n := ser.Count()
	if n > 0 && ser.Buckets == nil {
		return appendHdrVerbose(lines, s, name, ser, pcts, verbose) // no bucket data (a merged document)
	}
	mean := float64(ser.SumMicros) / float64(n)
	variance := ser.SumSquares/float64(n) - mean*mean
	minV, maxV := ser.MinMicros, ser.MaxMicros
	if n == 0 {
		minV, maxV = -1, -1
	}
	lines = append(lines,
		Line{name, "Operations", Int(n)},
		Line{name, "AverageLatency(us)", Float(mean)},
		Line{name, "LatencyVariance(us)", Float(variance)},
		Line{name, "MinLatency(us)", Int(minV)},
		Line{name, "MaxLatency(us)", Int(maxV)},
	)
	buckets := len(ser.Buckets) - 1 // the last one is the overflow
	var cum int64
	done95 := false
	for i := 0; i < buckets; i++ {
		cum += ser.Buckets[i]
		share := float64(cum) / float64(n)
		if !done95 && share >= 0.95 {
			lines = append(lines, Line{name, "95thPercentileLatency(us)", Int(int64(i) * 1000)})
			done95 = true
		}
		if share >= 0.99 {
			lines = append(lines, Line{name, "99thPercentileLatency(us)", Int(int64(i) * 1000)})
			break
		}
	}
	if codes {
		lines = appendReturnLines(lines, s, name, ser)
	}
	if verbose && buckets >= 0 {
		for i := 0; i < buckets; i++ {
			lines = append(lines, Line{name, strconv.Itoa(i), Int(ser.Buckets[i])})
		}
		lines = append(lines, Line{name, ">" + strconv.Itoa(buckets), Int(ser.Buckets[buckets])})
	}
	return lines
}

// rawRanks are the quantiles of Java's OneMeasurementRaw summary.
var rawRanks = []struct {
	label string
	q     float64
}{{"p1", 0.01}, {"p5", 0.05}, {"p50", 0.5}, {"p90", 0.9}, {"p95", 0.95}, {"p99", 0.99}, {"p99.9", 0.999}, {"p99.99", 0.9999}}

// appendRawBlock is Java's OneMeasurementRaw export (its data lines are
// [WriteRawData]'s).
func appendRawBlock(lines []Line, s *Snapshot, name string, ser *Series, noSummary, codes bool) []Line {
	n := len(ser.Raw)
	lines = append(lines, Line{name, "Total Operations", Int(int64(n))})
	if n > 0 && !noSummary {
		sorted := make([]int64, n)
		var total int64
		for i, r := range ser.Raw {
			sorted[i] = r.Micros
			total += r.Micros
		}
		slices.Sort(sorted)
		lines = append(lines,
			Line{name, "Below is a summary of latency in microseconds:", Int(-1)},
			Line{name, "Average", Float(float64(total) / float64(n))},
			Line{name, "Min", Int(sorted[0])},
			Line{name, "Max", Int(sorted[n-1])},
		)
		for _, r := range rawRanks {
			lines = append(lines, Line{name, r.label, Int(sorted[int(float64(n)*r.q)])})
		}
	}
	if codes {
		lines = appendReturnLines(lines, s, name, ser)
	}
	return lines
}

// WriteRawData writes the raw samples of every active series of s, in
// report order, as Java's OneMeasurementRaw does before its report lines:
// "<NAME> latency raw data: op, timestamp(ms), latency(us)", then one
// "<NAME>,<Unix ms at completion>,<µs>" line per sample. Samples are written
// in completion order (Java's, as far as the clock tells: gobench's
// recorders are merged, so ties in the millisecond keep recording order).
// prefix is put before each name ("Raw" for hdrhistogram+raw).
func WriteRawData(w io.Writer, s *Snapshot, prefix string) error {
	bw := bufio.NewWriter(w)
	var line []byte
	for _, i := range s.mapOrder() {
		name := prefix + s.Layout.Series[i]
		bw.WriteString(name)
		bw.WriteString(" latency raw data: op, timestamp(ms), latency(us)\n")
		raw := slices.Clone(s.Series[i].Raw)
		slices.SortStableFunc(raw, func(a, b RawSample) int { return cmp.Compare(a.UnixMilli, b.UnixMilli) })
		for _, r := range raw {
			line = append(line[:0], name...)
			line = append(line, ',')
			line = strconv.AppendInt(line, r.UnixMilli, 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, r.Micros, 10)
			line = append(line, '\n')
			bw.Write(line)
		}
	}
	return bw.Flush()
}

func appendTimeSeriesBlock(lines []Line, s *Snapshot, name string, ser *Series, gran time.Duration) []Line {
	minV, maxV := ser.MinMicros, ser.MaxMicros
	if ser.Count() == 0 {
		minV, maxV = -1, -1
	}
	lines = append(lines,
		Line{name, "Operations", Int(ser.Count())},
		Line{name, "AverageLatency(us)", Float(ser.exactMean())},
		Line{name, "MinLatency(us)", Int(minV)},
		Line{name, "MaxLatency(us)", Int(maxV)},
	)
	lines = appendReturnLines(lines, s, name, ser)
	if len(ser.Windows) == 0 {
		// Java closes the (empty) first window at export: 0/0 = NaN.
		return append(lines, Line{name, "0", Float(math.NaN())})
	}
	first := ser.Windows[0].Start
	g := gran.Milliseconds()
	for _, w := range ser.Windows {
		off := w.Start.Sub(first).Milliseconds()
		label := (off + g/2) / g * g
		avg := float64(w.SumMicros) / float64(w.Count)
		lines = append(lines, Line{name, strconv.FormatInt(label, 10), Float(avg)})
	}
	return lines
}

func appendReturnLines(lines []Line, s *Snapshot, name string, ser *Series) []Line {
	var idx []int
	var hashes []int32
	for c, n := range ser.Codes {
		if n != 0 {
			idx = append(idx, c)
			hashes = append(hashes, javaStatusHash(s.Layout.Codes[c]))
		}
	}
	for _, k := range javaMapOrder(hashes) {
		c := idx[k]
		lines = append(lines, Line{name, "Return=" + s.Layout.Codes[c], Int(ser.Codes[c])})
	}
	return lines
}

// mapOrder returns the indexes of the active series in report order: the
// plain series in Java map order, then the Intended- series in Java map
// order, with insertion order taken from Seen (active series missing from
// Seen follow in layout order).
func (s *Snapshot) mapOrder() []int {
	var insertion []int
	for _, i := range s.Seen {
		if i < len(s.Series) && s.Series[i].Active() {
			insertion = append(insertion, i)
		}
	}
	for i := range s.Series {
		if s.Series[i].Active() && !containsInt(insertion, i) {
			insertion = append(insertion, i)
		}
	}
	return s.javaOrder(insertion)
}

// javaOrder orders the series indexes given in insertion order as Java
// YCSB iterates its measurement maps: plain series in ConcurrentHashMap
// order, then the Intended- series (a separate map) in the same way.
func (s *Snapshot) javaOrder(insertion []int) []int {
	var out []int
	for _, intended := range []bool{false, true} {
		var idx []int
		var hashes []int32
		for _, i := range insertion {
			if strings.HasPrefix(s.Layout.Series[i], IntendedPrefix) == intended {
				idx = append(idx, i)
				hashes = append(hashes, javaStringHash(s.Layout.Series[i]))
			}
		}
		for _, k := range javaMapOrder(hashes) {
			out = append(out, idx[k])
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// WriteText writes lines in Java's TextMeasurementsExporter format, one
// "[metric], measurement, value" per line.
func WriteText(w io.Writer, lines []Line) error {
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteByte('[')
		bw.WriteString(l.Metric)
		bw.WriteString("], ")
		bw.WriteString(l.Measurement)
		bw.WriteString(", ")
		bw.WriteString(l.Value.String())
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// WriteJSONArray writes lines as Java's JSONArrayMeasurementsExporter does:
// one JSON array of {"metric", "measurement", "value"} objects, laid out
// by Jackson's DefaultPrettyPrinter, without a trailing newline. A NaN or
// infinite double is written as a string ("NaN", "Infinity"), as Jackson
// does by default, so the document stays valid JSON.
func WriteJSONArray(w io.Writer, lines []Line) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	for i, l := range lines {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString(" {\n  \"metric\" : ")
		writeJSONString(bw, l.Metric)
		bw.WriteString(",\n  \"measurement\" : ")
		writeJSONString(bw, l.Measurement)
		bw.WriteString(",\n  \"value\" : ")
		v := l.Value
		if v.IsText || v.IsFloat && (math.IsNaN(v.F) || math.IsInf(v.F, 0)) {
			writeJSONString(bw, v.String())
		} else {
			bw.WriteString(v.String())
		}
		bw.WriteString("\n}")
	}
	bw.WriteString(" ]")
	return bw.Flush()
}

func writeJSONString(w *bufio.Writer, s string) {
	const hex = "0123456789ABCDEF"
	w.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case c == '\n':
			w.WriteString(`\n`)
		case c == '\r':
			w.WriteString(`\r`)
		case c == '\t':
			w.WriteString(`\t`)
		case c < 0x20:
			w.WriteString(`\u00`)
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&15])
		default:
			w.WriteByte(c)
		}
	}
	w.WriteByte('"')
}
