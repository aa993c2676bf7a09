package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	rep "github.com/gobench/gobench/report"
)

// jobIndexEnv is set by Kubernetes in the pods of an Indexed Job.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

// addJobIndex gives gobench.client the value of JOB_COMPLETION_INDEX when
// that is set, gobench.clients is given and gobench.client is not, so an
// Indexed Job's pods need no per-pod arguments. (Without gobench.clients
// the index is ignored: a single-process run that happens to run in an
// Indexed Job stays client 0 of 1.) The value is decoded and checked like
// any other; its origin reads "JOB_COMPLETION_INDEX".
func addJobIndex(l *props.Layers, getenv func(string) string) {
	if _, _, ok := l.Origin("gobench.client"); ok {
		return
	}
	if _, _, ok := l.Origin("gobench.clients"); !ok {
		return
	}
	if v := getenv(jobIndexEnv); v != "" {
		l.Add(props.LayerOverride, props.Value{Key: "gobench.client", Value: v, Source: jobIndexEnv})
	}
}

// writeClientTable writes one row per client and one for the merge.
func writeClientTable(w io.Writer, m *measure.Merged) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "client\tops\tops/s\tp50(us)\tp99(us)\terrors\tfile\t")
	for k := range m.Docs {
		t, err := m.ClientTotal(k)
		if err != nil {
			return err
		}
		s := rep.Summarize(t)
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t%d\t%d\t%s\t\n", m.Names[k], s.Ops, m.Docs[k].Throughput, s.P50, s.P99, s.Errors, m.Labels[k])
	}
	s := rep.Summarize(m.Total)
	fmt.Fprintf(tw, "all\t%d\t%.1f\t%d\t%d\t%d\t%s\t\n", s.Ops, m.Throughput, s.P50, s.P99, s.Errors, "(merged)")
	return tw.Flush()
}

func mergeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "write the merged result document (JSON) to this file")
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return printUsage(stdout, fs, "gobench merge [-o merged.json] RESULT.json...",
			"Combines the result documents of several client processes (gobench.clients=N, -p exporter=json -p exportfile=PATH)\ninto one YCSB report: histograms merged exactly, throughput over the window in which all clients ran\n(over the window the others shared when some started late or ended early, over the union of their spans\nwhen that window is under half of it; [OVERALL], Window names which: common, live or union), and a table\nwith one row per client. Files of a load and a run (or of different workload kinds) are refused; missing\nclient numbers, clock skew over 1 s, and different gobench versions or settings are warned about.")
	}
	if err != nil {
		return usageErr(fmt.Errorf("merge: %w", err))
	}
	if len(files) == 0 {
		return usageErr(errors.New("merge: give the result files (written with -p exporter=json -p exportfile=PATH)"))
	}
	var docs []*measure.Document
	for _, p := range files {
		d, err := readDocumentFile(p)
		if err != nil {
			return usageErr(fmt.Errorf("merge: %w", err))
		}
		docs = append(docs, d)
	}
	// Merge fails only on what the files hold (a histogram that does not
	// decode, or one another file's range cannot hold): bad input.
	m, err := measure.Merge(docs, files)
	if err != nil {
		return usageErr(fmt.Errorf("merge: %w", err))
	}
	return printMerged(stdout, stderr, m, *out)
}

// printMerged prints a merge as gobench merge does: the warnings on
// stderr, the YCSB report and the per-client table on stdout, and the
// merged result document to out unless that is empty. gobench yarn prints
// its clients' merge with it.
func printMerged(stdout, stderr io.Writer, m *measure.Merged, out string) error {
	for _, w := range m.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	if err := measure.WriteText(stdout, m.Lines()); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if err := writeClientTable(stdout, m); err != nil {
		return err
	}
	if out != "" {
		doc, err := m.Document()
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := writeJSONFile(out, doc); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	return nil
}

// writeJSONFile writes doc as indented JSON to path through a temporary
// file.
func writeJSONFile(path string, doc any) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
