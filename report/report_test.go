package report

import (
	"bytes"
	"html"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/measure"
)

// fakeRun builds a run with n intervals of one second; op latencies of the
// k-th interval are 100·(k+1) µs plus a spread, and every 10th UPDATE fails.
func fakeRun(t *testing.T, n int) Run {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	col := measure.NewCollector(measure.Layout{Series: []string{"READ", "UPDATE", "CLEANUP"}, Codes: []string{"OK", "ERROR"}}, measure.Options{Start: t0})
	rec := col.NewRecorder()
	var ivs []*measure.Snapshot
	for k := 0; k < n; k++ {
		for i := 0; i < 1000; i++ {
			lat := time.Duration(100*(k+1)+i%200) * time.Microsecond
			rec.Record(0, lat)
			rec.Count(0, 0)
			rec.Record(1, 2*lat)
			if i%10 == 0 {
				rec.Count(1, 1)
			} else {
				rec.Count(1, 0)
			}
			rec.Done(2)
		}
		ivs = append(ivs, col.Cut(t0.Add(time.Duration(k+1)*time.Second)))
	}
	return Run{Name: "fake", Total: col.Total(), Intervals: ivs, RunTime: time.Duration(n) * time.Second}
}

func TestSummarize(t *testing.T) {
	r := fakeRun(t, 3)
	s := Summarize(r.Total)
	if s.Ops != 6000 || s.Samples != 6000 || s.Errors != 300 {
		t.Errorf("Summarize = %+v, want 6000 ops, 6000 samples, 300 errors", s)
	}
	// Half the samples are READ (100..499 µs), half UPDATE (200..998 µs):
	// the merged median lies between, p99 near UPDATE's top.
	if s.P50 < 250 || s.P50 > 450 || s.P99 < 850 || s.P99 > 1000 || s.P999 < s.P99 {
		t.Errorf("percentiles p50 %d, p99 %d, p99.9 %d: want p50 in 250..450, p99 in 850..1000, p99.9 >= p99", s.P50, s.P99, s.P999)
	}
}

func TestKnee(t *testing.T) {
	step := func(th int, tp float64, p99 int64) SweepStep {
		return SweepStep{Threads: th, Throughput: tp, Summary: Summary{P99: p99}}
	}
	cases := []struct {
		name  string
		steps []SweepStep
		want  int
	}{
		{"none", nil, -1},
		{"one step", []SweepStep{step(1, 100, 10)}, -1},
		{"scales", []SweepStep{step(1, 100, 10), step(2, 190, 11), step(4, 370, 12)}, -1},
		{"flat then", []SweepStep{step(10, 100, 10), step(50, 400, 12), step(100, 410, 30), step(500, 405, 200)}, 1},
		{"flat but p99 falls", []SweepStep{step(10, 100, 10), step(50, 102, 9), step(100, 103, 20)}, 1},
		{"exactly 5%", []SweepStep{step(1, 100, 10), step(2, 105, 20)}, -1},
		{"drops", []SweepStep{step(1, 100, 10), step(2, 80, 20)}, 0},
	}
	for _, c := range cases {
		if got := Knee(c.steps); got != c.want {
			t.Errorf("%s: Knee(%+v) = %d, want %d", c.name, c.steps, got, c.want)
		}
	}
}

func TestFiguresRenderPNG(t *testing.T) {
	r := fakeRun(t, 5)
	steps := []SweepStep{{Threads: 10, Throughput: 100}, {Threads: 100, Throughput: 500}, {Threads: 1000, Throughput: 510, Summary: Summary{P99: 5}}}
	figs, err := Figures(&Page{Runs: []Run{r}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "throughput,latency,spectrum" {
		t.Fatalf("figures %s", got)
	}
	r2 := fakeRun(t, 2)
	r2.Name = "other"
	sw, err := Figures(&Page{Runs: []Run{r, r2}, Sweep: steps, Knee: 1})
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, f := range sw {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "sweep-throughput,sweep-p99,sweep-spectrum,throughput,latency-fake,latency-other" {
		t.Fatalf("sweep figures %s", got)
	}
	b, err := figs[2].Render("png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// 8×4 inches at gonum's default 96 dpi, with more than a few colours
	// (axes, text, two curves).
	if bd := img.Bounds(); bd.Dx() != 768 || bd.Dy() != 384 {
		t.Errorf("PNG is %v, want 768×384", bd)
	}
	colors := map[[4]uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 2 {
		for x := 0; x < img.Bounds().Dx(); x += 2 {
			r, g, b, a := img.At(x, y).RGBA()
			colors[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(colors) < 10 {
		t.Errorf("the PNG has %d colours: blank?", len(colors))
	}
	if _, err := figs[0].Render("gif"); err == nil || !strings.Contains(err.Error(), "gif") {
		t.Errorf("Render(gif) = %v, want an error naming gif", err)
	}
}

func TestSpectrumCurvesAreMonotone(t *testing.T) {
	r := fakeRun(t, 2)
	p, err := SpectrumPlot(r)
	if err != nil {
		t.Fatal(err)
	}
	// The plot's data range: from the minimum (100 µs) to UPDATE's maximum
	// (2·(200+199) µs, within HDR's 3 significant digits).
	if p.Y.Max < 790 || p.Y.Max > 800 || p.X.Min != 1 || p.X.Max < 1000 {
		t.Errorf("spectrum range x %v..%v, y max %v; want x from 1 past 1000 (2000 samples), y max ≈ 798", p.X.Min, p.X.Max, p.Y.Max)
	}
}

func TestWriteHTMLIsSelfContained(t *testing.T) {
	r := fakeRun(t, 3)
	r.Warnings = []string{"client CPU at 97% of 1 core"}
	var b bytes.Buffer
	if err := WriteHTML(&b, &Page{Title: "t <1>", Runs: []Run{r}, Knee: -1}); err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(b.String())
	if n := strings.Count(page, `src="data:image/svg+xml;base64,`); n != 3 {
		t.Errorf("%d embedded images, want 3", n)
	}
	if m := regexp.MustCompile(`(src|href)="(https?:)?//`).FindString(page); m != "" {
		t.Errorf("the page loads %s from the network", m)
	}
	for _, want := range []string{"<h1>t <1></h1>", "client CPU at 97%", "<td>READ</td><td>3000</td>", "<td>UPDATE</td><td>3000</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "CLEANUP") {
		t.Errorf("CLEANUP shows as an operation")
	}
}

func TestThroughputPlotAlignsOverlappingRuns(t *testing.T) {
	a := fakeRun(t, 4)
	b := fakeRun(t, 4)
	for _, iv := range b.Intervals { // b starts 2 s later, overlapping a
		iv.Start, iv.End = iv.Start.Add(2*time.Second), iv.End.Add(2*time.Second)
	}
	p, err := ThroughputPlot([]Run{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Max < 5.9 || p.X.Max > 6.1 || !strings.Contains(p.X.Label.Text, "first start") {
		t.Errorf("overlapping runs: x axis %q up to %v, want a common origin and 6 s", p.X.Label.Text, p.X.Max)
	}
	for _, iv := range b.Intervals { // now b runs after a: each from its own start
		iv.Start, iv.End = iv.Start.Add(10*time.Second), iv.End.Add(10*time.Second)
	}
	if p, err = ThroughputPlot([]Run{a, b}); err != nil {
		t.Fatal(err)
	}
	if p.X.Max < 3.9 || p.X.Max > 4.1 {
		t.Errorf("consecutive runs: x axis up to %v, want 4 s (each from its own start)", p.X.Max)
	}
}

func TestSpectrumTickLabels(t *testing.T) {
	var got []string
	for _, tk := range spectrumTicks(2e6) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if s := strings.Join(got, " "); s != "0% 90% 99% 99.9% 99.99% 99.999% 99.9999%" {
		t.Errorf("spectrum ticks up to 1/(1-q) = 2e6: %s", s)
	}
}

// A rate sweep of open loops (issue 14): the page's sweep table is by
// target and has the achieved rate, peak queue and late starts of every
// step; a closed-loop thread sweep's table has none of those columns.
func TestWriteHTMLRateSweepQueueColumns(t *testing.T) {
	r := fakeRun(t, 2)
	steps := []SweepStep{
		{Threads: 2, Target: 100, Throughput: 99.5, Summary: Summary{P50: 5000, P99: 5100}, OpenLoop: &OpenLoopStep{Offered: 100, Achieved: 100, PeakQueue: 1, Late: 0}},
		{Threads: 2, Target: 2000, Throughput: 398.2, Summary: Summary{P50: 90000, P99: 180000}, OpenLoop: &OpenLoopStep{Offered: 2000, Achieved: 399.1, PeakQueue: 161, Late: 197}},
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, &Page{Runs: []Run{r, r}, Sweep: steps, Knee: -1}); err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(b.String())
	for _, want := range []string{
		"<h2>Sweep by target (ops/s)</h2>",
		"<th>achieved rate (ops/s)</th><th>peak queue</th><th>started late (>1 ms)</th>",
		"<td>100</td><td>99.5</td><td>100.0</td><td>1</td><td>0</td><td>5000</td>",
		"<td>2000</td><td>398.2</td><td>399.1</td><td>161</td><td>197</td><td>90000</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	b.Reset()
	closed := []SweepStep{{Threads: 1, Throughput: 100}, {Threads: 4, Throughput: 390}}
	if err := WriteHTML(&b, &Page{Runs: []Run{r, r}, Sweep: closed, Knee: -1}); err != nil {
		t.Fatal(err)
	}
	page = html.UnescapeString(b.String())
	if !strings.Contains(page, "<h2>Sweep by threads</h2>") || !strings.Contains(page, "<td>4</td><td>390.0</td><td>0</td>") || strings.Contains(page, "peak queue") {
		t.Errorf("closed-loop sweep table:\n%s", page[strings.Index(page, "<h2>Sweep"):strings.Index(page, "</table>")])
	}
}
