package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workloads"
)

// writeUsage prints the usage text. The lists in it (commands, drivers,
// shipped workloads) come from the tables they describe, so they cannot
// drift.
func writeUsage(w io.Writer) error {
	var ycsb []string
	for _, i := range workloads.List() {
		if k, ok := workload.LookupKind(i.Kind); i.Kind == "" || ok && k.Command == "" {
			ycsb = append(ycsb, i.Name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `gobench: a native YCSB-compatible load generator for HBase, HDFS, Kafka
and an embedded store.

Usage:
  gobench load [BINDING] [-w NAME | -P FILE]... [-p key=value]... [flags]
  gobench run  [BINDING] [-w NAME | -P FILE]... [-p key=value]... [flags]
  gobench COMMAND [args]   (each command has --help)

Flags of load and run (YCSB's single-dash spellings work too: -threads 500):
  -w, --workload NAME       a shipped workload (%s); repeatable
  -P, --property-file FILE  a property file; repeatable, later files win
  -p, --prop key=value      set a property; beats every file
      --threads N           client threads (threadcount), default 1
      --target N            total ops/s over all threads; 0 = unthrottled
      --db NAME             driver: %s (default %s)
  -s, --status              status line every status.interval seconds (stderr)
  -l, --label TEXT          prefix of the status line
      --cp DIR              YCSB's -cp: a directory holding hbase-site.xml
      --jvm-args ARGS       accepted and ignored (there is no JVM)

Precedence, lowest first: defaults, -w and -P files in command-line order,
-p, explicit flags. Unknown properties are errors (with a hint).

Examples:
  gobench load -w workloada -p recordcount=100000   # into ./gobench-data (pebble)
  gobench run -w workloada -threads 16 -s           # the YCSB report on stdout
  gobench run basic -P workloads/workloadc -threads 64 -p operationcount=1000000
  gobench run -w workloadb -db hbase -threads 500 -target 20000 -s
  gobench run -w workloada -p maxexecutiontime=60 -p operationcount=0 -p gobench.warmup=10
  gobench run -w workloada -p exporter=json -p exportfile=result.json

Exit status: 0 ok, 1 the run failed (by default any failed operation fails it:
see gobench.maxerrorratio), 2 usage or configuration error.

Commands:
`, strings.Join(ycsb, ", "), strings.Join(drivers.Names(), ", "), workload.DefaultDB)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  gobench %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

// workloadsCmd is `gobench workloads`: the shipped workload files (with the
// command each non-YCSB preset belongs to) and the workload kinds.
func workloadsCmd(_ context.Context, _ []string, stdout, _ io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Shipped workload files (-w NAME, or -P workloads/NAME):")
	for _, w := range workloads.List() {
		use := "load, run"
		if k, ok := workload.LookupKind(w.Kind); ok && k.Command != "" {
			use = "run -db " + w.DB + " (or gobench " + k.Command + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\t[%s]\n", w.Name, w.Purpose, use)
	}
	fmt.Fprintln(tw, "\nWorkload kinds (the workload property):")
	for _, k := range workload.Kinds() {
		cmd := "load, run"
		if k.Command != "" {
			cmd = "gobench " + k.Command + ", or run -p workload=" + k.Name
		}
		fmt.Fprintf(tw, "  %s\t%s\t[%s]\n", k.Name, k.Summary, cmd)
	}
	return tw.Flush()
}
