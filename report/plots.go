package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/measure"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one picture of a report.
type Figure struct {
	// Name is a short file-name-safe identifier ("throughput",
	// "latency-READ", ...), unique within a report.
	Name string
	// Title is the caption.
	Title string
	Plot  *plot.Plot
}

// Size of every figure.
const (
	figWidth  = 8 * vg.Inch
	figHeight = 4 * vg.Inch
)

// latencyUnit picks µs or ms for latencies up to maxMicros.
func latencyUnit(maxMicros float64) (div float64, label string) {
	if maxMicros >= 10000 {
		return 1000, "latency (ms)"
	}
	return 1, "latency (µs)"
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(8)
	return p
}

func addLine(p *plot.Plot, pts plotter.XYs, i int, dashed bool, label string) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plot %q: %w", label, err)
	}
	l.Color = plotutil.Color(i)
	l.Width = vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l)
	if label != "" {
		p.Legend.Add(label, l)
	}
	return nil
}

// ThroughputPlot draws ops/s per interval, one line per run, against
// seconds since each run's start, or, when the runs overlap in time (the
// clients of one multi-client run), since the first run's start, so that
// clients starting late show as late.
func ThroughputPlot(runs []Run) (*plot.Plot, error) {
	x := "time since start (s)"
	common, together := commonStart(runs)
	if together && len(runs) > 1 {
		x = "time since the first start (s)"
	}
	p := newPlot("Throughput over time", x, "throughput (ops/s)")
	for k, r := range runs {
		if len(r.Intervals) == 0 {
			continue
		}
		t0 := r.Intervals[0].Start
		if together {
			t0 = common
		}
		short := measure.TypicalWidth(r.Intervals).Seconds() / 4
		pts := make(plotter.XYs, 0, len(r.Intervals))
		for _, iv := range r.Intervals {
			d := iv.End.Sub(iv.Start).Seconds()
			if d <= short {
				continue // the last, cut-short interval: its rate is noise
			}
			pts = append(pts, plotter.XY{X: iv.End.Sub(t0).Seconds(), Y: float64(iv.Ops) / d})
		}
		label := r.Name
		if len(runs) == 1 {
			label = ""
		}
		if err := addLine(p, pts, k, false, label); err != nil {
			return nil, err
		}
	}
	p.X.Min, p.Y.Min = 0, 0
	return p, nil
}

// commonStart returns the earliest interval start of runs and whether all
// runs with intervals overlap in wall-clock time.
func commonStart(runs []Run) (time.Time, bool) {
	var first, lastStart, firstEnd time.Time
	n := 0
	for _, r := range runs {
		if len(r.Intervals) == 0 {
			continue
		}
		s, e := r.Intervals[0].Start, r.Intervals[len(r.Intervals)-1].End
		if n == 0 || s.Before(first) {
			first = s
		}
		if n == 0 || s.After(lastStart) {
			lastStart = s
		}
		if n == 0 || e.Before(firstEnd) {
			firstEnd = e
		}
		n++
	}
	return first, n > 0 && lastStart.Before(firstEnd)
}

// LatencyPlot draws p50 (dashed) and p99 (solid) of each operation of r
// per interval against seconds since the start.
func LatencyPlot(r Run) (*plot.Plot, error) {
	ops := r.operations()
	var maxV float64
	type series struct{ p50, p99 plotter.XYs }
	data := make([]series, len(ops))
	if len(r.Intervals) == 0 {
		return nil, fmt.Errorf("run %q has no intervals", r.Name)
	}
	t0 := r.Intervals[0].Start
	for _, iv := range r.Intervals {
		x := iv.End.Sub(t0).Seconds()
		for k, op := range ops {
			s := iv.Lookup(op)
			if s == nil || s.Count() == 0 {
				continue
			}
			v := s.Percentiles([]float64{50, 99})
			data[k].p50 = append(data[k].p50, plotter.XY{X: x, Y: float64(v[0])})
			data[k].p99 = append(data[k].p99, plotter.XY{X: x, Y: float64(v[1])})
			maxV = math.Max(maxV, float64(v[1]))
		}
	}
	div, unit := latencyUnit(maxV)
	p := newPlot("Latency per interval: p99 (solid), p50 (dashed)", "time since start (s)", unit)
	for k, op := range ops {
		for _, pts := range []plotter.XYs{data[k].p50, data[k].p99} {
			for i := range pts {
				pts[i].Y /= div
			}
		}
		if len(data[k].p99) == 0 {
			continue
		}
		if err := addLine(p, data[k].p99, k, false, op+" p99"); err != nil {
			return nil, err
		}
		if err := addLine(p, data[k].p50, k, true, op+" p50"); err != nil {
			return nil, err
		}
	}
	p.X.Min, p.Y.Min = 0, 0
	p.Y.Max = math.Max(p.Y.Max, 1)
	return p, nil
}

// nines returns the percentile at 1/(1-q) = 10^k: 0%, 90%, 99%, 99.9%, ...
func nines(k int) string {
	switch k {
	case 0:
		return "0%"
	case 1:
		return "90%"
	case 2:
		return "99%"
	}
	return "99." + strings.Repeat("9", k-2) + "%"
}

// spectrumTicks labels a 1/(1-q) axis with percentiles.
func spectrumTicks(maxX float64) plot.ConstantTicks {
	var ticks plot.ConstantTicks
	for k := 0; math.Pow10(k) <= maxX*1.0001; k++ {
		x := math.Pow10(k)
		ticks = append(ticks, plot.Tick{Value: x, Label: nines(k)})
		for m := 2; m < 10 && float64(m)*x <= maxX; m++ {
			ticks = append(ticks, plot.Tick{Value: float64(m) * x})
		}
	}
	return ticks
}

// SpectrumPlot draws the percentile spectrum of each operation of r's total
// as HdrHistogram's plotter does: latency against percentile, on a
// logarithmic x axis of 1/(1-q), so 90 %, 99 %, 99.9 % are evenly spaced,
// up to the percentile of the last sample.
func SpectrumPlot(r Run) (*plot.Plot, error) {
	var names []string
	var series []*measure.Series
	for _, op := range r.operations() {
		names = append(names, op)
		series = append(series, r.Total.Lookup(op))
	}
	return spectrumPlot("Latency by percentile", names, series)
}

// SpectrumByRunPlot draws one spectrum per run, each of the run's
// operations merged ([Combined]): for a sweep, how the whole distribution
// moves with the number of threads.
func SpectrumByRunPlot(runs []Run) (*plot.Plot, error) {
	var names []string
	var series []*measure.Series
	for _, r := range runs {
		c := Combined(r.Total)
		if c.Count() == 0 {
			continue
		}
		names = append(names, r.Name)
		series = append(series, &c)
	}
	return spectrumPlot("Latency by percentile, all operations", names, series)
}

func spectrumPlot(title string, names []string, series []*measure.Series) (*plot.Plot, error) {
	var maxV, maxX float64
	curves := make([]plotter.XYs, len(series))
	for k, s := range series {
		top := float64(s.Count()) // 1/(1-q) at q = 1 - 1/n
		var qs []float64
		for x := 1.0; x < top; x *= math.Pow(10, 1.0/25) {
			qs = append(qs, 100*(1-1/x))
		}
		qs = append(qs, 100*(1-1/top))
		vals := s.Percentiles(qs)
		for i, q := range qs {
			x := 1 / (1 - q/100)
			curves[k] = append(curves[k], plotter.XY{X: x, Y: float64(vals[i])})
			maxV, maxX = math.Max(maxV, float64(vals[i])), math.Max(maxX, x)
		}
	}
	div, unit := latencyUnit(maxV)
	p := newPlot(title, "percentile", unit)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = spectrumTicks(math.Max(maxX, 1))
	p.X.Min = 1
	for k, name := range names {
		for i := range curves[k] {
			curves[k][i].Y /= div
		}
		if err := addLine(p, curves[k], k, false, name); err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	return p, nil
}

// SweepPlots draws throughput and p99 against the number of threads, with
// the knee (index knee, -1 for none) ringed in red.
func SweepPlots(steps []SweepStep, knee int) (tput, p99 *plot.Plot, err error) {
	tp := make(plotter.XYs, len(steps))
	lat := make(plotter.XYs, len(steps))
	var maxV float64
	// A rate sweep (every step with a Target) plots against the target.
	byRate := len(steps) > 0
	for _, s := range steps {
		byRate = byRate && s.Target > 0
	}
	xOf := func(s SweepStep) float64 {
		if byRate {
			return s.Target
		}
		return float64(s.Threads)
	}
	xName, by := "threads", "by threads"
	if byRate {
		xName, by = "target (ops/s)", "by target rate"
	}
	for i, s := range steps {
		tp[i] = plotter.XY{X: xOf(s), Y: s.Throughput}
		lat[i] = plotter.XY{X: xOf(s), Y: float64(s.Summary.P99)}
		maxV = math.Max(maxV, float64(s.Summary.P99))
	}
	div, unit := latencyUnit(maxV)
	for i := range lat {
		lat[i].Y /= div
	}
	mk := func(title, y string, pts plotter.XYs, color int) (*plot.Plot, error) {
		p := newPlot(title, xName, y)
		if color == 0 { // throughput flattens to the right: legend bottom right
			p.Legend.Top, p.Legend.Left = false, false
		}
		if first, last := pts[0].X, pts[len(pts)-1].X; len(steps) > 1 && first > 0 && last >= 10*first {
			p.X.Scale = plot.LogScale{}
			p.X.Tick.Marker = plot.LogTicks{Prec: -1}
			// Room for the markers at both ends.
			p.X.Min, p.X.Max = first/1.25, last*1.25
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("plot %q: %w", title, err)
		}
		l.Color, sc.Color = plotutil.Color(color), plotutil.Color(color)
		l.Width = vg.Points(1.5)
		sc.Shape = draw.CircleGlyph{}
		p.Add(l, sc)
		if knee >= 0 && knee < len(pts) {
			k, err := plotter.NewScatter(pts[knee : knee+1])
			if err != nil {
				return nil, err
			}
			k.Shape = draw.RingGlyph{}
			k.Radius = vg.Points(8)
			k.Color = color2red
			p.Add(k)
			if byRate {
				p.Legend.Add(fmt.Sprintf("knee (%s ops/s)", strconv.FormatFloat(steps[knee].Target, 'f', -1, 64)), k)
			} else {
				p.Legend.Add(fmt.Sprintf("knee (%d threads)", steps[knee].Threads), k)
			}
		}
		p.Y.Min = 0
		return p, nil
	}
	if tput, err = mk("Throughput "+by, "throughput (ops/s)", tp, 0); err != nil {
		return nil, nil, err
	}
	if p99, err = mk("p99 latency "+by, "p99 "+unit, lat, 1); err != nil {
		return nil, nil, err
	}
	return tput, p99, nil
}

var color2red = color.RGBA{R: 220, A: 255}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("25", "0.5" rather than "25.00", "0.50").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = plainNumber(ts[i].Value)
		}
	}
	return ts
}

func plainNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
