// Package report turns gobench measurements into pictures and pages people
// can read: throughput over time, latency percentiles over time per
// operation, the HdrHistogram-style percentile spectrum, and, for a thread
// sweep, throughput and p99 against the number of threads, with the knee
// marked. Plots are drawn with gonum.org/v1/plot; [WriteHTML] embeds them
// as data: URIs, so the page needs no network, and [WriteFigures] writes
// them as PNG or SVG files.
//
// It also holds the small summaries the CLI prints next to YCSB's report
// (one row per client or per sweep step): [Summarize] and [Knee].
//
// It may import the standard library, gobench/measure, hdrhistogram-go and
// gonum.org/v1/plot. It reads no flags or environment and prints nothing;
// writers are passed in.
//
//	res, _ := measure.ReadDocument(f)
//	run, _ := report.RunFromResult("client 0", res)
//	doc := report.Page{Title: "workload A", Runs: []report.Run{run}}
//	err := report.WriteHTML(out, &doc)
package report
