package measure

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestJavaHdrStats decodes 40 histograms that Java's HdrHistogram 2.1.12
// (YCSB master's version) encoded, and checks count, mean, min, max and the
// percentiles 0 1 22 50 90 95 99 99.9 99.99 100 against the values Java
// computed for them (testdata/java_hdr_stats.txt). This pins both the
// compressed-encoding compatibility and Java's percentile rank rule.
func TestJavaHdrStats(t *testing.T) {
	data, err := os.ReadFile("testdata/java_hdr_stats.txt")
	if err != nil {
		t.Fatal(err)
	}
	ps := []float64{0, 1, 22, 50, 90, 95, 99, 99.9, 99.99, 100}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 5+len(ps) {
			t.Fatalf("bad line with %d fields", len(f))
		}
		h, err := DecodeHistogram(f[0])
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		s := &Series{Hist: h}
		mean, _ := s.Mean()
		got := []string{strconv.FormatInt(s.Count(), 10), FormatJavaDouble(mean),
			strconv.FormatInt(s.Min(), 10), strconv.FormatInt(s.Max(), 10)}
		for _, v := range s.Percentiles(ps) {
			got = append(got, strconv.FormatInt(v, 10))
		}
		if g, w := strings.Join(got, " "), strings.Join(f[1:], " "); g != w {
			t.Errorf("histogram %d: count mean min max p%v\n got %s\nwant %s", n, ps, g, w)
		}
		n++
	}
	if n != 40 {
		t.Errorf("read %d histograms, want 40", n)
	}
}
