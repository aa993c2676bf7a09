package measure

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// spreadDoc is a document of a client that ran from t0+start to t0+end
// doing ops operations, spread evenly over one-second intervals (none for a
// run shorter than a second).
func spreadDoc(t *testing.T, t0 time.Time, start, end time.Duration, ops int64) *Document {
	t.Helper()
	snap := NewSnapshot(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, t0.Add(start), t0.Add(end))
	snap.Ops = ops
	doc, err := NewDocument(snap, DocumentOptions{RunTime: end - start})
	if err != nil {
		t.Fatal(err)
	}
	for s := start; s+time.Second <= end; s += time.Second {
		doc.Intervals = append(doc.Intervals, IntervalRecord{Start: t0.Add(s), End: t0.Add(s + time.Second), Ops: ops / int64((end-start)/time.Second)})
	}
	return doc
}

func TestMergeWarnsWhenWindowsBarelyOverlap(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		a, b     [2]time.Duration
		warn     string
		wantTput float64
	}{
		{"together", [2]time.Duration{0, 10 * time.Second}, [2]time.Duration{0, 10 * time.Second}, "", 2000},
		{"mostly", [2]time.Duration{0, 10 * time.Second}, [2]time.Duration{2 * time.Second, 12 * time.Second}, "only 67% of the merged span (common window 8s of 12s): the throughput is over the common window", 2000},
		// Below MinCommon, the union: 20 000 ops over 18 s, over 30 s.
		{"barely", [2]time.Duration{0, 10 * time.Second}, [2]time.Duration{8 * time.Second, 18 * time.Second}, "only 11% of the merged span (common window 2s of 18s): the throughput is over the union", 20000.0 / 18},
		{"apart", [2]time.Duration{0, 10 * time.Second}, [2]time.Duration{20 * time.Second, 30 * time.Second}, "do not overlap (union 30s): they did not run together; the throughput is over the union", 20000.0 / 30},
	}
	for _, c := range cases {
		docs := []*Document{spreadDoc(t, t0, c.a[0], c.a[1], 10000), spreadDoc(t, t0, c.b[0], c.b[1], 10000)}
		m, err := Merge(docs, []string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(m.Warnings, "\n")
		if c.warn == "" && got != "" || !strings.Contains(got, c.warn) {
			t.Errorf("%s: warnings %q, want %q", c.name, got, c.warn)
		}
		if d := m.Throughput - c.wantTput; d < -1e-6 || d > 1e-6 {
			t.Errorf("%s: throughput %v, want %v (1000 ops/s each while running)", c.name, m.Throughput, c.wantTput)
		}
		// The merged document carries the warnings and reads back.
		doc, err := m.Document()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteDocument(&b, doc); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDocument(&b)
		if err != nil || strings.Join(back.Warnings, "\n") != got || back.Throughput != m.Throughput || back.ThroughputWindow != m.Window {
			t.Errorf("%s: the merged document carries warnings %q and throughput %v (%v), want %q and %v", c.name, back.Warnings, back.Throughput, err, got, m.Throughput)
		}
	}
}

func TestMergeWarnsAboutConfigurations(t *testing.T) {
	mk := func(cfg map[string]string) *Document { return &Document{Config: cfg} }
	cases := []struct {
		name string
		docs []*Document
		want []string
	}{
		{"same but per-client keys", []*Document{
			mk(map[string]string{"gobench.clients": "2", "gobench.client": "0", "exportfile": "a", "gobench.seed": "1", "recordcount": "9"}),
			mk(map[string]string{"gobench.clients": "2", "gobench.client": "1", "exportfile": "b", "gobench.seed": "2", "recordcount": "9"}),
		}, nil},
		{"different workload", []*Document{
			mk(map[string]string{"recordcount": "9", "readproportion": "0.5"}),
			mk(map[string]string{"recordcount": "8"}),
		}, []string{`the clients ran different configurations: readproportion (a: "0.5", b: ""); recordcount (a: "9", b: "8")`}},
		{"missing client", []*Document{
			mk(map[string]string{"gobench.clients": "4"}),
			mk(map[string]string{"gobench.clients": "4"}),
		}, []string{"gobench.clients=4 but 2 result files merged"}},
	}
	for _, c := range cases {
		if got := ConfigWarnings(c.docs, []string{"a", "b"}); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ConfigWarnings = %q, want %q", c.name, got, c.want)
		}
	}
}

// Clients that did not run together get the union throughput (every
// operation over the merged span), named; clients that did, the common
// window's. Whatever the spans, the figure is never more than twice the
// operations over the merged span (the common window is used only when it
// covers at least MinCommon of it), so it cannot be off by orders of
// magnitude.
func TestMergeThroughputWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := time.Second
	type client struct {
		start, end time.Duration
		ops        int64
	}
	cases := []struct {
		name     string
		clients  []client
		window   ThroughputWindow
		wantTput float64
	}{
		{"together", []client{{0, 10 * s, 10000}, {0, 10 * s, 10000}}, CommonWindow, 2000},
		{"mostly together", []client{{0, 10 * s, 10000}, {2 * s, 12 * s, 10000}}, CommonWindow, 2000},
		{"barely", []client{{0, 10 * s, 10000}, {8 * s, 18 * s, 10000}}, UnionWindow, 20000.0 / 18},
		{"apart", []client{{0, 10 * s, 10000}, {20 * s, 30 * s, 10000}}, UnionWindow, 20000.0 / 30},
		{"touching", []client{{0, 10 * s, 10000}, {10 * s, 20 * s, 10000}}, UnionWindow, 1000},
		// Field report: 100 clients one after another, 200 000 ops each
		// in 62 ms; the sum of their own throughputs would be 3.2e8.
		{"100 in turn", func() []client {
			var cs []client
			for k := range 100 {
				cs = append(cs, client{time.Duration(k) * 62 * time.Millisecond, time.Duration(k+1) * 62 * time.Millisecond, 200000})
			}
			return cs
		}(), UnionWindow, 20e6 / 6.2},
		{"one", []client{{0, 10 * s, 10000}}, CommonWindow, 1000},
	}
	for _, c := range cases {
		var docs []*Document
		for _, cl := range c.clients {
			docs = append(docs, spreadDoc(t, t0, cl.start, cl.end, cl.ops))
		}
		m, err := Merge(docs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Window != c.window || relErr(m.Throughput, c.wantTput) > 1e-9 {
			t.Errorf("%s: throughput %v over the %s window, want %v over the %s window", c.name, m.Throughput, m.Window, c.wantTput, c.window)
		}
		if plain := float64(m.Total.Ops) / m.Union.Duration().Seconds(); m.Throughput > 2*plain {
			t.Errorf("%s: throughput %v, more than twice the operations over the merged span (%v)", c.name, m.Throughput, plain)
		}
		var out bytes.Buffer
		if err := WriteText(&out, m.Lines()); err != nil {
			t.Fatal(err)
		}
		want := "[OVERALL], Throughput(ops/sec), " + FormatJavaDouble(m.Throughput) + "\n[OVERALL], Window, " + string(c.window) + "\n"
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s: the report lacks\n%s\n%s", c.name, want, out.String())
		}
		doc, err := m.Document()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteDocument(&b, doc); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `"throughput_window": "`+string(c.window)+`"`) {
			t.Errorf("%s: the merged document does not name the %s window:\n%.600s", c.name, c.window, b.String())
		}
	}
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return got
	}
	d := (got - want) / want
	if d < 0 {
		return -d
	}
	return d
}

func TestMergeRefusesBadInput(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := spreadDoc(t, t0, 0, time.Second, 10)
	bad := spreadDoc(t, t0, 0, time.Second, 10)
	bad.Series = []SeriesDocument{{SeriesRecord: SeriesRecord{Name: "READ", Histogram: "not base64"}}}
	for _, c := range []struct {
		name   string
		docs   []*Document
		labels []string
		want   string
	}{
		{"none", nil, nil, "no result documents"},
		{"labels", []*Document{d, d}, []string{"a"}, "1 labels for 2 documents"},
		{"histogram", []*Document{d, bad}, []string{"a.json", "b.json"}, "b.json: result: series \"READ\""},
	} {
		if _, err := Merge(c.docs, c.labels); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Merge error %v, want one naming %q", c.name, err, c.want)
		}
	}
}

func TestTextValue(t *testing.T) {
	lines := []Line{{"OVERALL", "Window", Text("union")}}
	var txt, js bytes.Buffer
	if err := WriteText(&txt, lines); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSONArray(&js, lines); err != nil {
		t.Fatal(err)
	}
	if txt.String() != "[OVERALL], Window, union\n" || !strings.Contains(js.String(), `"value" : "union"`) {
		t.Errorf("text %q, JSON array %q", txt.String(), js.String())
	}
}

// Clients with short intervals that ran far apart still merge into a
// bounded number of bins (each bin is a whole snapshot held to the end).
func TestMergeBoundsTheBins(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var docs []*Document
	var labels []string
	const clients = 2500 // one short interval each, a second apart
	for k := 0; k < clients; k++ {
		start := time.Duration(k) * time.Second
		snap := NewSnapshot(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, t0.Add(start), t0.Add(start+40*time.Millisecond))
		snap.Ops = 40
		doc, err := NewDocument(snap, DocumentOptions{RunTime: 40 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		doc.Intervals = append(doc.Intervals, IntervalRecord{Start: t0.Add(start), End: t0.Add(start + 40*time.Millisecond), Ops: 40})
		docs, labels = append(docs, doc), append(labels, string(rune('a'+k%26)))
	}
	m, err := Merge(docs, labels)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Intervals) > maxMergedBins {
		t.Errorf("%d merged intervals, want at most %d", len(m.Intervals), maxMergedBins)
	}
	var ops int64
	for _, iv := range m.Intervals {
		ops += iv.Ops
	}
	if ops != clients*40 {
		t.Errorf("merged intervals hold %d ops, want %d", ops, clients*40)
	}
}
