package generator

import (
	"math"
	"slices"
	"strings"
	"testing"
)

const sampleHistogram = "BlockSize\t512\n0\t10\n1\t20\n2\t30\n3\t40\n"

func TestParseHistogram(t *testing.T) {
	h, err := ParseHistogram(strings.NewReader(sampleHistogram), "sizes.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Java mean(): 512·(0·10+1·20+2·30+3·40)/100 = 512·2 = 1024.
	if h.Mean() != 1024 {
		t.Errorf("Mean() = %v, want 1024", h.Mean())
	}
	// CRLF, blank lines and a skipped bucket (counts as 0).
	h2, err := ParseHistogram(strings.NewReader("BlockSize\t512\r\n\r\n0\t10\r\n1\t20\n3\t40\n"), "crlf.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{10, 20, 0, 40}; !slices.Equal(h2.buckets, want) {
		t.Errorf("buckets = %v, want %v", h2.buckets, want)
	}
}

func TestParseHistogramErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty histogram"},
		{"\n\n", "empty histogram"},
		{"Block\t1\n0\t1\n", "f:1: first line"},
		{"BlockSize 1\n", "f:1: \"BlockSize 1\": want two fields"},
		{"BlockSize\tx\n", "f:1: block size \"x\""},
		{"BlockSize\t0\n0\t1\n", "f:1: block size \"0\""},
		{"BlockSize\t8\n0\t1\n1\tabc\n", "f:3: count \"abc\" of bucket 1"},
		{"BlockSize\t8\n0\t1\n-1\t1\n", "f:3: bucket \"-1\""},
		{"BlockSize\t8\n0\t1\n1\t-5\n", "f:3: count \"-5\""},
		{"BlockSize\t8\n0\t1\n2\t1\n1\t1\n", "f:4: bucket 1 out of order"},
		{"BlockSize\t8\n0\t1\n0\t1\n", "f:3: bucket 0 out of order"},
		{"BlockSize\t8\n0\t0\n1\t0\n", "total count of 0"},
		{"BlockSize\t8\n", "total count of 0"},
		{"BlockSize\t8\n0\t1\n99999999999\t1\n", "f:3: bucket 99999999999 leaves a gap"},
	} {
		_, err := ParseHistogram(strings.NewReader(c.in), "f")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseHistogram(%q) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
	if _, err := NewHistogram([]int64{1}, 0); err == nil {
		t.Error("NewHistogram(block 0): want an error")
	}
	if _, err := NewHistogram([]int64{1, -1}, 1); err == nil {
		t.Error("NewHistogram(negative count): want an error")
	}
	if _, err := NewHistogram([]int64{math.MaxInt64, 1}, 1); err == nil {
		t.Error("NewHistogram(overflowing counts): want an error")
	}
}

// TestHistogramPick checks Java's walk for every number in [0, area):
// 0…10 → 512 (bucket 0's 10 numbers plus r = 0), 11…30 → 1024, 31…60 →
// 1536, and everything else falls through to the last, (len-1)·block = 1536.
func TestHistogramPick(t *testing.T) {
	h, err := NewHistogram([]int64{10, 20, 30, 40}, 512)
	if err != nil {
		t.Fatal(err)
	}
	for r := int64(0); r < 100; r++ {
		want := int64(1536)
		switch {
		case r <= 10:
			want = 512
		case r <= 30:
			want = 1024
		}
		if got := h.pick(r); got != want {
			t.Errorf("pick(%d) = %d, want %d", r, got, want)
		}
	}
	// r = 0 returns block even when bucket 0 is empty (Java's off-by-one).
	e, _ := NewHistogram([]int64{0, 5}, 4)
	if got := e.pick(0); got != 4 {
		t.Errorf("empty bucket 0: pick(0) = %d, want 4", got)
	}
	one, _ := NewHistogram([]int64{5}, 4)
	if got := one.pick(3); got != 0 {
		t.Errorf("single bucket: pick(3) = %d, want 0", got)
	}
}

// TestHistogramMean draws from the sample histogram; the exact mean of Next
// is (11·512 + 20·1024 + 69·1536)/100 = 1320.96 (not Mean() = 1024, because
// of Java's off-by-one). The draws' standard deviation is about 400, so the
// mean of 50 000 has sd ≈ 1.8; allow 9.
func TestHistogramMean(t *testing.T) {
	h, err := ParseHistogram(strings.NewReader(sampleHistogram), "sizes.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := NewRand(18, 0)
	const n = 50_000
	sum := 0.0
	for range n {
		v := h.Next(r)
		if v%512 != 0 || v < 512 || v > 1536 {
			t.Fatalf("Next() = %d, want a multiple of 512 in [512, 1536]", v)
		}
		sum += float64(v)
	}
	if got := sum / n; math.Abs(got-1320.96) > 9 {
		t.Errorf("mean of Next() = %.2f, want 1320.96 ± 9", got)
	}
}
