package dfsio

import (
	"math"
	"strings"
	"testing"
	"time"
)

// summaryOf builds a summary the way the job does, from per-file bytes and
// times.
func summaryOf(t Test, bytes []int64, ms []int64, wallMS int64) Summary {
	j, _ := NewJob(Config{Test: t, NrFiles: len(bytes), Size: 1, BufferSize: 1, BaseDir: "/b"})
	for i := range bytes {
		j.files[i] = File{Name: j.cfg.FileName(i), Bytes: bytes[i], ExecMS: ms[i], Time: time.Duration(ms[i]) * time.Millisecond}
	}
	return j.Summary(time.Duration(wallMS) * time.Millisecond)
}

// The spec's worked example: 4 files of 128 MiB in 10, 12, 14 and 16 s, a
// job of 36.2 s.
func TestDFSIOSummaryWorkedExample(t *testing.T) {
	const mib128 = 128 << 20
	s := summaryOf(Write, []int64{mib128, mib128, mib128, mib128}, []int64{10000, 12000, 14000, 16000}, 36200)
	date := time.Date(2017, 6, 1, 10, 0, 0, 0, time.UTC)
	want := []string{
		"----- TestDFSIO ----- : write",
		"            Date & time: Thu Jun 01 10:00:00 UTC 2017",
		"        Number of files: 4",
		" Total MBytes processed: 512",
		"      Throughput mb/sec: 9.85",
		" Average IO rate mb/sec: 10.15",
		"  IO rate std deviation: 1.8",
		"     Test exec time sec: 36.2",
		"",
	}
	if got := s.Lines(date, Format3x); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("3.x lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	mid := s.Lines(date, FormatMid)
	if mid[5] != "Total Throughput mb/sec: 0.01" || len(mid) != 10 {
		t.Errorf("mid-generation lines: %q", mid)
	}
	if a := s.Aggregate(); math.Abs(a-512/36.2) > 1e-9 {
		t.Errorf("Aggregate = %v, want %v", a, 512/36.2)
	}
	g := s.GobenchLines()
	if g[0] != "gobench: Aggregate throughput mb/sec: 14.14 (512 MB in 36.2 s wall time)" {
		t.Errorf("aggregate line %q", g[0])
	}
	if g[1] != "gobench: File time sec: min=10.000 p50=12.000 p90=16.000 max=16.000 (4 files)" {
		t.Errorf("file time line %q", g[1])
	}
}

// A real 2.x run from the field reports (1 file of 240 GB): the float32
// arithmetic of the mapper and reducer must give Java's exact digits,
// including the rounding noise in the standard deviation of one file.
func TestDFSIOSummaryJava2xDigits(t *testing.T) {
	s := summaryOf(Write, []int64{240 << 30}, []int64{2069524}, 2091628)
	got := s.Lines(time.Date(2016, 12, 21, 23, 59, 32, 0, time.FixedZone("CST", 8*3600)), Format2x)
	want := []string{
		"----- TestDFSIO ----- : write",
		"           Date & time: Wed Dec 21 23:59:32 CST 2016",
		"       Number of files: 1",
		"Total MBytes processed: 245760.0",
		"     Throughput mb/sec: 118.75194489167558",
		"Average IO rate mb/sec: 118.75194549560547",
		" IO rate std deviation: 0.012038635802242013",
		"    Test exec time sec: 2091.628",
		"",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
}

func TestDecimal2(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{{512, "512"}, {1.8, "1.8"}, {0.125, "0.12"}, {0.375, "0.38"}, {0.46, "0.46"}, {0, "0"},
		{9.846153846, "9.85"}, {math.Inf(1), "∞"}, {math.NaN(), "NaN"}, {1e9, "1000000000"}} {
		if got := decimal2(c.in); got != c.want {
			t.Errorf("decimal2(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJavaString(t *testing.T) {
	for _, c := range []struct {
		in   float64
		bits int
		want string
	}{{10000, 32, "10000.0"}, {1.048576e7, 32, "1.048576E7"}, {0.0005, 64, "5.0E-4"}, {0.001, 64, "0.001"},
		{176.768, 32, "176.768"}, {float64(float32(15.311584)), 64, "15.31158447265625"}, {-2.5, 64, "-2.5"},
		{math.Inf(1), 64, "Infinity"}, {0, 64, "0.0"}, {123456789, 64, "1.23456789E8"}} {
		if got := javaString(c.in, c.bits); got != c.want {
			t.Errorf("javaString(%v, %d) = %q, want %q", c.in, c.bits, got, c.want)
		}
	}
}

func TestReducerOutput(t *testing.T) {
	s := summaryOf(Read, []int64{1 << 20, 1 << 20}, []int64{1000, 500}, 2000)
	// rates 1 and 2 MiB/s: f:rate = 3000, f:sqrate = 5000
	want := "f:rate\t3000.0\nf:sqrate\t5000.0\nl:size\t2097152\nl:tasks\t2\nl:time\t1500\n"
	if got := s.reducerOutput(); got != want {
		t.Errorf("part-00000:\n%s\nwant:\n%s", got, want)
	}
}
