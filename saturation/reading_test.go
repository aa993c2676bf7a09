package saturation

import (
	"math"
	"testing"
	"time"
)

func TestSchedBetween(t *testing.T) {
	b := []float64{0, 1e-6, 1e-3, 5e-3, 20e-3, math.Inf(1)}
	cases := []struct {
		name    string
		a, b    []uint64
		n, slow uint64
		p50     time.Duration
	}{
		{"nothing new", []uint64{5, 5, 5, 5, 5}, []uint64{5, 5, 5, 5, 5}, 0, 0, -1},
		{"short waits", []uint64{0, 0, 0, 0, 0}, []uint64{0, 99, 1, 0, 0}, 100, 0, time.Millisecond},
		{"slow ones from 5 ms", []uint64{0, 0, 0, 0, 0}, []uint64{0, 40, 20, 30, 10}, 100, 40, 5 * time.Millisecond},
		{"only the window counts", []uint64{10, 0, 0, 0, 7}, []uint64{10, 3, 0, 0, 8}, 4, 1, time.Millisecond},
		{"last bucket is open", []uint64{0, 0, 0, 0, 0}, []uint64{0, 0, 0, 0, 3}, 3, 3, 20 * time.Millisecond},
		{"mismatched readings", []uint64{1}, []uint64{0, 1, 0, 0, 0}, 0, 0, -1},
	}
	for _, c := range cases {
		n, slow, p50 := schedBetween(c.a, c.b, b, 5*time.Millisecond)
		if n != c.n || slow != c.slow || p50 != c.p50 {
			t.Errorf("%s: schedBetween = %d, %d, %v; want %d, %d, %v", c.name, n, slow, p50, c.n, c.slow, c.p50)
		}
	}
}

func TestParseSchedstat(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1234567 890 12\n", 890, true},
		{"0 0 1", 0, true},
		{"1234567", 0, false},
		{"a b c", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		if w, ok := parseSchedstat(c.in); w != c.want || ok != c.ok {
			t.Errorf("parseSchedstat(%q) = %d, %v; want %d, %v", c.in, w, ok, c.want, c.ok)
		}
	}
}
