package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gobench/gobench/measure"
	rep "github.com/gobench/gobench/report"
)

func reportCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "report.html", "the HTML file, or the directory for -format png|svg")
	format := fs.String("format", "html", "html, png or svg")
	title := fs.String("title", "", "page title (default: the file names)")
	sweep := fs.Bool("sweep", false, "the files are the steps of a thread sweep (gobench sweep -keep DIR): add the sweep plots and table")
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return printUsage(stdout, fs, "gobench report [-o report.html | -format png|svg -o DIR] [-title T] [-sweep] RESULT.json...",
			"Draws result documents (gobench run/load -p exporter=json -p exportfile=PATH, gobench merge -o, gobench sweep -keep DIR)\nas one self-contained HTML page, or as one PNG or SVG file per figure.")
	}
	if err != nil {
		return usageErr(fmt.Errorf("report: %w", err))
	}
	if len(files) == 0 {
		return usageErr(errors.New("report: give the result files (written with -p exporter=json -p exportfile=PATH, or by gobench merge -o)"))
	}
	switch *format {
	case "html", "png", "svg":
	default:
		return usageErr(fmt.Errorf("report: -format %q (allowed: html, png, svg)", *format))
	}
	doc := rep.Page{Title: *title, Knee: -1}
	var names []string
	for _, p := range files {
		c, err := readResultFile(p)
		if err != nil {
			return usageErr(fmt.Errorf("report: %w", err))
		}
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		r, err := rep.RunFromResult(name, c.doc)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		r.Warnings = c.doc.Warnings
		doc.Runs = append(doc.Runs, r)
		names = append(names, name)
		if *sweep {
			n, err := strconv.Atoi(c.doc.Config["threadcount"])
			if err != nil {
				return usageErr(fmt.Errorf("report -sweep: %s has no threadcount in its configuration", p))
			}
			doc.Sweep = append(doc.Sweep, rep.SweepStep{Threads: n, Throughput: c.doc.Throughput, Summary: rep.Summarize(c.total), ClientSaturated: c.doc.ClientSaturated,
				OpenLoop: rep.OpenLoopOf(c.doc.OpenLoop)})
		}
	}
	if *sweep {
		idx := make([]int, len(doc.Sweep))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return doc.Sweep[idx[i]].Threads < doc.Sweep[idx[j]].Threads })
		steps, runs := make([]rep.SweepStep, len(idx)), make([]rep.Run, len(idx))
		for k, i := range idx {
			steps[k], runs[k] = doc.Sweep[i], doc.Runs[i]
		}
		doc.Sweep, doc.Runs = steps, runs
		doc.Knee = rep.Knee(doc.Sweep)
	}
	if doc.Title == "" {
		doc.Title = "gobench: " + strings.Join(names, ", ")
	}
	return writePage(&doc, *format, *out, stderr)
}

// clientResult is one result document, decoded.
type clientResult struct {
	path  string
	doc   *measure.Document
	total *measure.Snapshot
}

// readDocumentFile reads one result document; its histograms stay encoded.
func readDocumentFile(path string) (*measure.Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := measure.ReadDocument(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// readResultFile reads one result document and decodes its total.
func readResultFile(path string) (*clientResult, error) {
	doc, err := readDocumentFile(path)
	if err != nil {
		return nil, err
	}
	total, err := doc.Total()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &clientResult{path: path, doc: doc, total: total}, nil
}

// writePage writes doc as an HTML page (format html, out a file) or as
// one image file per figure (png or svg, out a directory), naming what it
// wrote on stderr.
func writePage(doc *rep.Page, format, out string, stderr io.Writer) error {
	if format != "html" {
		figs, err := rep.Figures(doc)
		if err != nil {
			return err
		}
		paths, err := rep.WriteFigures(out, format, figs)
		for _, p := range paths {
			fmt.Fprintf(stderr, "Wrote %s\n", p)
		}
		return err
	}
	tmp := out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := rep.WriteHTML(f, doc); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report: %w", err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(stderr, "Wrote %s\n", out)
	return nil
}

// parseInterspersed parses flags anywhere among the positional arguments
// (gobench merge a.json -o m.json b.json) and returns the positional ones.
// Flags take one or two dashes, as with the standard flag package.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// printUsage writes a sub-command's synopsis, description and flags.
func printUsage(w io.Writer, fs *flag.FlagSet, synopsis, about string) error {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n\nFlags:\n", synopsis, about)
	fs.SetOutput(w)
	fs.PrintDefaults()
	return nil
}
