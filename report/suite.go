package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"time"
)

// Suite is one acceptance run (gobench suite): the steps in the order they
// ran, and the hardware ceilings some of them measured (disk, network),
// against which every throughput of the other steps is shown.
type Suite struct {
	Title   string
	File    string // the suite file
	Started time.Time
	Ended   time.Time
	Steps   []SuiteStep
}

// Ceiling kinds: what a disk or network step measured.
const (
	DiskWrite = "disk write"
	DiskRead  = "disk read"
	NetSend   = "network send"    // this node sending (iperf3 client, normal)
	NetRecv   = "network receive" // this node receiving (iperf3 -R)
)

// SuiteStep is one step: what ran, whether it worked, and what it
// measured.
type SuiteStep struct {
	Name    string // the step's command: disk, net, dfsio, load, run, producer-perf, ...
	Label   string // what the user called it ("dfsio write"), or the command line
	Args    string // the command line as given
	Started time.Time
	Time    time.Duration
	Err     string // why it failed ("" = it worked)
	Metrics []Metric
	// Ceilings are the hardware limits this step measured (disk and net
	// steps): a kind and its value in MB/s.
	Ceilings []Ceiling
	Output   string // what the step printed
}

// Metric is one figure of a step. MBps is set for throughputs in bytes (MB
// = 10⁶ bytes per second): those are compared with the ceilings of the
// kinds in Against.
type Metric struct {
	Name    string
	Value   float64
	Unit    string
	MBps    float64
	Against []string
}

// Ceiling is one measured hardware limit.
type Ceiling struct {
	Kind   string
	MBps   float64
	Detail string // "bs 1M, 2 files", "127.0.0.1, 4 streams"
}

// Comparison is a metric against one ceiling.
type Comparison struct {
	Kind    string
	Percent float64
	Ceiling Ceiling
	Step    int // index of the step that measured it
	At      time.Time
}

// CeilingFor returns the ceiling of kind for a figure measured at step i:
// the highest of that kind measured in the run (the optimistic limit),
// with the step and time it came from; ok is false when none was.
func (s *Suite) CeilingFor(kind string) (c Ceiling, step int, ok bool) {
	for i, st := range s.Steps {
		if st.Err != "" {
			continue
		}
		for _, x := range st.Ceilings {
			if x.Kind == kind && x.MBps > c.MBps {
				c, step, ok = x, i, true
			}
		}
	}
	return c, step, ok
}

// Compare returns m against each ceiling it names that the run measured.
func (s *Suite) Compare(m Metric) []Comparison {
	var out []Comparison
	for _, k := range m.Against {
		c, i, ok := s.CeilingFor(k)
		if !ok || c.MBps <= 0 || m.MBps <= 0 {
			continue
		}
		out = append(out, Comparison{Kind: k, Percent: 100 * m.MBps / c.MBps, Ceiling: c, Step: i, At: s.Steps[i].Started})
	}
	return out
}

// Sentence is the comparison as the report says it: "dfsio write: 38 %
// of the disk write ceiling measured at 10:02".
func (c Comparison) Sentence(what string) string {
	return fmt.Sprintf("%s: %s %% of the %s ceiling measured at %s", what, pct(c.Percent), c.Kind, c.At.Format("15:04"))
}

func pct(p float64) string {
	if p < 10 {
		return fmt.Sprintf("%.1f", p)
	}
	return fmt.Sprintf("%.0f", p)
}

type suiteCeilingRow struct {
	Kind, Value, Detail, At, Step string
}

type suiteCompRow struct {
	Sentence string
	Width    string // bar width, 0-100
	Over     bool   // above the ceiling
	Percent  string
}

type suiteMetricRow struct {
	Name, Value string
	Comps       []suiteCompRow
	NoCeiling   string
}

type suiteStepRow struct {
	N                     int
	ID, Label, Name, Args string
	At, Took, Err         string
	OK                    bool
	Metrics               []suiteMetricRow
	Output                string
}

type suitePage struct {
	Title, File, Started, Took string
	Passed, Failed             int
	Ceilings                   []suiteCeilingRow
	Steps                      []suiteStepRow
	Missing                    []string
}

// WriteSuiteHTML writes the run as one self-contained HTML page (no
// script, no network): the ceilings, then each step with its figures, each
// throughput as a bar against its ceiling with the sentence that says it,
// and the step's output.
func WriteSuiteHTML(w io.Writer, s *Suite) error {
	pg := suitePage{Title: s.Title, File: s.File, Started: s.Started.Format("2006-01-02 15:04:05"), Took: s.Ended.Sub(s.Started).Round(time.Millisecond).String()}
	if pg.Title == "" {
		pg.Title = "gobench acceptance run"
	}
	kinds := map[string]bool{}
	for _, st := range s.Steps {
		for _, c := range st.Ceilings {
			kinds[c.Kind] = true
		}
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		c, i, _ := s.CeilingFor(k)
		pg.Ceilings = append(pg.Ceilings, suiteCeilingRow{Kind: k, Value: fmt.Sprintf("%.1f MB/s", c.MBps), Detail: c.Detail,
			At: s.Steps[i].Started.Format("15:04:05"), Step: fmt.Sprintf("step-%d", i+1)})
	}
	missing := map[string]bool{}
	for i, st := range s.Steps {
		r := suiteStepRow{N: i + 1, ID: fmt.Sprintf("step-%d", i+1), Label: st.Label, Name: st.Name, Args: st.Args,
			At: st.Started.Format("15:04:05"), Took: st.Time.Round(time.Millisecond).String(), Err: st.Err, OK: st.Err == "", Output: st.Output}
		if r.OK {
			pg.Passed++
		} else {
			pg.Failed++
		}
		for _, m := range st.Metrics {
			mr := suiteMetricRow{Name: m.Name, Value: value(m)}
			for _, c := range s.Compare(m) {
				mr.Comps = append(mr.Comps, suiteCompRow{Sentence: c.Sentence(st.Label + " " + m.Name), Width: fmt.Sprintf("%.1f", math.Min(c.Percent, 100)),
					Over: c.Percent > 100, Percent: pct(c.Percent)})
			}
			if len(m.Against) > 0 && len(mr.Comps) == 0 {
				for _, k := range m.Against {
					if _, _, ok := s.CeilingFor(k); !ok {
						missing[k] = true
					}
				}
				mr.NoCeiling = "no " + joinKinds(m.Against) + " ceiling was measured in this run"
			}
			r.Metrics = append(r.Metrics, mr)
		}
		pg.Steps = append(pg.Steps, r)
	}
	for k := range missing {
		pg.Missing = append(pg.Missing, k)
	}
	sort.Strings(pg.Missing)
	if err := suiteTmpl.Execute(w, pg); err != nil {
		return fmt.Errorf("suite report: %w", err)
	}
	return nil
}

func joinKinds(k []string) string {
	out := ""
	for i, x := range k {
		if i > 0 {
			out += " or "
		}
		out += x
	}
	return out
}

func value(m Metric) string {
	v := m.Value
	switch {
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return fmt.Sprintf("%.0f %s", v, m.Unit)
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.1f %s", v, m.Unit)
	}
	return fmt.Sprintf("%.3g %s", v, m.Unit)
}

var suiteTmpl = template.Must(template.New("suite").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:72em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#eee}
.ok{color:#176f2c;font-weight:bold}.fail{color:#b00020;font-weight:bold}
.err{background:#fde7ea;border:1px solid #b00020;padding:.4em .8em;margin:.4em 0}
.warn{background:#fff3cd;border:1px solid #e0b000;padding:.5em 1em;margin:.5em 0}
.bar{display:inline-block;width:14em;height:.9em;border:1px solid #888;background:#f3f3f3;vertical-align:middle;margin-right:.5em}
.bar>span{display:block;height:100%;background:#3b7dd8}
.bar.over>span{background:#d8843b}
pre{background:#f6f6f6;padding:.8em;overflow:auto;max-height:30em;font-size:.85em}
</style></head><body>
<h1>{{.Title}}</h1>
<p id="summary">{{if .File}}Suite file <code>{{.File}}</code>, started {{else}}Started {{end}}{{.Started}}, took {{.Took}}: <span class="ok">{{.Passed}} passed</span>, <span class="{{if .Failed}}fail{{else}}ok{{end}}">{{.Failed}} failed</span>.</p>
<h2>Hardware ceilings</h2>
{{if .Ceilings}}<table id="ceilings"><tr><th>ceiling</th><th>throughput</th><th>how</th><th>measured at</th></tr>
{{range .Ceilings}}<tr><td>{{.Kind}}</td><td>{{.Value}}</td><td>{{.Detail}}</td><td><a href="#{{.Step}}">{{.At}}</a></td></tr>
{{end}}</table>{{else}}<div class="warn">No disk or net step ran: no throughput below can be read against a ceiling.</div>{{end}}
{{range .Missing}}<div class="warn">No {{.}} ceiling was measured: add a {{.}} step (disk or net) to read the figures that need it.</div>
{{end}}<h2>Steps</h2>
<table id="steps"><tr><th>#</th><th>step</th><th>at</th><th>took</th><th>result</th><th>figures</th></tr>
{{range .Steps}}<tr id="{{.ID}}"><td>{{.N}}</td><td><b>{{.Label}}</b><br><code>{{.Name}} {{.Args}}</code></td><td>{{.At}}</td><td>{{.Took}}</td>
<td>{{if .OK}}<span class="ok">ok</span>{{else}}<span class="fail">failed</span>{{end}}</td><td>
{{if .Err}}<div class="err">{{.Err}}</div>{{end}}{{range .Metrics}}<div class="metric"><b>{{.Name}}</b>: {{.Value}}
{{range .Comps}}<div class="cmp"><span class="bar{{if .Over}} over{{end}}" title="{{.Percent}} %"><span style="width:{{.Width}}%"></span></span>{{.Sentence}}{{if .Over}} <i>(above the ceiling: a cache served part of it, or the ceiling was measured on other disks or links)</i>{{end}}</div>
{{end}}{{if .NoCeiling}}<div class="cmp">{{.NoCeiling}}</div>{{end}}</div>
{{end}}</td></tr>
{{end}}</table>
<h2>Output of each step</h2>
{{range .Steps}}<details><summary>{{.N}}. {{.Label}}</summary><pre>{{.Output}}</pre></details>
{{end}}</body></html>
`))
