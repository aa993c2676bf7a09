package generator

import (
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// testGenerators builds one of every Generator for the allocation test and
// the benchmarks.
func testGenerators(tb testing.TB) []struct {
	name string
	g    Generator
} {
	tb.Helper()
	must := func(g Generator, err error) Generator {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return g
	}
	uniform, err := NewUniform(0, 99_999)
	zipf := must(NewZipfian(0, 99_999))
	scr := must(NewScrambledZipfian(0, 99_999))
	seq := must(NewSequential(0, 999))
	hot, _, err2 := NewHotspot(0, 99_999, 0.2, 0.8)
	exp := must(NewExponential(95, 1e6))
	hist := must(ParseHistogram(strings.NewReader(sampleHistogram), "h"))
	if err != nil || err2 != nil {
		tb.Fatal(err, err2)
	}
	ack := NewAcknowledgedCounter(100_000)
	return []struct {
		name string
		g    Generator
	}{
		{"Counter", NewCounter(0)},
		{"AcknowledgedCounter", ack},
		{"Uniform", uniform},
		{"Zipfian", zipf},
		{"ScrambledZipfian", scr},
		{"SkewedLatest", NewSkewedLatest(ack)},
		{"Hotspot", hot},
		{"Exponential", exp},
		{"Sequential", seq},
		{"Histogram", hist},
		{"Constant", NewConstant(7)},
	}
}

// TestAllocs: the per-operation calls allocate nothing.
func TestAllocs(t *testing.T) {
	r := NewRand(1, 1)
	for _, c := range testGenerators(t) {
		if n := testing.AllocsPerRun(200, func() { c.g.Next(r); c.g.Last() }); n != 0 {
			t.Errorf("%s: Next+Last allocate %.1f times per call, want 0", c.name, n)
		}
	}
	d, _ := NewDiscrete(Weighted[int]{0.5, 0}, Weighted[int]{0.5, 1})
	if n := testing.AllocsPerRun(200, func() { d.Next(r) }); n != 0 {
		t.Errorf("Discrete.Next allocates %.1f times per call, want 0", n)
	}
	e, _ := NewExponential(95, 100)
	if n := testing.AllocsPerRun(200, func() { e.NextFloat(r) }); n != 0 {
		t.Errorf("Exponential.NextFloat allocates %.1f times per call, want 0", n)
	}
	// Growing paths: acknowledging inserts, and "latest" following them.
	ack := NewAcknowledgedCounter(100)
	latest := NewSkewedLatest(ack)
	z, _ := NewZipfian(0, 99)
	m := int64(100)
	if n := testing.AllocsPerRun(200, func() {
		_ = ack.Acknowledge(ack.Next(r))
		latest.Next(r)
		m++
		z.NextN(r, m)
	}); n != 0 {
		t.Errorf("Acknowledge + growing SkewedLatest/Zipfian.NextN allocate %.1f times per call, want 0", n)
	}
	// The same far above ZetaExactMax, where growth evaluates the
	// Euler–Maclaurin tail instead of adding terms.
	bigAck := NewAcknowledgedCounter(1_000_000_000)
	bigLatest := NewSkewedLatest(bigAck)
	bigZ, _ := NewZipfian(0, 99)
	bigM := int64(1_000_000_000)
	if n := testing.AllocsPerRun(200, func() {
		_ = bigAck.Acknowledge(bigAck.Next(r))
		bigLatest.Next(r)
		bigM++
		bigZ.NextN(r, bigM)
	}); n != 0 {
		t.Errorf("growing SkewedLatest/Zipfian.NextN past 10^9 allocate %.1f times per call, want 0", n)
	}
	buf := make([]byte, 0, 64)
	for _, hashed := range []bool{true, false} {
		if n := testing.AllocsPerRun(200, func() { buf = AppendKey(buf[:0], 123456789, hashed, 20) }); n != 0 {
			t.Errorf("AppendKey(hashed=%v) allocates %.1f times per call, want 0", hashed, n)
		}
	}
}

// TestReproducible: the same (seed, stream) gives the same sequence, and a
// different seed or stream gives a different one.
func TestReproducible(t *testing.T) {
	draw := func(seed, stream uint64) []int64 {
		r := NewRand(seed, stream)
		z, _ := NewScrambledZipfian(0, 1<<40)
		out := make([]int64, 64)
		for i := range out {
			out[i] = z.Next(r)
		}
		return out
	}
	a := draw(42, 3)
	if b := draw(42, 3); !slices.Equal(a, b) {
		t.Errorf("NewRand(42, 3) twice gave different sequences:\n%v\n%v", a, b)
	}
	for _, other := range [][2]uint64{{42, 4}, {43, 3}, {3, 42}, {0, 0}} {
		if b := draw(other[0], other[1]); slices.Equal(a, b) {
			t.Errorf("NewRand(%d, %d) gave the same sequence as NewRand(42, 3)", other[0], other[1])
		}
	}
	// Neighbouring streams are not shifted copies of each other.
	r0, r1 := NewRand(7, 0), NewRand(7, 1)
	first := make(map[uint64]bool)
	for range 1000 {
		first[r0.Uint64()] = true
	}
	for i := range 1000 {
		if v := r1.Uint64(); first[v] {
			t.Fatalf("stream 1 draw %d (%d) also occurs among stream 0's first 1000", i, v)
		}
	}
}

var sinkInt int64

func BenchmarkNext(b *testing.B) {
	for _, c := range testGenerators(b) {
		b.Run(c.name, func(b *testing.B) {
			r := NewRand(1, 2)
			b.ReportAllocs()
			for b.Loop() {
				sinkInt += c.g.Next(r)
			}
		})
	}
}

// BenchmarkNextParallel shows the cost of sharing one generator between
// workers (atomic counters and last-value words).
func BenchmarkNextParallel(b *testing.B) {
	for _, c := range testGenerators(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var stream atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				r := NewRand(1, stream.Add(1))
				var s int64
				for pb.Next() {
					s += c.g.Next(r)
				}
				sinkShared.Add(s)
			})
		})
	}
}

var sinkShared atomic.Int64

func BenchmarkDiscrete(b *testing.B) {
	d, _ := NewDiscrete(Weighted[int]{0.5, 0}, Weighted[int]{0.45, 1}, Weighted[int]{0.05, 2})
	r := NewRand(1, 2)
	b.ReportAllocs()
	for b.Loop() {
		sinkInt += int64(d.Next(r))
	}
}

func BenchmarkAcknowledge(b *testing.B) {
	c := NewAcknowledgedCounter(0)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Acknowledge(c.Next(nil)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendKey(b *testing.B) {
	buf := make([]byte, 0, 64)
	var k int64
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendKey(buf[:0], k, true, 1)
		k++
	}
}
