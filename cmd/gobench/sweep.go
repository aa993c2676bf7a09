package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/engine"
	rep "github.com/gobench/gobench/report"
)

// sweepArgs are sweep's own flags; every other argument goes to run.
type sweepArgs struct {
	threads []int
	targets []float64 // -target LIST: one step per rate, at threads[0] threads
	out     string    // report file (html) or directory (png, svg); "" = none
	format  string
	keep    string // directory for the steps' result documents; "" = none
	rest    []string
}

// parseSweepArgs takes -threads LIST, -o PATH, -format F and -keep DIR (one
// or two dashes, "-flag value" or "-flag=value") out of args.
func parseSweepArgs(args []string) (sweepArgs, error) {
	a := sweepArgs{format: "html"}
	var threads, targets string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.rest = append(a.rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		var dst *string
		switch {
		case !strings.HasPrefix(arg, "-"):
		case name == "threads":
			dst = &threads
		case name == "target":
			dst = &targets
		case name == "o":
			dst = &a.out
		case name == "format":
			dst = &a.format
		case name == "keep":
			dst = &a.keep
		}
		if dst == nil {
			a.rest = append(a.rest, arg)
			continue
		}
		if !hasVal {
			if i+1 == len(args) {
				return a, fmt.Errorf("sweep: -%s needs a value", name)
			}
			i++
			val = args[i]
		}
		*dst = val
	}
	if threads == "" && targets == "" {
		return a, errors.New("sweep: give the thread counts (-threads 10,50,100,500,1000) or the target rates (-target 1000,5000,20000)")
	}
	if threads == "" {
		threads = "1"
	}
	for _, f := range strings.Split(threads, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return a, fmt.Errorf("sweep: -threads %q: %q is not a thread count (want positive integers separated by commas)", threads, f)
		}
		a.threads = append(a.threads, n)
	}
	if targets != "" {
		if len(a.threads) > 1 {
			return a, fmt.Errorf("sweep: -target %q and -threads %q: sweep one of them (give one thread count with a list of targets)", targets, threads)
		}
		for _, f := range strings.Split(targets, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || !(v > 0) {
				return a, fmt.Errorf("sweep: -target %q: %q is not a rate (want positive operations per second separated by commas)", targets, f)
			}
			a.targets = append(a.targets, v)
		}
	}
	switch a.format {
	case "html", "png", "svg":
	default:
		return a, fmt.Errorf("sweep: -format %q (allowed: html, png, svg)", a.format)
	}
	return a, nil
}

const sweepUsage = `Usage: gobench sweep -threads 10,50,100,500,1000 [-o sweep.html | -format png|svg -o DIR] [-keep DIR] RUN-ARGS...
       gobench sweep -target 1000,5000,20000 [-threads N] -p gobench.arrival=poisson ... RUN-ARGS...

Runs "gobench run RUN-ARGS -threads N" in process once per thread count, or "-target R" once per
rate (load the data first), prints a table (threads or target, ops/s, p50, p99, p99.9, errors),
marks the knee (the first step after which throughput grows by less than 5 % while p99 grows) and
draws the report. A rate sweep finds the latency knee by rate best as open loops
(-p gobench.arrival=constant or poisson), whose latency counts from arrival.

Flags:
  -threads LIST   thread counts, comma-separated (required unless -target is given)
  -target LIST    target rates in ops/s, comma-separated, at one thread count (-threads N, default 1)
  -o PATH         the HTML report, or the directory for -format png|svg
  -format F       html (default), png or svg
  -keep DIR       write each step's result document to DIR (threads-N.json)
`

func sweepCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			_, err := io.WriteString(stdout, sweepUsage)
			return err
		}
	}
	a, err := parseSweepArgs(args)
	if err != nil {
		return usageErr(err)
	}
	if a.keep != "" {
		if err := os.MkdirAll(a.keep, 0o755); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	doc := rep.Page{Title: "gobench sweep: " + strings.Join(redactArgs(a.rest), " "), Knee: -1}
	type point struct {
		threads int
		target  float64 // 0: a thread sweep
	}
	var points []point
	for _, n := range a.threads {
		points = append(points, point{threads: n})
	}
	if a.targets != nil {
		points = points[:0]
		for _, r := range a.targets {
			points = append(points, point{a.threads[0], r})
		}
	}
	for _, p := range points {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "Sweep interrupted: the table covers the steps that ran.")
			break
		}
		name := stepName(p.threads, p.target)
		fmt.Fprintf(stderr, "Sweep: %s...\n", name)
		step, run, err := sweepStep(ctx, a, p.threads, p.target, stderr)
		if err != nil {
			return err
		}
		doc.Sweep = append(doc.Sweep, step)
		doc.Runs = append(doc.Runs, run)
		fmt.Fprintf(stderr, "Sweep: %s: %.1f ops/s, p99 %d us\n", name, step.Throughput, step.Summary.P99)
	}
	doc.Knee = rep.Knee(doc.Sweep)
	if err := writeSweepTable(stdout, doc.Sweep, doc.Knee); err != nil {
		return err
	}
	if a.keep != "" {
		fmt.Fprintf(stderr, "Step results kept in %s\n", a.keep)
	}
	if a.out == "" || len(doc.Sweep) == 0 {
		return nil
	}
	return writePage(&doc, a.format, a.out, stderr)
}

// stepName names a step: "16 threads", or "target 5000 ops/s".
func stepName(threads int, target float64) string {
	if target > 0 {
		return "target " + strconv.FormatFloat(target, 'f', -1, 64) + " ops/s"
	}
	return fmt.Sprintf("%d threads", threads)
}

// sweepStep runs the sweep's workload once with n threads (and -target
// target when > 0), in process, and returns its table row and its run for
// the report. Its stderr is shown only when it fails.
func sweepStep(ctx context.Context, a sweepArgs, n int, target float64, stderr io.Writer) (rep.SweepStep, rep.Run, error) {
	var errb bytes.Buffer
	fail := func(err error) (rep.SweepStep, rep.Run, error) {
		stderr.Write(errb.Bytes())
		err = fmt.Errorf("sweep: the step with %s failed: %w", stepName(n, target), err)
		var ue *usageError
		if errors.As(err, &ue) {
			return rep.SweepStep{}, rep.Run{}, usageErr(err)
		}
		return rep.SweepStep{}, rep.Run{}, err
	}
	args := append(append([]string{}, a.rest...), "-threads", strconv.Itoa(n))
	file := fmt.Sprintf("threads-%d.json", n)
	if target > 0 {
		args = append(args, "-target", strconv.FormatFloat(target, 'f', -1, 64))
		file = "target-" + strconv.FormatFloat(target, 'f', -1, 64) + ".json"
	}
	plan, warns, err := prepareBench(args, engine.Transactions, true, io.Discard)
	if err != nil {
		return fail(err)
	}
	printSetup(&errb, plan, warns)
	o, err := execute(ctx, plan, &errb, true)
	if o == nil || err != nil {
		if err == nil {
			err = errors.New("nothing ran")
		}
		return fail(err)
	}
	res, err := resultDocument(plan, o)
	if err != nil {
		return fail(err)
	}
	if a.keep != "" {
		if err := writeJSONFile(filepath.Join(a.keep, file), res); err != nil {
			return fail(err)
		}
	}
	step := rep.SweepStep{Threads: n, Target: target, Throughput: o.res.Throughput(), Summary: rep.Summarize(o.res.Snapshot), ClientSaturated: o.verdict.Saturated}
	run, err := rep.RunFromResult(stepName(n, target), res)
	if err != nil {
		return fail(err)
	}
	run.Warnings = res.Warnings
	step.OpenLoop = rep.OpenLoopOf(res.OpenLoop)
	return step, run, nil
}

// writeSweepTable prints one row per step and a line about the knee.
func writeSweepTable(w io.Writer, steps []rep.SweepStep, knee int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	byRate := len(steps) > 0 && steps[0].Target > 0
	open := false // open-loop steps: their queue columns after ops/s
	for _, s := range steps {
		open = open || s.OpenLoop != nil
	}
	first, queue := "threads", ""
	if byRate {
		first = "target"
	}
	if open {
		queue = "achieved\tpeakqueue\tlate\t"
	}
	fmt.Fprintf(tw, "%s\tops/s\t%sp50(us)\tp99(us)\tp99.9(us)\terrors\t\t\n", first, queue)
	for i, s := range steps {
		var marks []string
		if i == knee {
			marks = append(marks, "<- knee")
		}
		if s.ClientSaturated {
			marks = append(marks, "(client saturated)")
		}
		mark := strings.Join(marks, " ")
		first := strconv.Itoa(s.Threads)
		if byRate {
			first = strconv.FormatFloat(s.Target, 'f', -1, 64)
		}
		queue := ""
		if ol := s.OpenLoop; ol != nil {
			queue = fmt.Sprintf("%.1f\t%d\t%d\t", ol.Achieved, ol.PeakQueue, ol.Late)
		} else if open {
			queue = "-\t-\t-\t"
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%s%d\t%d\t%d\t%d\t%s\t\n", first, s.Throughput, queue, s.Summary.P50, s.Summary.P99, s.Summary.P999, s.Summary.Errors, mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range steps {
		if s.ClientSaturated {
			fmt.Fprintln(w, "Steps marked (client saturated): the client itself may have limited them; add client machines (gobench.clients) rather than threads.")
			break
		}
	}
	if knee < 0 {
		_, err := fmt.Fprintln(w, "No knee: throughput grew by 5 % or more at every step, or p99 did not grow.")
		return err
	}
	a, b := steps[knee], steps[knee+1]
	_, err := fmt.Fprintf(w, "Knee at %s: going to %s changed throughput by %+.1f %% while p99 went from %d to %d us.\n",
		stepName(a.Threads, a.Target), stepName(b.Threads, b.Target), 100*(b.Throughput/a.Throughput-1), a.Summary.P99, b.Summary.P99)
	return err
}
