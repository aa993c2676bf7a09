package kafkaperf

import (
	"fmt"
	"sort"
	"time"

	"github.com/gobench/gobench/measure"
)

// Kafka perf tool output (ProducerPerformance, ConsumerPerformance) in
// Kafka's exact formats, so that scripts parsing the Java tools parse
// gobench. MB is 2^20 bytes throughout; numbers are Java's printf("%.Nf")
// ([measure.FormatJavaFixed]), as the tools print them.

const mib = 1 << 20

func perSec(n float64, d time.Duration) float64 { return n / d.Seconds() }

// ProducerWindowLine is ProducerPerformance's periodic line for records
// acknowledged in a window of length elapsed carrying bytes of payload.
func ProducerWindowLine(records int64, bytes int64, elapsed time.Duration, avgMs, maxMs float64) string {
	return fmt.Sprintf("%d records sent, %s records/sec (%s MB/sec), %s ms avg latency, %s ms max latency.",
		records, measure.FormatJavaFixed(perSec(float64(records), elapsed), 1), measure.FormatJavaFixed(perSec(float64(bytes), elapsed)/mib, 2),
		measure.FormatJavaFixed(avgMs, 1), measure.FormatJavaFixed(maxMs, 1))
}

// ProducerSummary is what ProducerPerformance's final line reports.
type ProducerSummary struct {
	Records, Bytes      int64
	Elapsed             time.Duration
	AvgMs, MaxMs        float64
	P50, P95, P99, P999 int64 // whole milliseconds
	// RateDecimals is -1 for Kafka ≤ 3.9's %f (6 decimals), else the
	// decimals of records/sec (1 for Kafka 4.x).
	RateDecimals int
}

// Line formats the final summary line.
func (s ProducerSummary) Line() string {
	dec := s.RateDecimals
	if dec < 0 {
		dec = 6
	}
	return fmt.Sprintf("%d records sent, %s records/sec (%s MB/sec), %s ms avg latency, %s ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.",
		s.Records, measure.FormatJavaFixed(perSec(float64(s.Records), s.Elapsed), dec), measure.FormatJavaFixed(perSec(float64(s.Bytes), s.Elapsed)/mib, 2),
		measure.FormatJavaFixed(s.AvgMs, 2), measure.FormatJavaFixed(s.MaxMs, 2), s.P50, s.P95, s.P99, s.P999)
}

// ConsumerHeader is ConsumerPerformance's header: the summary one, or the
// detailed one (--show-detailed-stats).
func ConsumerHeader(detailed bool) string {
	first := "start.time, end.time"
	if detailed {
		first = "time, threadId"
	}
	return first + ", data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec"
}

// KafkaDate formats t as Kafka's default --date-format,
// yyyy-MM-dd HH:mm:ss:SSS (a colon before the milliseconds).
func KafkaDate(t time.Time) string {
	return t.Format("2006-01-02 15:04:05") + fmt.Sprintf(":%03d", t.Nanosecond()/1e6)
}

// ConsumerSummaryRow is ConsumerPerformance's summary row: bytes (key +
// value) and records consumed between start and end, of which rebalance
// was spent joining the group.
func ConsumerSummaryRow(start, end time.Time, bytes, records int64, rebalance time.Duration) string {
	elapsedMs := end.Sub(start).Milliseconds()
	rebMs := rebalance.Milliseconds()
	fetchMs := elapsedMs - rebMs
	mb := float64(bytes) / mib
	sec := float64(elapsedMs) / 1000
	return fmt.Sprintf("%s, %s, %s, %s, %d, %s, %d, %d, %s, %s",
		KafkaDate(start), KafkaDate(end), measure.FormatJavaFixed(mb, 4), measure.FormatJavaFixed(mb/sec, 4), records,
		measure.FormatJavaFixed(float64(records)/sec, 4), rebMs, fetchMs,
		measure.FormatJavaFixed(mb/(float64(fetchMs)/1000), 4), measure.FormatJavaFixed(float64(records)/(float64(fetchMs)/1000), 4))
}

// ConsumerDetailRow is a --show-detailed-stats row at time now: cumulative
// bytes and records, interval rates over an interval of length iv of which
// rebalance was spent joining.
func ConsumerDetailRow(now time.Time, totalBytes, totalRecords, ivBytes, ivRecords int64, iv, rebalance time.Duration) string {
	ivMs := float64(iv.Milliseconds())
	rebMs := rebalance.Milliseconds()
	fetchMs := iv.Milliseconds() - rebMs
	fetchMB, fetchN := 0.0, 0.0
	if fetchMs > 0 {
		fetchMB = float64(ivBytes) / mib / (float64(fetchMs) / 1000)
		fetchN = float64(ivRecords) / (float64(fetchMs) / 1000)
	}
	return fmt.Sprintf("%s, %d, %s, %s, %d, %s, %d, %d, %s, %s",
		KafkaDate(now), 0, measure.FormatJavaFixed(float64(totalBytes)/mib, 4), measure.FormatJavaFixed(float64(ivBytes)/mib/ivMs*1000, 4),
		totalRecords, measure.FormatJavaFixed(float64(ivRecords)/ivMs*1000, 4), rebMs, fetchMs, measure.FormatJavaFixed(fetchMB, 4), measure.FormatJavaFixed(fetchN, 4))
}

// ConsumerTimeoutWarning is ConsumerPerformance's warning when it stopped
// short after timeout without records.
func ConsumerTimeoutWarning(timeout time.Duration) string {
	return fmt.Sprintf("WARNING: Exiting before consuming the expected number of messages: timeout (%d ms) exceeded. You can use the --timeout option to increase the timeout.", timeout.Milliseconds())
}

// Metric is one client metric as Kafka's --print-metrics names it:
// group:name:{tags}.
type Metric struct {
	Name  string
	Value float64
}

// MetricsTable formats metrics as Kafka's tools print them with
// --print-metrics (ToolsUtils.printMetrics): an empty line, a header, then
// one "name : value" line per metric in name order, names padded to the
// longest, values with 3 decimals.
func MetricsTable(ms []Metric) []string {
	if len(ms) == 0 {
		return nil
	}
	sorted := append([]Metric(nil), ms...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	w := 0
	for _, m := range sorted {
		w = max(w, len(m.Name))
	}
	out := []string{"", fmt.Sprintf("%-*s   %s", w, "Metric Name", "Value")}
	for _, m := range sorted {
		out = append(out, fmt.Sprintf("%-*s : %s", w, m.Name, measure.FormatJavaFixed(m.Value, 3)))
	}
	return out
}
