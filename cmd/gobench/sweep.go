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

	rep "github.com/gobench/gobench/report"
)

func init() {
	commands["sweep"] = command{"run the same workload at several thread counts; table, knee and report", sweepCmd}
}

// sweepArgs are sweep's own flags; every other argument goes to run.
type sweepArgs struct {
	threads []int
	out     string // report file (html) or directory (png, svg); "" = none
	format  string
	keep    string // directory for the steps' result documents; "" = temporary
	rest    []string
}

// parseSweepArgs takes -threads LIST, -o PATH, -format F and -keep DIR (one
// or two dashes, "-flag value" or "-flag=value") out of args.
func parseSweepArgs(args []string) (sweepArgs, error) {
	a := sweepArgs{format: "html"}
	var threads string
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
	if threads == "" {
		return a, errors.New("sweep: give the thread counts: -threads 10,50,100,500,1000")
	}
	for _, f := range strings.Split(threads, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return a, fmt.Errorf("sweep: -threads %q: %q is not a thread count (want positive integers separated by commas)", threads, f)
		}
		a.threads = append(a.threads, n)
	}
	switch a.format {
	case "html", "png", "svg":
	default:
		return a, fmt.Errorf("sweep: -format %q (allowed: html, png, svg)", a.format)
	}
	return a, nil
}

const sweepUsage = `Usage: gobench sweep -threads 10,50,100,500,1000 [-o sweep.html | -format png|svg -o DIR] [-keep DIR] RUN-ARGS...

Runs "gobench run RUN-ARGS -threads N" once per thread count (load the data first), prints a
table (threads, ops/s, p50, p99, p99.9, errors), marks the knee (the first step after which
throughput grows by less than 5 % while p99 grows) and draws the report.

Flags:
  -threads LIST   thread counts, comma-separated (required)
  -o PATH         the HTML report, or the directory for -format png|svg
  -format F       html (default), png or svg
  -keep DIR       keep each step's result document in DIR (else a temporary directory)
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
	dir := a.keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "gobench-sweep-"); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	doc := rep.Page{Title: "gobench sweep: " + strings.Join(a.rest, " "), Knee: -1}
	for _, n := range a.threads {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "Sweep interrupted: the table covers the steps that ran.")
			break
		}
		file := filepath.Join(dir, fmt.Sprintf("threads-%d.json", n))
		stepArgs := append(append([]string{"run"}, a.rest...), "-threads", strconv.Itoa(n), "-p", "exporter=json", "-p", "exportfile="+file)
		fmt.Fprintf(stderr, "Sweep: %d threads...\n", n)
		var errb bytes.Buffer
		if code := run(ctx, stepArgs, io.Discard, &errb); code != exitOK {
			stderr.Write(errb.Bytes())
			err := fmt.Errorf("sweep: the step with %d threads failed (exit %d)", n, code)
			if code == exitUsage {
				return usageErr(err)
			}
			return err
		}
		c, err := readResultFile(file)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		step := rep.SweepStep{Threads: n, Throughput: c.doc.Throughput, Summary: rep.Summarize(c.total), ClientSaturated: c.doc.ClientSaturated}
		doc.Sweep = append(doc.Sweep, step)
		r, err := rep.RunFromResult(fmt.Sprintf("%d threads", n), c.doc)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		r.Warnings = c.doc.Warnings
		doc.Runs = append(doc.Runs, r)
		fmt.Fprintf(stderr, "Sweep: %d threads: %.1f ops/s, p99 %d us\n", n, step.Throughput, step.Summary.P99)
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

// writeSweepTable prints one row per step and a line about the knee.
func writeSweepTable(w io.Writer, steps []rep.SweepStep, knee int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "threads\tops/s\tp50(us)\tp99(us)\tp99.9(us)\terrors\t\t")
	for i, s := range steps {
		var marks []string
		if i == knee {
			marks = append(marks, "<- knee")
		}
		if s.ClientSaturated {
			marks = append(marks, "(client saturated)")
		}
		mark := strings.Join(marks, " ")
		fmt.Fprintf(tw, "%d\t%.1f\t%d\t%d\t%d\t%d\t%s\t\n", s.Threads, s.Throughput, s.Summary.P50, s.Summary.P99, s.Summary.P999, s.Summary.Errors, mark)
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
	_, err := fmt.Fprintf(w, "Knee at %d threads: going to %d threads changed throughput by %+.1f %% while p99 went from %d to %d us.\n",
		a.Threads, b.Threads, 100*(b.Throughput/a.Throughput-1), a.Summary.P99, b.Summary.P99)
	return err
}
