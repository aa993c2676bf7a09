package measure

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// shapesSnapshot records READ 500, 1500, 2500 and 7000 µs and UPDATE 19 ×
// 500 µs and once 2500 µs, all OK, with 3 one-millisecond buckets and raw
// samples kept.
func shapesSnapshot(t *testing.T) *Snapshot {
	t.Helper()
	c := NewCollector(Layout{Series: []string{"READ", "UPDATE"}, Codes: []string{"OK", "ERROR"}}, Options{Buckets: 3, Raw: true})
	r := c.NewRecorder()
	for _, us := range []int{500, 1500, 2500, 7000} {
		r.RecordOp(0, time.Duration(us)*time.Microsecond, 0, 0, 1)
	}
	for i := 0; i < 20; i++ {
		us := 500
		if i == 7 {
			us = 2500
		}
		r.RecordOp(1, time.Duration(us)*time.Microsecond, 1, 0, 1)
	}
	c.Cut(time.Now())
	return c.Total()
}

func blockText(t *testing.T, lines []Line) string {
	t.Helper()
	var b bytes.Buffer
	var blocks []Line
	for _, l := range lines {
		if l.Metric != "OVERALL" {
			blocks = append(blocks, l)
		}
	}
	if err := WriteText(&b, blocks); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestHistogramShape: Java's OneMeasurementHistogram lines, values worked
// out by hand: READ's mean 11500/4, variance 57750000/4 - 2875², its 95th
// and 99th percentiles in the overflow (so left out); UPDATE's 95th in
// bucket 0 (19/20 = 0.95) and 99th in bucket 2.
func TestHistogramShape(t *testing.T) {
	s := shapesSnapshot(t)
	got := blockText(t, Lines(s, LineOptions{RunTime: time.Second, Type: Histogram, Verbose: true}))
	want := `[READ], Operations, 4
[READ], AverageLatency(us), 2875.0
[READ], LatencyVariance(us), 6171875.0
[READ], MinLatency(us), 500
[READ], MaxLatency(us), 7000
[READ], Return=OK, 4
[READ], 0, 1
[READ], 1, 1
[READ], 2, 1
[READ], >3, 1
[UPDATE], Operations, 20
[UPDATE], AverageLatency(us), 600.0
[UPDATE], LatencyVariance(us), 190000.0
[UPDATE], MinLatency(us), 500
[UPDATE], MaxLatency(us), 2500
[UPDATE], 95thPercentileLatency(us), 0
[UPDATE], 99thPercentileLatency(us), 2000
[UPDATE], Return=OK, 20
[UPDATE], 0, 19
[UPDATE], 1, 0
[UPDATE], 2, 1
[UPDATE], >3, 0
`
	if got != want {
		t.Errorf("histogram report:\n%s\nwant:\n%s", got, want)
	}
	if s.Ops != 24 {
		t.Errorf("ops %d, want 24 (RecordOp's done count)", s.Ops)
	}
	// hdrhistogram+histogram: an Hdr block with the return codes, then a
	// Bucket block without.
	got = blockText(t, Lines(s, LineOptions{RunTime: time.Second, Type: HdrAndHistogram}))
	if !strings.HasPrefix(got, "[HdrREAD], Operations, 4\n") || !strings.Contains(got, "[HdrREAD], Return=OK, 4\n[BucketREAD], Operations, 4\n") ||
		strings.Contains(got, "[BucketREAD], Return") {
		t.Errorf("hdrhistogram+histogram report:\n%s", got)
	}
	if st := summary(Histogram, "READ", &s.Series[0]); st != "[READ AverageLatency(us)=2875]" {
		t.Errorf("histogram status %q", st)
	}
}

// TestRawShape: Java's OneMeasurementRaw summary ranks the sorted samples
// at ⌊n·q⌋, and its data lines carry the completion time in Unix ms.
func TestRawShape(t *testing.T) {
	before := time.Now().UnixMilli()
	s := shapesSnapshot(t)
	got := blockText(t, Lines(s, LineOptions{RunTime: time.Second, Type: Raw}))
	want := `[READ], Total Operations, 4
[READ], Below is a summary of latency in microseconds:, -1
[READ], Average, 2875.0
[READ], Min, 500
[READ], Max, 7000
[READ], p1, 500
[READ], p5, 500
[READ], p50, 2500
[READ], p90, 7000
[READ], p95, 7000
[READ], p99, 7000
[READ], p99.9, 7000
[READ], p99.99, 7000
[READ], Return=OK, 4
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("raw report:\n%s\nwant it to begin with:\n%s", got, want)
	}
	got = blockText(t, Lines(s, LineOptions{RunTime: time.Second, Type: Raw, NoRawSummary: true}))
	if !strings.HasPrefix(got, "[READ], Total Operations, 4\n[READ], Return=OK, 4\n[UPDATE], Total Operations, 20\n") {
		t.Errorf("raw report without summary:\n%s", got)
	}
	var b bytes.Buffer
	if err := WriteRawData(&b, s, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2+4+20 || lines[0] != "READ latency raw data: op, timestamp(ms), latency(us)" || lines[5] != "UPDATE latency raw data: op, timestamp(ms), latency(us)" {
		t.Fatalf("raw data:\n%s", b.String())
	}
	var lat []string
	for _, l := range lines[1:5] {
		f := strings.Split(l, ",")
		if len(f) != 3 {
			t.Fatalf("raw line %q", l)
		}
		ms, err := strconv.ParseInt(f[1], 10, 64)
		if len(f) != 3 || f[0] != "READ" || err != nil || ms < before || ms > time.Now().UnixMilli() {
			t.Errorf("raw line %q: want READ,<unix ms>,<us>", l)
		}
		lat = append(lat, f[2])
	}
	if strings.Join(lat, " ") != "500 1500 2500 7000" {
		t.Errorf("raw READ latencies %v, want in recording order", lat)
	}
	if st := summary(Raw, "READ", &s.Series[0]); st != "READ count: 4, average latency(us): 2875.00" {
		t.Errorf("raw status %q", st)
	}
}

// TestRecordOpAllocs: the combined record stays allocation-free once a
// series has its buffers, with buckets too.
func TestRecordOpAllocs(t *testing.T) {
	c := NewCollector(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, Options{Buckets: 1000})
	r := c.NewRecorder()
	r.RecordOp(0, time.Millisecond, 0, 0, 1)
	if n := testing.AllocsPerRun(1000, func() { r.RecordOp(0, 300*time.Microsecond, 0, 0, 1) }); n != 0 {
		t.Errorf("RecordOp allocates %v per call", n)
	}
}

func TestFormatJavaFixed(t *testing.T) {
	for f, want := range map[float64]string{0.125: "0.13", 1.005: "1.01", 2.5: "2.50", 0: "0.00", 9.995: "10.00", 123.456: "123.46", 1e-7: "0.00", 12345678.125: "12345678.13"} {
		if got := FormatJavaFixed(f, 2); got != want {
			t.Errorf("FormatJavaFixed(%v, 2) = %q, want %q (Java's %%.2f rounds the shortest digits half-up)", f, got, want)
		}
	}
}
