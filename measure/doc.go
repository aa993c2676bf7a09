// Package measure records operation latencies and return codes without locks
// or allocation on the hot path, cuts them into interval snapshots, and
// renders them the way Java YCSB does: the final text report, the JSON
// array exporter, the -s status line, HdrHistogram interval logs and the
// timeseries block, plus gobench's own JSON result document.
//
// It may import only the standard library and
// github.com/HdrHistogram/hdrhistogram-go. It knows nothing about drivers or
// workloads: callers name their series and return codes in a [Layout] and
// refer to them by index.
package measure
