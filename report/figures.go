package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Page is everything one report shows.
type Page struct {
	Title string
	// Runs are drawn together in the throughput plot and one by one in
	// the latency and spectrum plots.
	Runs []Run
	// Sweep, when set, adds the throughput-vs-threads and p99-vs-threads
	// plots and a table; Knee is the index of the knee step or -1.
	Sweep []SweepStep
	Knee  int
	// Warnings are shown at the top of the page.
	Warnings []string
	// Text is shown verbatim (for example the YCSB text report).
	Text string
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// Figures returns the document's pictures in page order: for a sweep the
// throughput and p99 curves and the spectra of all steps in one plot; the
// throughput of every run over time; per run its latency percentiles over
// time and (outside sweeps) its spectrum. Runs without intervals get no
// plots over time.
func Figures(d *Page) ([]Figure, error) {
	var figs []Figure
	if len(d.Sweep) > 0 {
		tp, p99, err := SweepPlots(d.Sweep, d.Knee)
		if err != nil {
			return nil, err
		}
		figs = append(figs, Figure{"sweep-throughput", "Throughput by threads", tp}, Figure{"sweep-p99", "p99 latency by threads", p99})
		if len(d.Runs) > 0 {
			sp, err := SpectrumByRunPlot(d.Runs)
			if err != nil {
				return nil, err
			}
			figs = append(figs, Figure{"sweep-spectrum", "Latency by percentile per step", sp})
		}
	}
	withIntervals := 0
	for _, r := range d.Runs {
		if len(r.Intervals) > 0 {
			withIntervals++
		}
	}
	if withIntervals > 0 {
		p, err := ThroughputPlot(d.Runs)
		if err != nil {
			return nil, err
		}
		figs = append(figs, Figure{"throughput", "Throughput over time", p})
	}
	for k, r := range d.Runs {
		if len(r.operations()) == 0 {
			continue
		}
		suffix := ""
		if len(d.Runs) > 1 {
			suffix = "-" + strings.Trim(unsafeName.ReplaceAllString(r.Name, "_"), "_")
			if suffix == "-" {
				suffix = fmt.Sprintf("-%d", k)
			}
		}
		if len(r.Intervals) > 0 {
			p, err := LatencyPlot(r)
			if err != nil {
				return nil, err
			}
			p.Title.Text += titleSuffix(d, r)
			figs = append(figs, Figure{"latency" + suffix, "Latency over time" + titleSuffix(d, r), p})
		}
		if len(d.Sweep) > 0 {
			continue // the per-step spectra are in sweep-spectrum
		}
		p, err := SpectrumPlot(r)
		if err != nil {
			return nil, err
		}
		p.Title.Text += titleSuffix(d, r)
		figs = append(figs, Figure{"spectrum" + suffix, "Latency by percentile" + titleSuffix(d, r), p})
	}
	return figs, nil
}

func titleSuffix(d *Page, r Run) string {
	if len(d.Runs) > 1 {
		return " — " + r.Name
	}
	return ""
}

// Render returns the figure as PNG or SVG bytes.
func (f Figure) Render(format string) ([]byte, error) {
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("figure %s: format %q (allowed: png, svg)", f.Name, format)
	}
	wt, err := f.Plot.WriterTo(figWidth, figHeight, format)
	if err != nil {
		return nil, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("figure %s: %w", f.Name, err)
	}
	return b.Bytes(), nil
}

// WriteFigures writes each figure to dir/<name>.<format> (format png or
// svg), creating dir, and returns the paths written.
func WriteFigures(dir, format string, figs []Figure) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	var paths []string
	for _, f := range figs {
		b, err := f.Render(format)
		if err != nil {
			return paths, err
		}
		p := filepath.Join(dir, f.Name+"."+format)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return paths, fmt.Errorf("figures: %w", err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
