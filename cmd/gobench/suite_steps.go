package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	rep "github.com/gobench/gobench/report"
)

// stepResult is what a suite step measured.
type stepResult struct {
	metrics  []rep.Metric
	ceilings []rep.Ceiling
}

// suiteStepKind is a command a suite file may name: how to check its
// arguments before anything runs (nil: the command checks them when it
// runs) and how to run it in this process, writing what it prints to out.
type suiteStepKind struct {
	name  string
	check func(args []string) error
	run   func(ctx context.Context, args []string, out io.Writer) (stepResult, error)
}

// suiteSteps is every step a suite file may name, in one literal table.
func suiteSteps() []suiteStepKind {
	return []suiteStepKind{
		{name: "disk", check: checkDiskStep, run: diskSuiteStep},
		{name: "net", check: checkNetStep, run: netSuiteStep},
		{name: "dfsio", run: dfsioSuiteStep},
		{name: "load", run: ycsbSuiteStep("load")},
		{name: "run", run: ycsbSuiteStep("run")},
		{name: "producer-perf", run: producerSuiteStep},
		{name: "consumer-perf", run: consumerSuiteStep},
		{name: "hive", check: checkHiveStep, run: hiveSuiteStep},
	}
}

func lookupSuiteStep(name string) *suiteStepKind {
	for _, k := range suiteSteps() {
		if k.name == name {
			return &k
		}
	}
	return nil
}

func suiteStepNames() []string {
	var n []string
	for _, k := range suiteSteps() {
		n = append(n, k.name)
	}
	return n
}

// MB/s of the Java tools (TestDFSIO's mb/sec, Kafka's MB/sec) are MiB/s;
// the report's MB/s are 10⁶ bytes/s, as dd's.
const mib = 1 << 20

func checkDiskStep(args []string) error {
	_, help, err := parseDiskArgs(args)
	if help {
		return errors.New("-h is not a step")
	}
	return err
}

func diskSuiteStep(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
	a, _, err := parseDiskArgs(args)
	if err != nil {
		return stepResult{}, err
	}
	o, runErr := runDisk(ctx, a, out, out)
	var r stepResult
	if o == nil {
		return r, runErr
	}
	writeDiskTable(out, o)
	files := len(o.Dirs) * o.Files
	for _, t := range []struct{ test, kind string }{{"write", rep.DiskWrite}, {"read", rep.DiskRead}} {
		for _, run := range o.Runs {
			if run.Test == t.test && run.Err == "" && run.Skipped == "" {
				r.metrics = append(r.metrics, rep.Metric{Name: fmt.Sprintf("%s bs=%d", t.test, run.BS), Value: run.MBps, Unit: "MB/s", MBps: run.MBps})
			}
		}
		if mbps, bs, _, ok := o.Best(t.test); ok {
			r.ceilings = append(r.ceilings, rep.Ceiling{Kind: t.kind, MBps: mbps,
				Detail: fmt.Sprintf("gobench disk, bs %d, %d file(s) at once, conv=%s oflag=%s iflag=%s", bs, files, o.Conv, o.Oflag, o.Iflag)})
		}
	}
	return r, runErr
}

func checkNetStep(args []string) error {
	a, help, err := parseNetArgs(args)
	switch {
	case help != "":
		return errors.New("-h is not a step")
	case err != nil:
		return err
	case a.server:
		return errors.New("-s has no place in a suite: run gobench net -s (or iperf3 -s) on the other host, and net -c HOST here")
	case a.json:
		return errors.New("-J: the suite keeps the text (the report has the figures)")
	}
	return nil
}

func netSuiteStep(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
	a, _, err := parseNetArgs(args)
	if err != nil {
		return stepResult{}, err
	}
	res, err := netClient(ctx, a, out)
	var r stepResult
	if res.RecvBps > 0 {
		kind := rep.NetSend
		if a.reverse {
			kind = rep.NetRecv
		}
		mbps := res.RecvBps / 8 / 1e6
		r.metrics = append(r.metrics, rep.Metric{Name: "receiver", Value: res.RecvBps / 1e9, Unit: "Gbits/sec", MBps: mbps},
			rep.Metric{Name: "sender", Value: res.SenderBps / 1e9, Unit: "Gbits/sec"})
		if err == nil {
			r.ceilings = append(r.ceilings, rep.Ceiling{Kind: kind, MBps: mbps, Detail: fmt.Sprintf("gobench net -c %s, %d stream(s), receiver's count", res.Peer, res.Streams)})
		}
	}
	return r, err
}

// runCommand runs a gobench command in this process, both its outputs to
// out.
func runCommand(ctx context.Context, name string, args []string, out io.Writer) error {
	c, ok := lookupCommand(name)
	if !ok {
		return fmt.Errorf("no command %s in this build", name)
	}
	return c.run(ctx, args, out, out)
}

// capture runs a command and keeps a copy of what it printed.
func capture(ctx context.Context, name string, args []string, out io.Writer) (string, error) {
	var b strings.Builder
	err := runCommand(ctx, name, args, io.MultiWriter(out, &b))
	return b.String(), err
}

func number(re *regexp.Regexp, s string) (float64, bool) {
	m := re.FindAllStringSubmatch(s, -1)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[len(m)-1][1], 64)
	return v, err == nil
}

var (
	dfsioAggregate = regexp.MustCompile(`gobench: Aggregate throughput mb/sec: ([0-9.]+)`)
	dfsioPerFile   = regexp.MustCompile(`Throughput mb/sec: ([0-9.]+)`)
	ycsbThroughput = regexp.MustCompile(`(?m)^\[OVERALL\], Throughput\(ops/sec\), ([0-9.Ee+-]+)$`)
	producerFinal  = regexp.MustCompile(`(?m)^\d+ records sent, [0-9.]+ records/sec \(([0-9.]+) MB/sec\), .* 99\.9th\.$`)
	consumerLine   = regexp.MustCompile(`(?m)^[0-9-]+ [0-9:]+, [0-9-]+ [0-9:]+, [0-9.]+, ([0-9.]+), `)
)

// dfsioSuiteStep runs TestDFSIO and reads its aggregate throughput
// (TestDFSIO's own figure is per file).
func dfsioSuiteStep(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
	text, err := capture(ctx, "dfsio", args, out)
	var r stepResult
	against := []string{rep.DiskWrite}
	for _, a := range args {
		if strings.HasPrefix(strings.ToLower(a), "-read") {
			against = []string{rep.DiskRead}
		}
	}
	if v, ok := number(dfsioAggregate, text); ok {
		r.metrics = append(r.metrics, rep.Metric{Name: "aggregate", Value: v * mib / 1e6, Unit: "MB/s", MBps: v * mib / 1e6, Against: against})
	}
	if v, ok := number(dfsioPerFile, text); ok {
		r.metrics = append(r.metrics, rep.Metric{Name: "per file (TestDFSIO's Throughput mb/sec)", Value: v, Unit: "MiB/s"})
	}
	if err == nil && len(r.metrics) == 0 {
		err = errors.New("dfsio printed no throughput")
	}
	return r, err
}

// ycsbSuiteStep runs YCSB's load or run phase; ops/s have no byte ceiling.
func ycsbSuiteStep(phase string) func(context.Context, []string, io.Writer) (stepResult, error) {
	return func(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
		text, err := capture(ctx, phase, args, out)
		var r stepResult
		if v, ok := number(ycsbThroughput, text); ok {
			r.metrics = append(r.metrics, rep.Metric{Name: "throughput", Value: v, Unit: "ops/s"})
		} else if err == nil {
			err = errors.New(phase + " printed no [OVERALL] throughput")
		}
		return r, err
	}
}

func producerSuiteStep(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
	text, err := capture(ctx, "producer-perf", args, out)
	var r stepResult
	if v, ok := number(producerFinal, text); ok {
		r.metrics = append(r.metrics, rep.Metric{Name: "produced", Value: v * mib / 1e6, Unit: "MB/s", MBps: v * mib / 1e6, Against: []string{rep.NetSend, rep.DiskWrite}})
	} else if err == nil {
		err = errors.New("producer-perf printed no final line")
	}
	return r, err
}

func consumerSuiteStep(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
	text, err := capture(ctx, "consumer-perf", args, out)
	var r stepResult
	if v, ok := number(consumerLine, text); ok {
		r.metrics = append(r.metrics, rep.Metric{Name: "consumed", Value: v * mib / 1e6, Unit: "MB/s", MBps: v * mib / 1e6, Against: []string{rep.NetRecv, rep.DiskRead}})
	} else if err == nil {
		err = errors.New("consumer-perf printed no result line")
	}
	return r, err
}

// hiveRow is a row of gobench hive's per-query table: name, runs, failed,
// min and median in ms.
var hiveRow = regexp.MustCompile(`(?m)^\s*(\S+)\s+(\d+)\s+(\d+)\s+[\d.]+\s+([\d.]+)\s`)

func checkHiveStep(args []string) error {
	_, _, err := hiveLayers(args)
	return err
}

// hiveSuiteStep runs gobench hive; each query's median time is a metric
// (queries have no byte ceiling).
func hiveSuiteStep(ctx context.Context, args []string, out io.Writer) (stepResult, error) {
	text, err := capture(ctx, "hive", args, out)
	var r stepResult
	for _, m := range hiveRow.FindAllStringSubmatch(text, -1) {
		if v, perr := strconv.ParseFloat(m[4], 64); perr == nil {
			r.metrics = append(r.metrics, rep.Metric{Name: m[1] + " median", Value: v / 1000, Unit: "s"})
		}
	}
	if err == nil && len(r.metrics) == 0 {
		err = errors.New("hive printed no query times")
	}
	return r, err
}
