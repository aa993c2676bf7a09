package measure

import (
	"bytes"
	"io"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func TestFormatFixed3(t *testing.T) {
	// Expected values from Java 25's String.format(Locale.US, "%.3f", f).
	tests := []struct {
		f    float64
		want string
	}{
		{0.0625, "0.063"}, {1.0005, "1.001"}, {2.0004999, "2.000"},
		{1767348672.345, "1767348672.345"}, {0, "0.000"}, {0.15, "0.150"}, {12, "12.000"},
	}
	for _, tt := range tests {
		if got := formatFixed3(tt.f); got != tt.want {
			t.Errorf("formatFixed3(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

func TestHDRLogRoundTrip(t *testing.T) {
	_, ivs := workloadSnapshot(t)
	bufs := map[string]*bytes.Buffer{}
	logs := NewHDRLogs(func(series string) (io.WriteCloser, error) {
		b := new(bytes.Buffer)
		bufs[HDRLogFileName("run1-", series)] = b
		return nopCloser{b}, nil
	})
	for _, iv := range ivs {
		if err := logs.Write(iv); err != nil {
			t.Fatal(err)
		}
	}
	if err := logs.Close(); err != nil {
		t.Fatal(err)
	}
	if len(bufs) != 6 {
		t.Errorf("opened %d logs, want 6 (one per series seen)", len(bufs))
	}
	golden(t, "run1-READ.hdr", bufs["run1-READ.hdr"].Bytes())

	// CLEANUP first appears in the last interval: its log starts there.
	cleanup := bufs["run1-CLEANUP.hdr"].String()
	if n := strings.Count(cleanup, "HISTF"); n != 1 || !strings.Contains(cleanup, "\n0.000,1.000,0.003,HISTF") {
		t.Errorf("CLEANUP log has %d intervals, want one at 0.000 lasting 1.000 s with max 0.003 s:\n%s", n, cleanup)
	}

	r := hdrhistogram.NewHistogramLogReader(bytes.NewReader(bufs["run1-READ.hdr"].Bytes()))
	read := ivs[0].Layout.SeriesIndex("READ")
	for k, iv := range ivs {
		h, err := r.NextIntervalHistogram()
		if err != nil || h == nil {
			t.Fatalf("interval %d: %v, %v", k, h, err)
		}
		if !h.Equals(iv.Series[read].Hist) {
			t.Errorf("interval %d: histogram read back differs (count %d, want %d)", k, h.TotalCount(), iv.Series[read].Count())
		}
		if h.StartTimeMs() != iv.Start.UnixMilli() || h.EndTimeMs() != iv.End.UnixMilli() {
			t.Errorf("interval %d: read back %d..%d ms, want %d..%d", k, h.StartTimeMs(), h.EndTimeMs(), iv.Start.UnixMilli(), iv.End.UnixMilli())
		}
	}
	if h, err := r.NextIntervalHistogram(); h != nil || err != nil {
		t.Errorf("extra interval after the last: %v, %v", h, err)
	}
}
