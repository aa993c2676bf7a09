package measure

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// spreadDoc is a document of a client that ran from t0+start to t0+end
// doing ops operations, spread evenly over one-second intervals.
func spreadDoc(t *testing.T, t0 time.Time, start, end time.Duration, ops int64) *Document {
	t.Helper()
	snap := NewSnapshot(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, t0.Add(start), t0.Add(end))
	snap.Ops = ops
	doc, err := NewDocument(snap, DocumentOptions{RunTime: end - start})
	if err != nil {
		t.Fatal(err)
	}
	for s := start; s < end; s += time.Second {
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
		{"barely", [2]time.Duration{0, 10 * time.Second}, [2]time.Duration{8 * time.Second, 18 * time.Second}, "only 11%", 2000},
		{"apart", [2]time.Duration{0, 10 * time.Second}, [2]time.Duration{20 * time.Second, 30 * time.Second}, "do not overlap", 2000},
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
			t.Errorf("%s: throughput %v, want %v (1000 ops/s each)", c.name, m.Throughput, c.wantTput)
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
		if err != nil || strings.Join(back.Warnings, "\n") != got || back.Throughput != m.Throughput {
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
