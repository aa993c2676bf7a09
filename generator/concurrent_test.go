package generator

import (
	"sync"
	"testing"
)

// TestSkewedLatestConcurrentGrowth runs "latest" readers while a writer
// inserts and acknowledges keys, as workload D does. Every draw must lie in
// [1, basis.Last()] as seen after the draw, and at the end ζ must equal the
// exact Zeta of the final count: incremental growth adds the same terms in
// the same order, so the float result is bit-identical.
func TestSkewedLatestConcurrentGrowth(t *testing.T) {
	const readers, draws, inserts, start = 4, 3000, 2000, 100
	basis := NewAcknowledgedCounter(start)
	s := NewSkewedLatest(basis) // basis.Last() = 99
	var wg sync.WaitGroup
	wg.Go(func() {
		for range inserts {
			if err := basis.Acknowledge(basis.Next(nil)); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for w := range readers {
		wg.Go(func() {
			r := NewRand(30, uint64(w))
			for range draws {
				v := s.Next(r)
				if m := basis.Last(); v < 1 || v > m {
					t.Errorf("Next() = %d, outside [1, %d]", v, m)
					return
				}
			}
		})
	}
	wg.Wait()
	final := basis.Last()
	if final != start+inserts-1 {
		t.Fatalf("basis.Last() = %d, want %d", final, start+inserts-1)
	}
	s.Next(NewRand(31, 0)) // grow to the final count
	zetan, count := s.zipf.Zetan()
	if count != final {
		t.Errorf("ζ count = %d, want %d", count, final)
	}
	if want := Zeta(final, ZipfianConstant); zetan != want {
		t.Errorf("ζ after concurrent growth = %.17g, want Zeta(%d) = %.17g exactly", zetan, final, want)
	}
}

// TestZipfianConcurrentNextN has goroutines draw with their own, growing item
// counts from one Zipfian; each draw stays below the count it asked for.
func TestZipfianConcurrentNextN(t *testing.T) {
	z, err := NewZipfian(0, 9)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			r := NewRand(32, uint64(w))
			for m := int64(10 + w); m < 3000; m += 3 {
				if v := z.NextN(r, m); v < 0 || v >= m {
					t.Errorf("NextN(r, %d) = %d, outside [0, %d)", m, v, m)
					return
				}
			}
		})
	}
	wg.Wait()
	zetan, count := z.Zetan()
	if want := Zeta(count, ZipfianConstant); zetan != want {
		t.Errorf("ζ(%d) after concurrent growth = %.17g, want %.17g", count, zetan, want)
	}
}
