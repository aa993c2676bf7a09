package pebble

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

// configure returns a DB in dir with the given extra properties.
func configure(t testing.TB, dir string, kv map[string]string) *DB {
	t.Helper()
	m := map[string]string{KeyDir: dir, KeyCache: "8MB", KeyMemTable: "4MB"}
	for k, v := range kv {
		m[k] = v
	}
	var s props.Set
	s.Add(props.FromMap(m, "test")...)
	db, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
	if err != nil {
		t.Fatalf("Configure(%v): %v", m, err)
	}
	return db.(*DB)
}

func TestConformance(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB { return configure(t, t.TempDir(), nil) })
}

func TestRegistered(t *testing.T) {
	if _, err := drivers.Lookup("pebble"); err != nil {
		t.Fatalf("Lookup(pebble): %v", err)
	}
}

// TestReopen checks that data written by one DB (one process, in effect)
// is read by the next one on the same directory.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "store")
	db := configure(t, dir, nil)
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := drivers.NewRecord(driverstest.NumFields)
	for i := range 100 {
		r.Set(i%driverstest.NumFields, fmt.Appendf(nil, "v%d", i))
		if err := c.Insert(ctx, "usertable", fmt.Appendf(nil, "user%d", i), r); err != nil {
			t.Fatal(err)
		}
	}
	c.Close(ctx)
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	db = configure(t, dir, nil)
	defer db.Close()
	c, err = db.Open(ctx)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer c.Close(ctx)
	got := drivers.NewRecord(driverstest.NumFields)
	for _, i := range []int{0, 57, 99} {
		key := fmt.Sprintf("user%d", i)
		if err := c.Read(ctx, "usertable", []byte(key), drivers.FieldSet{i % driverstest.NumFields}, got); err != nil {
			t.Fatalf("Read(%s) after reopen: %v", key, err)
		}
		if v, _ := got.Get(i % driverstest.NumFields); string(v) != fmt.Sprintf("v%d", i) {
			t.Errorf("Read(%s) after reopen = %q, want v%d", key, v, i)
		}
	}
}

// TestConcurrentUpdatesOfOneKey checks that updates of different fields of
// one key from many Conns are all kept (the read-modify-write is locked).
func TestConcurrentUpdatesOfOneKey(t *testing.T) {
	ctx := context.Background()
	db := configure(t, t.TempDir(), nil)
	defer db.Close()
	const rounds = 200
	var wg sync.WaitGroup
	for f := range driverstest.NumFields {
		c, err := db.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			defer c.Close(ctx)
			r := drivers.NewRecord(driverstest.NumFields)
			for i := range rounds {
				r.Set(f, fmt.Appendf(nil, "%d", i))
				if err := c.Update(ctx, "t", []byte("hot"), r); err != nil {
					t.Errorf("Update field %d: %v", f, err)
					return
				}
			}
		})
	}
	wg.Wait()
	c, _ := db.Open(ctx)
	got := drivers.NewRecord(driverstest.NumFields)
	if err := c.Read(ctx, "t", []byte("hot"), nil, got); err != nil {
		t.Fatal(err)
	}
	for f := range driverstest.NumFields {
		if v, ok := got.Get(f); !ok || string(v) != fmt.Sprint(rounds-1) {
			t.Errorf("field %d = %q (present %v), want %d: an update was lost", f, v, ok, rounds-1)
		}
	}
}

func TestCodecRoundTrip(t *testing.T) {
	cases := map[string]map[int]string{
		"empty record":     {},
		"one empty field":  {0: ""},
		"sparse":           {1: "a", 4: "bcd"},
		"high field index": {300: "x", 2: "y"},
		"binary":           {0: "\x00\xff\x00", 1: strings.Repeat("z", 1000)},
	}
	for name, fields := range cases {
		r := drivers.NewRecord(4)
		for i, v := range fields {
			r.Set(i, []byte(v))
		}
		enc := appendRecord(nil, r)
		got := drivers.NewRecord(0)
		if err := decodeRecord(enc, nil, got); err != nil {
			t.Errorf("%s: decode(%q): %v", name, enc, err)
			continue
		}
		if got.Count() != len(fields) {
			t.Errorf("%s: decoded %d fields, want %d", name, got.Count(), len(fields))
		}
		for i, v := range fields {
			if g, ok := got.Get(i); !ok || string(g) != v {
				t.Errorf("%s: field %d = %q (present %v), want %q", name, i, g, ok, v)
			}
		}
	}
}

func TestCodecRejectsCorrupt(t *testing.T) {
	for _, b := range [][]byte{nil, {9}, {codecVersion, 0x80}, {codecVersion, 0, 5, 'a'}, {codecVersion, 0xff, 0xff, 0xff, 0xff, 0x7f, 0}} {
		if err := decodeRecord(b, nil, drivers.NewRecord(1)); err == nil {
			t.Errorf("decode(%q) accepted a corrupt record", b)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{codecVersion, 0, 1, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := drivers.NewRecord(2)
		if decodeRecord(b, nil, r) != nil {
			return
		}
		// What decodes re-encodes to the same fields.
		again := drivers.NewRecord(2)
		if err := decodeRecord(appendRecord(nil, r), nil, again); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		for i := range max(r.Len(), again.Len()) {
			a, _ := r.Get(i)
			b, _ := again.Get(i)
			if !bytes.Equal(a, b) || r.Has(i) != again.Has(i) {
				t.Fatalf("field %d: %q then %q", i, a, b)
			}
		}
	})
}

func TestBadProperties(t *testing.T) {
	for _, kv := range []map[string]string{
		{KeySync: "often"},
		{KeyCache: "lots"},
		{KeyMemTable: "10KB"},
		{KeyCompactions: "0"},
		{KeyBlockSize: "1"},
		{KeyDir: ""},
		{KeySync: "true", KeyWAL: "false"},
	} {
		var s props.Set
		s.Add(props.FromMap(kv, "test")...)
		_, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
		var name string
		for k := range kv {
			name = k
		}
		if err == nil || !strings.Contains(err.Error(), "pebble.") {
			t.Errorf("Configure(%v) = %v, want an error naming a pebble key (%s)", kv, err, name)
		}
	}
}

func TestTableNameWithZeroByte(t *testing.T) {
	db := configure(t, t.TempDir(), nil)
	defer db.Close()
	c, _ := db.Open(context.Background())
	err := c.Insert(context.Background(), "a\x00b", []byte("k"), drivers.NewRecord(1))
	if err == nil || !strings.Contains(err.Error(), "zero byte") {
		t.Errorf("Insert into table \"a\\x00b\" = %v, want an error about the zero byte", err)
	}
}

// TestAllocs pins reads and scans at no allocation once buffers have grown.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	ctx := context.Background()
	db := configure(t, t.TempDir(), nil)
	defer db.Close()
	c, _ := db.Open(ctx)
	r := drivers.NewRecord(driverstest.NumFields)
	for i := range driverstest.NumFields {
		r.Set(i, bytes.Repeat([]byte{'v'}, 100))
	}
	for i := range 100 {
		if err := c.Insert(ctx, "usertable", fmt.Appendf(nil, "user%02d", i), r); err != nil {
			t.Fatal(err)
		}
	}
	dst := drivers.NewRecord(driverstest.NumFields)
	key := []byte("user42")
	one := drivers.FieldSet{3}
	fn := func([]byte, *drivers.Record) error { return nil }
	// Scan's one allocation is pebble's own (the merging iterator's heap,
	// made by every NewIter). Reads and updates that reach sstables, not
	// just the memtable as here, also pay pebble one per level visited.
	for _, tc := range []struct {
		name   string
		budget float64
		op     func()
	}{
		{"Read", 0, func() { _ = c.Read(ctx, "usertable", key, nil, dst) }},
		{"ReadField", 0, func() { _ = c.Read(ctx, "usertable", key, one, dst) }},
		{"Scan10", 1, func() { _ = c.Scan(ctx, "usertable", key, 10, nil, fn) }},
		{"Insert", 0, func() { _ = c.Insert(ctx, "usertable", key, r) }},
		{"Update", 0, func() { _ = c.Update(ctx, "usertable", key, dst) }},
	} {
		if n := testing.AllocsPerRun(200, tc.op); n > tc.budget {
			t.Errorf("%s: %v allocs per op, want <= %v", tc.name, n, tc.budget)
		}
	}
}

func BenchmarkDriver(b *testing.B) {
	// The default sizes, as a user gets them.
	def := map[string]string{KeyCache: "64MB", KeyMemTable: "64MB"}
	driverstest.Bench(b, func(b *testing.B) drivers.DB { return configure(b, b.TempDir(), def) })
}
