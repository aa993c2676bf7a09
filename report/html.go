package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
)

type htmlFigure struct {
	Title string
	URI   template.URL
}

type htmlRow struct {
	Name                             string
	Count                            int64
	Mean                             string
	P50, P95, P99, P999, Max, Errors int64
}

type htmlRun struct {
	Name       string
	Throughput string
	RunTime    string
	Ops        int64
	Warnings   []string
	Rows       []htmlRow
	Config     []string
}

type htmlStep struct {
	Threads                string // the thread count, or the target of a rate sweep
	Throughput             string
	P50, P99, P999, Errors int64
	Knee, Saturated        bool
	// An open-loop step's achieved rate, peak queue and late starts;
	// "" in a closed-loop step of a sweep that has open-loop ones.
	Achieved, Queue, Late string
}

type htmlPage struct {
	Title    string
	Warnings []string
	Sweep    []htmlStep
	SweepBy  string // "threads" or "target (ops/s)"
	OpenLoop bool   // some step is an open loop: the queue columns
	Runs     []htmlRun
	Figures  []htmlFigure
	Text     string
}

// WriteHTML writes d as one self-contained HTML page: summary tables and
// every figure of [Figures] embedded as an SVG data: URI, so it opens
// without network access.
func WriteHTML(w io.Writer, d *Page) error {
	figs, err := Figures(d)
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	pg := htmlPage{Title: d.Title, Warnings: d.Warnings, Text: d.Text}
	if pg.Title == "" {
		pg.Title = "gobench report"
	}
	pg.SweepBy = "threads"
	for i, s := range d.Sweep {
		x := strconv.Itoa(s.Threads)
		if s.Target > 0 {
			x, pg.SweepBy = strconv.FormatFloat(s.Target, 'f', -1, 64), "target (ops/s)"
		}
		st := htmlStep{Threads: x, Throughput: fmt.Sprintf("%.1f", s.Throughput), P50: s.Summary.P50, P99: s.Summary.P99, P999: s.Summary.P999,
			Errors: s.Summary.Errors, Knee: i == d.Knee, Saturated: s.ClientSaturated}
		if ol := s.OpenLoop; ol != nil {
			pg.OpenLoop = true
			st.Achieved, st.Queue, st.Late = fmt.Sprintf("%.1f", ol.Achieved), strconv.FormatInt(ol.PeakQueue, 10), strconv.FormatInt(ol.Late, 10)
		}
		pg.Sweep = append(pg.Sweep, st)
	}
	for _, r := range d.Runs {
		pg.Runs = append(pg.Runs, htmlRunOf(r))
	}
	for _, f := range figs {
		b, err := f.Render("svg")
		if err != nil {
			return fmt.Errorf("html report: %w", err)
		}
		pg.Figures = append(pg.Figures, htmlFigure{f.Title, template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b))})
	}
	if err := page.Execute(w, pg); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}

func htmlRunOf(r Run) htmlRun {
	h := htmlRun{Name: r.Name, Throughput: fmt.Sprintf("%.1f", r.throughput()), RunTime: r.RunTime.String(), Ops: r.Total.Ops, Warnings: r.Warnings}
	for _, op := range r.operations() {
		s := r.Total.Lookup(op)
		p := s.Percentiles([]float64{50, 95, 99, 99.9})
		mean, _ := s.Mean()
		var errs int64
		for c, n := range s.Codes {
			if IsError(r.Total.Layout.Codes[c]) {
				errs += n
			}
		}
		h.Rows = append(h.Rows, htmlRow{op, s.Count(), fmt.Sprintf("%.1f", mean), p[0], p[1], p[2], p[3], s.Max(), errs})
	}
	for k, v := range r.Config {
		h.Config = append(h.Config, k+"="+v)
	}
	sort.Strings(h.Config)
	return h
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}
th{background:#eee}td:first-child{text-align:left}
.warn{background:#fff3cd;border:1px solid #e0b000;padding:.5em 1em;margin:.5em 0}
.knee{background:#ffd6d6;font-weight:bold}
img{max-width:100%;border:1px solid #ddd;margin:.5em 0}
pre{background:#f6f6f6;padding:1em;overflow:auto}
</style></head><body>
<h1>{{.Title}}</h1>
{{range .Warnings}}<div class="warn">⚠ {{.}}</div>
{{end}}{{if .Sweep}}<h2>Sweep by {{.SweepBy}}</h2>
<table><tr><th>{{.SweepBy}}</th><th>ops/s</th>{{if .OpenLoop}}<th>achieved rate (ops/s)</th><th>peak queue</th><th>started late (&gt;1 ms)</th>{{end}}<th>p50 (µs)</th><th>p99 (µs)</th><th>p99.9 (µs)</th><th>errors</th><th></th></tr>
{{$open := .OpenLoop}}{{range .Sweep}}<tr{{if .Knee}} class="knee"{{end}}><td>{{.Threads}}</td><td>{{.Throughput}}</td>{{if $open}}<td>{{.Achieved}}</td><td>{{.Queue}}</td><td>{{.Late}}</td>{{end}}<td>{{.P50}}</td><td>{{.P99}}</td><td>{{.P999}}</td><td>{{.Errors}}</td><td>{{if .Knee}}knee{{end}}{{if and .Knee .Saturated}}; {{end}}{{if .Saturated}}client saturated{{end}}</td></tr>
{{end}}</table>
{{end}}{{range .Runs}}<h2>{{.Name}}</h2>
{{range .Warnings}}<div class="warn">⚠ {{.}}</div>
{{end}}<p>{{.Ops}} operations in {{.RunTime}}: {{.Throughput}} ops/s.</p>
<table><tr><th>operation</th><th>count</th><th>mean (µs)</th><th>p50</th><th>p95</th><th>p99</th><th>p99.9</th><th>max</th><th>errors</th></tr>
{{range .Rows}}<tr><td>{{.Name}}</td><td>{{.Count}}</td><td>{{.Mean}}</td><td>{{.P50}}</td><td>{{.P95}}</td><td>{{.P99}}</td><td>{{.P999}}</td><td>{{.Max}}</td><td>{{.Errors}}</td></tr>
{{end}}</table>
{{if .Config}}<details><summary>effective configuration</summary><pre>{{range .Config}}{{.}}
{{end}}</pre></details>{{end}}
{{end}}{{range .Figures}}<h3>{{.Title}}</h3>
<img alt="{{.Title}}" src="{{.URI}}">
{{end}}{{if .Text}}<h2>Report</h2><pre>{{.Text}}</pre>{{end}}
</body></html>
`))
