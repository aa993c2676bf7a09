package core

import (
	"math/rand/v2"
	"testing"
)

func TestIntegrityValueMatchesJava(t *testing.T) {
	// Printed by Java YCSB's buildDeterministicValue algorithm on JDK 17.
	// (spec §4.6's vector hashed before appending ':', which Java does not:
	// Java YCSB reported UNEXPECTED_STATE on every value written that way.)
	want := "user6284781860667377211:field0:-56807877:2032869390:-165488160:1762371712:-169193395:-1039977118:-10"
	got := string(appendIntegrityValue(nil, []byte("user6284781860667377211"), "field0", 100))
	if got != want {
		t.Errorf("integrity value:\n got %q\nwant %q", got, want)
	}
	if short := string(appendIntegrityValue(nil, []byte("user1"), "field0", 5)); short != "user1" {
		t.Errorf("cut to 5 = %q, want user1", short)
	}
}

// TestRandomValueIsJavas: the word-at-a-time bytes are Java
// RandomByteIterator's, computed byte by byte from the same 32-bit ints.
func TestRandomValueIsJavas(t *testing.T) {
	for _, n := range []int{0, 1, 5, 6, 7, 12, 13, 14, 25, 100, 1001} {
		r := newValueRand(rand.New(rand.NewPCG(3, 4)))
		ref := r // the same stream
		got := appendRandomValue([]byte("x"), &r, n)[1:]
		var want []byte
		for len(want) < n {
			v := ref.next()
			for _, w := range []uint32{uint32(v), uint32(v >> 32)} {
				for k := 0; k < 6 && len(want) < n; k++ {
					want = append(want, byte((w>>(5*uint(k)))&randMasks[k])+' ')
				}
			}
		}
		if string(got) != string(want) {
			t.Fatalf("n=%d:\n got %q\nwant %q", n, got, want)
		}
	}
}

func TestRandomValueShape(t *testing.T) {
	r := newValueRand(rand.New(rand.NewPCG(1, 2)))
	v := appendRandomValue(nil, &r, 100000)
	if len(v) != 100000 {
		t.Fatalf("len = %d, want 100000", len(v))
	}
	for i, b := range v {
		lo, hi := byte(0x20), byte(0x7f)
		switch i % 6 % 3 {
		case 0:
			hi = 0x3f
		case 1:
			hi = 0x5f
		}
		if b < lo || b > hi {
			t.Fatalf("byte %d = %#x, outside [%#x, %#x] for its position", i, b, lo, hi)
		}
	}
	for _, n := range []int{0, 1, 5, 6, 7, 13} {
		if got := len(appendRandomValue(nil, &r, n)); got != n {
			t.Errorf("appendRandomValue(n=%d) made %d bytes", n, got)
		}
	}
}

func TestValuesAllocateNothing(t *testing.T) {
	r := newValueRand(rand.New(rand.NewPCG(1, 2)))
	buf := make([]byte, 0, 256)
	key := []byte("user6284781860667377211")
	if a := testing.AllocsPerRun(100, func() { buf = appendRandomValue(buf[:0], &r, 100) }); a != 0 {
		t.Errorf("appendRandomValue allocs = %v, want 0", a)
	}
	if a := testing.AllocsPerRun(100, func() { buf = appendIntegrityValue(buf[:0], key, "field3", 100) }); a != 0 {
		t.Errorf("appendIntegrityValue allocs = %v, want 0", a)
	}
}

func BenchmarkRandomValue100(b *testing.B) {
	r := newValueRand(rand.New(rand.NewPCG(1, 2)))
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = appendRandomValue(buf[:0], &r, 100)
	}
}
