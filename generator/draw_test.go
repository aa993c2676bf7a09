package generator

import "testing"

// TestDrawIsNextWithoutLast: for every generator with Draw, Draw gives the
// values Next gives from the same random stream and leaves Last as it was.
func TestDrawIsNextWithoutLast(t *testing.T) {
	next, draw := testGenerators(t), testGenerators(t)
	found := 0
	for i, c := range next {
		d, ok := draw[i].g.(Drawer)
		if !ok {
			continue
		}
		found++
		if _, seq := c.g.(*Sequential); seq {
			// One shared counter: Draw advances it as Next does, and Last
			// reads it, so Last follows Draw by design.
			continue
		}
		rn, rd := NewRand(7, 3), NewRand(7, 3)
		// A first Next on the Draw side sets a Last that the draws after
		// it must leave alone.
		first := draw[i].g.Next(rd)
		c.g.Next(rn)
		last := draw[i].g.Last()
		for k := 0; k < 10_000; k++ {
			want, got := c.g.Next(rn), d.Draw(rd)
			if got != want {
				t.Fatalf("%s: draw %d: Draw = %d, Next = %d", c.name, k, got, want)
			}
		}
		if l := draw[i].g.Last(); l != last {
			t.Errorf("%s: Last after 10 000 draws = %d, want %d (the last Next's, %d)", c.name, l, last, first)
		}
	}
	// Uniform, Zipfian, ScrambledZipfian, SkewedLatest, Hotspot,
	// Exponential, Sequential, Histogram, Constant.
	if found != 9 {
		t.Errorf("%d generators have Draw, want 9", found)
	}
}

// TestDrawAllocatesNothing: Draw is on the per-operation path.
func TestDrawAllocatesNothing(t *testing.T) {
	r := NewRand(1, 1)
	for _, c := range testGenerators(t) {
		d, ok := c.g.(Drawer)
		if !ok {
			continue
		}
		if n := testing.AllocsPerRun(200, func() { d.Draw(r) }); n != 0 {
			t.Errorf("%s: Draw allocates %.1f times per call, want 0", c.name, n)
		}
	}
}
