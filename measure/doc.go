// Package measure records operation latencies and return codes without locks
// or allocation on the hot path, cuts them into interval snapshots, and
// renders them the way Java YCSB does: the final text report, the JSON array
// exporter, the -s status line, HdrHistogram interval logs and the
// timeseries block, plus gobench's own JSON result document that later runs
// can merge exactly.
//
// It may import only the standard library and
// github.com/HdrHistogram/hdrhistogram-go, and reaches into the runtime in
// one place: procid.go links to runtime.procPin, which the Go team keeps
// for outside packages (go.dev/issue/67401), to learn which CPU's
// recorders a pooled writer should claim. It knows nothing about drivers or
// workloads: callers name their series ("READ", "READ-FAILED",
// "Intended-READ", "CLEANUP", ...) and return codes ("OK", "NOT_FOUND", ...)
// in a [Layout] and refer to them by index.
//
// # Recording
//
// A [Collector] hands out [Recorder]s. A recorder owns two buffers of
// per-series histogram counts (µs, 1 µs to one hour, 3 significant digits
// by default, in hdrhistogram-go's counts layout, allocated on a series'
// first sample) and code counters, and is written in one of three ways:
//   - shared ([Collector.NewRecorder]): any number of goroutines update the
//     active buffer with atomic adds inside a writer-reader phaser critical
//     section (after HdrHistogram's WriterReaderPhaser);
//   - single-writer ([Collector.NewSingleWriterRecorder]): one goroutine
//     adds plainly inside that section, the phaser's enter (an atomic add)
//     and exit (a release store: plain on amd64) ordering its writes
//     before the collector's reads (gobench's runner, package engine,
//     gives each worker one when there are at most 4×GOMAXPROCS);
//   - pooled ([Collector.NewPool]): many goroutines share a few recorders,
//     each claiming one that nobody holds for its writes ([Pool.Claim],
//     one compare-and-swap) and releasing it after (one release store); the claim
//     is the critical section, the adds are plain (the runner's choice for
//     more workers than that, so memory stays small with thousands).
//
// Every way is lock-free and allocation-free on the hot path.
// [Collector.Cut] swaps every recorder's buffers, waits for the phase flips,
// and turns the old buffers into an interval [Snapshot] of hdrhistogram-go
// histograms, which it also adds to the running total. So nothing is lost
// or counted twice, the final report is exactly the merge of the intervals,
// and histograms from several processes merge exactly too
// ([Snapshot.Merge], [Document]).
//
// # Merging the clients of one run
//
// [Merge] takes the result documents of several client processes and
// returns their exact merge ([Merged]): the total snapshot, the union of
// their time spans and the common window in which all ran, the merged
// intervals (binned by [BinIntervals]), warnings (clients that did not run
// together, configurations that differ, a client merged twice, the
// clients' own warnings) and the throughput with the window it is computed
// over: the common window when it covers at least [MinCommon] of the
// union, else the union, so clients that ran one after another never add
// up to an inflated figure; when some clients started late or ended early
// (killed, say), the live window that the others shared. Each client's
// intervals are aligned by its own start when the clocks differ by at most
// [SkewBound]; documents of different phases or workload kinds are
// refused, different gobench versions, configurations and missing client
// numbers warned about. [Merged.Lines] is the YCSB report of the merge
// (with "[OVERALL], Window, common|live|union" after the Throughput line)
// and [Merged.Document] the merged result document.
//
//	docs := []*measure.Document{d0, d1} // measure.ReadDocument of each file
//	m, err := measure.Merge(docs, []string{"c0.json", "c1.json"})
//	measure.WriteText(os.Stdout, m.Lines())
//
//	c := measure.NewCollector(measure.Layout{
//		Series: []string{"READ", "READ-FAILED"},
//		Codes:  []string{"OK", "NOT_FOUND"},
//	}, measure.Options{})
//	r := c.NewRecorder()                  // in each worker
//	r.Record(0, elapsed); r.Count(0, 0); r.Done(1)
//	iv := c.Cut(time.Now())               // every status interval
//	fmt.Fprintln(os.Stderr, measure.FormatStatus(st, iv))
//	measure.WriteText(os.Stdout, measure.Lines(c.Total(), measure.LineOptions{RunTime: d}))
//
// # Java compatibility and deliberate deviations
//
//   - Block order is java.util.concurrent.ConcurrentHashMap's iteration order
//     (including table resizes past 12 names); plain series first, then the
//     Intended- series, which Java keeps in a second map. Java breaks ties
//     by the (racy) order in which threads created the measurements; here it
//     is the order in which series first appeared in a cut, then layout
//     order. Return= lines follow the hash order of YCSB's Status objects,
//     whose hashCode mixes in the status description (hence NOT_FOUND before
//     ERROR); ties there follow layout order.
//   - Doubles print as JDK 19+ Double.toString (shortest round-trip). Older
//     JDKs occasionally print one more digit.
//   - Percentiles, means, minima and maxima follow Java HdrHistogram 2.1.12
//     (YCSB master): rank ⌈p/100 × count⌉, bucket-median mean,
//     bucket-equivalent extremes. hdrhistogram-go's own ValueAtPercentile
//     rounds the rank to nearest and is not used. YCSB 0.17.0 used
//     HdrHistogram 2.1.4, whose rank rounding differs for some counts.
//   - A block without samples (e.g. every READ failed) prints as YCSB 0.17.0
//     does: AverageLatency NaN, MinLatency 9223372036854775807, MaxLatency 0,
//     percentiles 0. An idle series in the status line prints zeros, as YCSB
//     master does.
//   - The status line has master's 50= field; DecimalFormat's NaN and
//     infinity print as "NaN" and "∞" (JDK 9+ locale data).
//   - JVM GC lines are left out unless [LineOptions].GC is set; then Go's
//     GC count and pause time appear under Java's names with "Go" as the
//     collector name ([TOTAL_GCS_Go], ..., [TOTAL_GC_TIME_%]).
//     [LineOptions].Extra adds further lines (e.g. warm-up facts) after
//     them, where Java prints its optional JVM lines; the default report
//     has none.
//   - Histograms do not auto-resize as Java's do: samples above
//     [Options].Highest are recorded as Highest.
//   - measurementtype=timeseries: a window is one collector interval, so the
//     runner cuts every timeseries.granularity; labels are the window's
//     offset from the series' first window rounded to the granularity
//     (Java measures from the series' first operation). Windows without
//     operations are skipped, as in Java; a series with return codes but no
//     samples prints Java's "[NAME], 0, NaN".
//   - measurementtype=histogram, raw and hdrhistogram+histogram|raw print
//     Java's blocks (OneMeasurementHistogram, OneMeasurementRaw,
//     TwoInOneMeasurement) from data counted beside the HDR histograms
//     ([Options].Buckets, Raw): exact sums, squares and extremes, 1 ms
//     buckets, every raw sample with its completion time. Raw samples are
//     kept in the collector's total only and are not in the result
//     document; neither are the buckets, so a merged report prints HDR
//     blocks.
//   - Only the JSON array exporter is provided, not Java's stream of
//     root-level objects, which is not one valid JSON document.
//   - HdrHistogram logs carry the series' first interval start as start and
//     base time, so interval timestamps are relative, as YCSB writes them.
package measure
