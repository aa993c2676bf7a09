package memory

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

func open(t *testing.T) drivers.DB {
	db, err := Driver{}.Configure(props.NewDecoder(&props.Set{}), driverstest.Schema())
	if err != nil {
		t.Fatalf("Configure: %v", err)
	}
	return db
}

func TestConformance(t *testing.T) { driverstest.Run(t, open) }

func TestRegistered(t *testing.T) {
	d, err := drivers.Lookup("memory")
	if err != nil {
		t.Fatalf("Lookup(memory): %v", err)
	}
	if _, ok := d.(Driver); !ok {
		t.Errorf("Lookup(memory) = %T, want memory.Driver", d)
	}
}

// TestSkiplistAgainstSortedSlice applies random inserts and deletes to the
// skip list and to a sorted slice and compares a full walk and random seeks
// after every batch.
func TestSkiplistAgainstSortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := newSkiplist()
	var ref []string
	for round := range 20 {
		for range 200 {
			k := fmt.Sprintf("k%d", rng.IntN(1000))
			if rng.IntN(3) == 0 {
				i, found := slices.BinarySearch(ref, k)
				if got := s.delete([]byte(k)); got != found {
					t.Fatalf("round %d: delete(%q) = %v, want %v", round, k, got, found)
				}
				if found {
					ref = slices.Delete(ref, i, i+1)
				}
				continue
			}
			s.upsert([]byte(k), 1)
			if i, found := slices.BinarySearch(ref, k); !found {
				ref = slices.Insert(ref, i, k)
			}
		}
		var walk []string
		for n := s.head.next[0]; n != nil; n = n.next[0] {
			walk = append(walk, string(n.key))
		}
		if !slices.Equal(walk, ref) {
			t.Fatalf("round %d: walk has %d keys, want %d (%q...)", round, len(walk), len(ref), walk[:min(5, len(walk))])
		}
		if s.n != len(ref) {
			t.Fatalf("round %d: n = %d, want %d", round, s.n, len(ref))
		}
		for range 50 {
			k := fmt.Sprintf("k%d", rng.IntN(1100))
			i, _ := slices.BinarySearch(ref, k)
			n := s.seek([]byte(k), nil)
			switch {
			case i == len(ref) && n != nil:
				t.Fatalf("seek(%q) = %q, want end", k, n.key)
			case i < len(ref) && (n == nil || !bytes.Equal(n.key, []byte(ref[i]))):
				t.Fatalf("seek(%q) = %v, want %q", k, n, ref[i])
			}
		}
	}
}

// TestUpdateCreates pins the HBase-like upsert: an update of a missing key
// creates a record holding just the updated fields.
func TestUpdateCreates(t *testing.T) {
	ctx := context.Background()
	c, _ := NewDB(driverstest.Schema()).Open(ctx)
	v := drivers.NewRecord(driverstest.NumFields)
	v.Set(2, []byte("x"))
	if err := c.Update(ctx, "t", []byte("k"), v); err != nil {
		t.Fatalf("Update of a missing key: %v", err)
	}
	got := drivers.NewRecord(driverstest.NumFields)
	if err := c.Read(ctx, "t", []byte("k"), nil, got); err != nil {
		t.Fatalf("Read after upsert: %v", err)
	}
	if b, ok := got.Get(2); !ok || string(b) != "x" || got.Count() != 1 {
		t.Errorf("Read after upsert: field 2 = %q (present %v), %d fields; want \"x\", 1 field", b, ok, got.Count())
	}
}

func TestTablesAreSeparate(t *testing.T) {
	ctx := context.Background()
	db := NewDB(driverstest.Schema())
	c, _ := db.Open(ctx)
	v := drivers.NewRecord(driverstest.NumFields)
	v.Set(0, []byte("a"))
	if err := c.Insert(ctx, "t1", []byte("k"), v); err != nil {
		t.Fatal(err)
	}
	if err := c.Read(ctx, "t2", []byte("k"), nil, v); drivers.Classify(err) != drivers.NotFound {
		t.Errorf("Read(t2, k) after insert into t1 = %v, want NOT_FOUND", err)
	}
	if db.Len("t1") != 1 || db.Len("t2") != 0 {
		t.Errorf("Len(t1), Len(t2) = %d, %d; want 1, 0", db.Len("t1"), db.Len("t2"))
	}
}

// TestAllocs pins the allocation budget of reads and scans: none once the
// caller's record and the Conn's scratch space have grown.
func TestAllocs(t *testing.T) {
	ctx := context.Background()
	db := NewDB(driverstest.Schema())
	c, _ := db.Open(ctx)
	v := drivers.NewRecord(driverstest.NumFields)
	for i := range driverstest.NumFields {
		v.Set(i, bytes.Repeat([]byte{'v'}, 100))
	}
	for i := range 100 {
		if err := c.Insert(ctx, "usertable", fmt.Appendf(nil, "user%02d", i), v); err != nil {
			t.Fatal(err)
		}
	}
	dst := drivers.NewRecord(driverstest.NumFields)
	key := []byte("user42")
	fn := func([]byte, *drivers.Record) error { return nil }
	for _, tc := range []struct {
		name string
		op   func()
	}{
		{"Read", func() { _ = c.Read(ctx, "usertable", key, nil, dst) }},
		{"ReadField", func() { _ = c.Read(ctx, "usertable", key, drivers.FieldSet{3}, dst) }},
		{"Scan10", func() { _ = c.Scan(ctx, "usertable", key, 10, nil, fn) }},
	} {
		if n := testing.AllocsPerRun(100, tc.op); n != 0 {
			t.Errorf("%s: %v allocs per op, want 0", tc.name, n)
		}
	}
}

func BenchmarkDriver(b *testing.B) {
	driverstest.Bench(b, func(b *testing.B) drivers.DB { return NewDB(driverstest.Schema()) })
}
