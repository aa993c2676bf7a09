package drivers

import (
	"bytes"
	"testing"
)

func TestRecordSetGetReset(t *testing.T) {
	r := NewRecord(3)
	if r.Len() != 3 || r.Count() != 0 {
		t.Fatalf("NewRecord(3): Len %d Count %d, want 3 0", r.Len(), r.Count())
	}
	r.Set(1, []byte("a"))
	r.Set(1, []byte("bb")) // setting again does not count twice
	r.Set(2, nil)          // a present empty value
	if r.Count() != 2 {
		t.Errorf("Count() = %d, want 2", r.Count())
	}
	if v, ok := r.Get(1); !ok || string(v) != "bb" {
		t.Errorf("Get(1) = %q, %v; want bb, true", v, ok)
	}
	if v, ok := r.Get(2); !ok || len(v) != 0 {
		t.Errorf("Get(2) = %q, %v; want empty, true", v, ok)
	}
	for _, i := range []int{-1, 0, 3, 100} {
		if _, ok := r.Get(i); ok || r.Has(i) {
			t.Errorf("Get(%d)/Has(%d) report a field that was never set", i, i)
		}
	}
	r.Reset()
	if r.Count() != 0 || r.Has(1) || r.Has(2) {
		t.Errorf("after Reset: Count %d, Has(1) %v, Has(2) %v; want 0 false false", r.Count(), r.Has(1), r.Has(2))
	}
}

func TestRecordCopiesInput(t *testing.T) {
	r := NewRecord(1)
	in := []byte("abc")
	r.Set(0, in)
	in[0] = 'X'
	if v, _ := r.Get(0); string(v) != "abc" {
		t.Errorf("Get(0) = %q after the caller changed its slice, want abc", v)
	}
}

func TestRecordGrows(t *testing.T) {
	var r Record
	r.Set(4, []byte("x"))
	if r.Len() != 5 || r.Count() != 1 || !r.Has(4) {
		t.Errorf("zero Record after Set(4): Len %d Count %d Has(4) %v; want 5 1 true", r.Len(), r.Count(), r.Has(4))
	}
	r.SetBuffer(6, append(r.Buffer(6), "yz"...))
	if v, ok := r.Get(6); !ok || string(v) != "yz" || r.Count() != 2 {
		t.Errorf("after SetBuffer(6): Get %q %v Count %d; want yz true 2", v, ok, r.Count())
	}
	if v, _ := r.Get(4); string(v) != "x" {
		t.Errorf("growing lost field 4: %q", v)
	}
}

// TestRecordBufferReuse checks that Buffer hands back the field's storage,
// emptied, so values can be generated in place.
func TestRecordBufferReuse(t *testing.T) {
	r := NewRecord(1)
	r.Set(0, bytes.Repeat([]byte{'a'}, 64))
	b := r.Buffer(0)
	if len(b) != 0 || cap(b) < 64 {
		t.Fatalf("Buffer(0): len %d cap %d, want 0 and >= 64", len(b), cap(b))
	}
	r.SetBuffer(0, append(b, "new"...))
	if v, _ := r.Get(0); string(v) != "new" {
		t.Errorf("Get(0) = %q, want new", v)
	}
}

// TestRecordAllocs: filling a reused record allocates nothing once its
// buffers have grown; this is what every read relies on.
func TestRecordAllocs(t *testing.T) {
	r := NewRecord(10)
	v := bytes.Repeat([]byte{'v'}, 100)
	fill := func() {
		r.Reset()
		for i := range 10 {
			r.Set(i, v)
		}
		r.SetBuffer(3, append(r.Buffer(3), v[:50]...))
	}
	fill()
	if n := testing.AllocsPerRun(100, fill); n != 0 {
		t.Errorf("Reset+Set of 10 fields: %v allocs, want 0", n)
	}
}

func TestFieldSetAll(t *testing.T) {
	if !FieldSet(nil).All() {
		t.Error("nil FieldSet is not All")
	}
	if (FieldSet{}).All() || (FieldSet{0}).All() {
		t.Error("a non-nil FieldSet is All")
	}
}
