package measure

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

// workloadSnapshot simulates a small workload-A-like run with reads that
// sometimes miss, intended latencies and one cleanup per worker, cut into
// three one-second intervals. It is deterministic.
func workloadSnapshot(t *testing.T) (*Collector, []*Snapshot) {
	t.Helper()
	l := Layout{
		Series: []string{"READ", "READ-FAILED", "UPDATE", "CLEANUP", "Intended-READ", "Intended-UPDATE"},
		Codes:  []string{"OK", "ERROR", "NOT_FOUND"},
	}
	c := NewCollector(l, Options{Start: t0, KeepIntervals: true})
	rng := rand.New(rand.NewPCG(1, 2))
	recs := []*Recorder{c.NewRecorder(), c.NewRecorder()}
	var ivs []*Snapshot
	for sec := 1; sec <= 3; sec++ {
		for i := 0; i < 400; i++ {
			r := recs[i%2]
			lat := time.Duration(50+rng.ExpFloat64()*400) * time.Microsecond
			queue := time.Duration(rng.IntN(200)) * time.Microsecond
			if rng.IntN(2) == 0 {
				if rng.IntN(50) == 0 {
					r.Record(1, lat) // READ-FAILED
					r.Count(0, 2)    // NOT_FOUND, counted against READ
				} else {
					r.Record(0, lat)
					r.Count(0, 0)
				}
				r.Record(4, lat+queue)
			} else {
				r.Record(2, lat*2)
				r.Count(2, 0)
				r.Record(5, lat*2+queue)
			}
			r.Done(1)
		}
		if sec == 3 {
			for _, r := range recs {
				r.Record(3, 3*time.Millisecond) // CLEANUP: no Return= lines
			}
		}
		ivs = append(ivs, c.Cut(t0.Add(time.Duration(sec)*time.Second)))
	}
	return c, ivs
}

func renderText(t *testing.T, lines []Line) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, lines); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReportGolden(t *testing.T) {
	c, _ := workloadSnapshot(t)
	total := c.Total()
	golden(t, "report_hdr.txt", renderText(t, Lines(total, LineOptions{RunTime: 3010 * time.Millisecond})))

	opts := LineOptions{
		RunTime:     3010 * time.Millisecond,
		Percentiles: []float64{1, 22, 50, 99.9, 99.99},
		GC:          &GCStats{Count: 4, Pause: 12 * time.Millisecond},
		Extra:       []Line{{"WARMUP", "Time(ms)", Int(0)}},
	}
	golden(t, "report_hdr_options.txt", renderText(t, Lines(total, opts)))

	ts := LineOptions{RunTime: 3010 * time.Millisecond, Type: TimeSeries}
	golden(t, "report_timeseries.txt", renderText(t, Lines(total, ts)))

	var js bytes.Buffer
	if err := WriteJSONArray(&js, Lines(total, LineOptions{RunTime: 3010 * time.Millisecond})); err != nil {
		t.Fatal(err)
	}
	// report_hdr.json pins gobench's own rendering of the lines of
	// report_hdr.txt; that the layout is Jackson's is checked against files
	// Java YCSB wrote by TestJSONArrayMatchesJavaYCSB.
	golden(t, "report_hdr.json", js.Bytes())
}

// TestJSONArrayMatchesJavaYCSB feeds WriteJSONArray the lines of files that
// Java YCSB 0.17.0's JSONArrayMeasurementsExporter (Jackson 1.9.13's
// DefaultPrettyPrinter) wrote, and requires the same bytes back: layout,
// string escaping, and the rendering of every long and double Java chose.
// How the files were made: testdata/java_ycsb_json.md.
func TestJSONArrayMatchesJavaYCSB(t *testing.T) {
	for _, name := range []string{"java_ycsb_hdr.json", "java_ycsb_timeseries.json"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			lines := javaJSONLines(t, want)
			if len(lines) < 20 {
				t.Fatalf("only %d lines in %s", len(lines), name)
			}
			var got bytes.Buffer
			if err := WriteJSONArray(&got, lines); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				g, w := got.Bytes(), want
				i := 0
				for i < len(g) && i < len(w) && g[i] == w[i] {
					i++
				}
				t.Errorf("WriteJSONArray differs from Java's %s at byte %d:\n got: %q\nwant: %q",
					name, i, g[max(0, i-40):min(len(g), i+40)], w[max(0, i-40):min(len(w), i+40)])
			}
		})
	}
}

// javaJSONLines parses a JSONArrayMeasurementsExporter file, keeping each
// value's kind as Java wrote it: a number with '.' or an exponent was a
// double (Double.toString), any other number a long.
func javaJSONLines(t *testing.T, b []byte) []Line {
	t.Helper()
	var objs []struct {
		Metric      string      `json:"metric"`
		Measurement string      `json:"measurement"`
		Value       json.Number `json:"value"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&objs); err != nil {
		t.Fatal(err)
	}
	lines := make([]Line, len(objs))
	for i, o := range objs {
		lines[i] = Line{Metric: o.Metric, Measurement: o.Measurement}
		if strings.ContainsAny(o.Value.String(), ".eE") {
			f, err := o.Value.Float64()
			if err != nil {
				t.Fatal(err)
			}
			lines[i].Value = Float(f)
		} else {
			n, err := o.Value.Int64()
			if err != nil {
				t.Fatal(err)
			}
			lines[i].Value = Int(n)
		}
	}
	return lines
}

func TestReportBlockOrder(t *testing.T) {
	_, ivs := workloadSnapshot(t)
	var metrics []string
	for _, l := range Lines(ivs[len(ivs)-1], LineOptions{RunTime: time.Second}) {
		if len(metrics) == 0 || metrics[len(metrics)-1] != l.Metric {
			metrics = append(metrics, l.Metric)
		}
	}
	// READ(0) < CLEANUP(8) < READ-FAILED(10, inserted before UPDATE) <
	// UPDATE(10); then the intended map: Intended-UPDATE(2) < Intended-READ(12).
	want := "OVERALL READ CLEANUP READ-FAILED UPDATE Intended-UPDATE Intended-READ"
	if got := strings.Join(metrics, " "); got != want {
		t.Errorf("block order = %s, want %s", got, want)
	}
}

// TestReportEmptyBlock pins the shape Java YCSB 0.17.0 prints for a series
// that has return codes but no latency samples (every READ failed).
func TestReportEmptyBlock(t *testing.T) {
	l := Layout{Series: []string{"READ", "READ-FAILED"}, Codes: []string{"OK", "NOT_FOUND", "ERROR"}}
	c := NewCollector(l, Options{Start: t0})
	r := c.NewRecorder()
	for i := 0; i < 3; i++ {
		r.Record(1, 250*time.Microsecond)
		r.Count(0, 1+i%2)
		r.Done(1)
	}
	c.Cut(t0.Add(time.Second))
	got := string(renderText(t, Lines(c.Total(), LineOptions{RunTime: time.Second})))
	want := `[OVERALL], RunTime(ms), 1000
[OVERALL], Throughput(ops/sec), 3.0
[READ], Operations, 0
[READ], AverageLatency(us), NaN
[READ], MinLatency(us), 9223372036854775807
[READ], MaxLatency(us), 0
[READ], 50thPercentileLatency(us), 0
[READ], 95thPercentileLatency(us), 0
[READ], 99thPercentileLatency(us), 0
[READ], Return=NOT_FOUND, 2
[READ], Return=ERROR, 1
[READ-FAILED], Operations, 3
[READ-FAILED], AverageLatency(us), 250.0
[READ-FAILED], MinLatency(us), 250
[READ-FAILED], MaxLatency(us), 250
[READ-FAILED], 50thPercentileLatency(us), 250
[READ-FAILED], 95thPercentileLatency(us), 250
[READ-FAILED], 99thPercentileLatency(us), 250
`
	if got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	verbose := string(renderText(t, Lines(c.Total(), LineOptions{RunTime: time.Second, Verbose: true})))
	if want2 := strings.Replace(want, "[READ-FAILED], 99thPercentileLatency(us), 250\n", "[READ-FAILED], 99thPercentileLatency(us), 250\n[READ-FAILED], 250, 3.0\n", 1); verbose != want2 {
		t.Errorf("verbose report:\n%s\nwant:\n%s", verbose, want2)
	}
	ts := string(renderText(t, Lines(c.Total(), LineOptions{RunTime: time.Second, Type: TimeSeries})))
	if !strings.Contains(ts, "[READ], MinLatency(us), -1\n[READ], MaxLatency(us), -1\n[READ], Return=NOT_FOUND, 2\n[READ], Return=ERROR, 1\n[READ], 0, NaN\n") {
		t.Errorf("timeseries empty block:\n%s", ts)
	}
}

func TestReportValues(t *testing.T) {
	l := Layout{Series: []string{"READ"}, Codes: []string{"OK"}}
	c := NewCollector(l, Options{Start: t0})
	r := c.NewRecorder()
	// 1..100 ms: the histogram has 3 significant digits, so values are
	// bucketed to within 0.1%.
	for ms := 1; ms <= 100; ms++ {
		r.Record(0, time.Duration(ms)*time.Millisecond)
		r.Count(0, 0)
		r.Done(1)
	}
	c.Cut(t0.Add(2 * time.Second))
	lines := Lines(c.Total(), LineOptions{RunTime: 2 * time.Second})
	get := func(m string) Value {
		for _, l := range lines {
			if l.Metric == "READ" && l.Measurement == m {
				return l.Value
			}
		}
		t.Fatalf("no [READ], %s line", m)
		return Value{}
	}
	if v := get("Operations"); v.I != 100 {
		t.Errorf("Operations = %v, want 100", v)
	}
	if v := get("AverageLatency(us)"); !v.IsFloat || math.Abs(v.F-50500) > 50500*0.001 {
		t.Errorf("AverageLatency = %v, want 50500 ± 0.1%%", v)
	}
	for _, tc := range []struct {
		m    string
		want float64
	}{{"MinLatency(us)", 1000}, {"MaxLatency(us)", 100000}, {"50thPercentileLatency(us)", 50000},
		{"95thPercentileLatency(us)", 95000}, {"99thPercentileLatency(us)", 99000}} {
		if v := get(tc.m); v.IsFloat || math.Abs(float64(v.I)-tc.want) > tc.want*0.001 {
			t.Errorf("%s = %v, want %v ± 0.1%%", tc.m, v, tc.want)
		}
	}
	if lines[1].Value != Float(50) {
		t.Errorf("throughput line = %+v, want 50.0", lines[1])
	}
}

func TestWriteJSONArrayIsJSON(t *testing.T) {
	lines := []Line{
		{"OVERALL", "RunTime(ms)", Int(10)},
		{"A\"b\\c\n", "x", Float(math.NaN())},
		{"B", "y", Float(1.5e-5)},
		{"C", "z", Float(math.Inf(1))},
	}
	var b bytes.Buffer
	if err := WriteJSONArray(&b, lines); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Metric      string `json:"metric"`
		Measurement string `json:"measurement"`
		Value       any    `json:"value"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not valid JSON: %v\n%s", err, b.String())
	}
	if len(got) != 4 || got[1].Metric != "A\"b\\c\n" || got[1].Value != "NaN" || got[2].Value != 1.5e-5 || got[3].Value != "Infinity" || got[0].Value != 10.0 {
		t.Errorf("decoded %+v from\n%s", got, b.String())
	}
	b.Reset()
	if err := WriteJSONArray(&b, nil); err != nil || b.String() != "[ ]" {
		t.Errorf("empty array = %q, %v; want \"[ ]\"", b.String(), err)
	}
}
