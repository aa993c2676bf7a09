package measure

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func TestLayoutValidate(t *testing.T) {
	tests := []struct {
		l    Layout
		want string // substring of the error, "" for none
	}{
		{Layout{Series: []string{"READ", "UPDATE"}, Codes: []string{"OK"}}, ""},
		{Layout{Series: []string{"READ", "READ"}}, `series "READ" appears twice`},
		{Layout{Series: []string{"READ"}, Codes: []string{"OK", ""}}, "code 1 has an empty name"},
	}
	for _, tt := range tests {
		err := tt.l.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Validate(%+v) = %v, want error containing %q", tt.l, err, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NewCollector with a duplicate series did not panic")
		}
	}()
	NewCollector(Layout{Series: []string{"X", "X"}}, Options{})
}

func TestMergeWindows(t *testing.T) {
	w := func(sec, n, sum int64) Window {
		s := t0.Add(time.Duration(sec) * time.Second)
		return Window{Start: s, End: s.Add(time.Second), Count: n, SumMicros: sum}
	}
	a := []Window{w(0, 1, 10), w(2, 2, 20)}
	b := []Window{w(1, 3, 30), w(2, 4, 40), w(5, 5, 50)}
	got := mergeWindows(a, b)
	want := []Window{w(0, 1, 10), w(1, 3, 30), w(2, 6, 60), w(5, 5, 50)}
	if len(got) != len(want) {
		t.Fatalf("mergeWindows = %v, want %v", got, want)
	}
	for i := range want {
		if !got[i].Start.Equal(want[i].Start) || got[i].Count != want[i].Count || got[i].SumMicros != want[i].SumMicros {
			t.Errorf("window %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if a[1].Count != 2 {
		t.Errorf("mergeWindows modified its first argument: %+v", a)
	}
}

func TestMergeOutOfRange(t *testing.T) {
	small := NewCollector(Layout{Series: []string{"READ"}}, Options{Start: t0, Highest: time.Millisecond})
	big := NewCollector(Layout{Series: []string{"READ"}}, Options{Start: t0})
	rs, rb := small.NewRecorder(), big.NewRecorder()
	rs.Record(0, 500*time.Microsecond)
	rb.Record(0, time.Second)
	s := small.Cut(t0.Add(time.Second))
	if err := s.Merge(big.Cut(t0.Add(time.Second))); err == nil || !strings.Contains(err.Error(), `"READ"`) {
		t.Errorf("Merge of an out-of-range histogram: err = %v, want one naming READ", err)
	}
}

// FuzzHDRLogRoundTrip writes fuzzed latencies as HdrHistogram log intervals
// and reads them back with hdrhistogram-go's log reader.
func FuzzHDRLogRoundTrip(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("\xff\xff\xff\xff\x00\x00\x00\x00latency"))
	f.Add(bytes.Repeat([]byte{7, 200, 13, 0, 0, 1, 0, 0}, 20))
	f.Fuzz(func(t *testing.T, data []byte) {
		var hists []*hdrhistogram.Histogram
		h := Options{}.withDefaults().newHist()
		for len(data) >= 8 {
			v := binary.LittleEndian.Uint64(data) % uint64(h.HighestTrackableValue())
			data = data[8:]
			if v%97 == 0 { // start a new interval now and then
				hists = append(hists, h)
				h = Options{}.withDefaults().newHist()
			}
			if err := h.RecordValue(int64(v)); err != nil {
				t.Fatal(err)
			}
		}
		hists = append(hists, h)
		var buf bytes.Buffer
		l, err := NewHDRLog(&buf, "READ", t0)
		if err != nil {
			t.Fatal(err)
		}
		for k, h := range hists {
			s := t0.Add(time.Duration(k) * time.Second)
			if err := l.WriteInterval(s, s.Add(time.Second), h); err != nil {
				t.Fatal(err)
			}
		}
		r := hdrhistogram.NewHistogramLogReader(&buf)
		for k, want := range hists {
			got, err := r.NextIntervalHistogram()
			if err != nil || got == nil {
				t.Fatalf("interval %d: %v, %v", k, got, err)
			}
			if !got.Equals(want) {
				t.Fatalf("interval %d: read back %d samples, want %d", k, got.TotalCount(), want.TotalCount())
			}
		}
	})
}
