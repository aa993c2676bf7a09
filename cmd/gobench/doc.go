// Command gobench is the CLI: YCSB's load and run (with YCSB's flags,
// property files and report lines), TestDFSIO (gobench dfsio), Kafka's
// producer and consumer perf tools, sweep, merge and report, and yarn
// (N clients as one YARN application, merged as merge does).
//
// Every command that runs something turns its own flag spellings into
// property layers, calls workload.Prepare, runs the Plan with the CLI's
// observers (status line, HDR logs, live metrics, the saturation monitor,
// the progress line) and renders the result; the commands are one literal
// table (app.go). It is the only package that reads flags and the
// environment, writes to stdout and exits (exit status 0 ok, 1 the run
// failed, 2 usage or configuration error), and it blank-imports every
// driver it offers (drivers.go).
//
// It may import every gobench package.
package main
