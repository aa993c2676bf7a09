package basic

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

// configure returns a DB from the given properties, printing to out.
func configure(t testing.TB, out *bytes.Buffer, kv map[string]string) *DB {
	t.Helper()
	var s props.Set
	s.Add(props.FromMap(kv, "test")...)
	drv := Driver{}
	if out != nil {
		drv = New(out)
	}
	db, err := drv.Configure(props.NewDecoder(&s), driverstest.Schema())
	if err != nil {
		t.Fatalf("Configure(%v): %v", kv, err)
	}
	return db.(*DB)
}

func TestConformance(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB { return configure(t, nil, nil) }, driverstest.NoData())
}

func TestConformanceVerboseCounting(t *testing.T) {
	var out bytes.Buffer
	driverstest.Run(t, func(t *testing.T) drivers.DB {
		return configure(t, &out, map[string]string{KeyVerbose: "true", KeyCount: "true"})
	}, driverstest.NoData(), driverstest.Workers(4))
	if !strings.Contains(out.String(), "[INSERTS], Uniques, ") {
		t.Errorf("no count summary in the output:\n%s", out.String())
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"basic", "site.ycsb.BasicDB", "com.yahoo.ycsb.BasicDB"} {
		d, err := drivers.Lookup(name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
			continue
		}
		if _, ok := d.(drivers.Printer); !ok {
			t.Errorf("Lookup(%q) = %T, not a drivers.Printer", name, d)
		}
	}
}

// TestVerboseFormat pins Java BasicDB's line formats.
func TestVerboseFormat(t *testing.T) {
	ctx := context.Background()
	vals := drivers.NewRecord(driverstest.NumFields)
	vals.Set(3, []byte("abc"))
	vals.Set(1, []byte(""))
	cases := []struct {
		name string
		op   func(c drivers.Conn) error
		want string
	}{
		{"read all", func(c drivers.Conn) error {
			return c.Read(ctx, "usertable", []byte("user6284781860667377211"), nil, drivers.NewRecord(1))
		}, "READ usertable user6284781860667377211 [ <all fields>]\n"},
		{"read some", func(c drivers.Conn) error {
			return c.Read(ctx, "t", []byte("k"), drivers.FieldSet{2, 0}, drivers.NewRecord(1))
		}, "READ t k [ field2 field0 ]\n"},
		{"scan", func(c drivers.Conn) error {
			return c.Scan(ctx, "t", []byte("user1"), 10, drivers.FieldSet{4}, nil)
		}, "SCAN t user1 10 [ field4 ]\n"},
		{"scan all", func(c drivers.Conn) error {
			return c.Scan(ctx, "t", []byte("user1"), 7, nil, nil)
		}, "SCAN t user1 7 [ <all fields>]\n"},
		{"update", func(c drivers.Conn) error { return c.Update(ctx, "t", []byte("k"), vals) },
			"UPDATE t k [ field1= field3=abc ]\n"},
		{"insert", func(c drivers.Conn) error { return c.Insert(ctx, "t", []byte("k"), vals) },
			"INSERT t k [ field1= field3=abc ]\n"},
		{"delete", func(c drivers.Conn) error { return c.Delete(ctx, "t", []byte("k")) }, "DELETE t k\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			db := configure(t, &out, map[string]string{KeyVerbose: "true"})
			c, _ := db.Open(ctx)
			out.Reset() // drop the properties block
			if err := tc.op(c); err != nil {
				t.Fatalf("op: %v", err)
			}
			if out.String() != tc.want {
				t.Errorf("printed %q, want %q", out.String(), tc.want)
			}
		})
	}
}

func TestVerbosePropertiesOnce(t *testing.T) {
	var out bytes.Buffer
	db := configure(t, &out, map[string]string{KeyVerbose: "true", "recordcount": "5"})
	for range 3 {
		if _, err := db.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	want := "***************** properties *****************\n" +
		"\"basicdb.verbose\"=\"true\"\n\"recordcount\"=\"5\"\n" +
		"**********************************************\n"
	if out.String() != want {
		t.Errorf("after 3 Opens printed\n%s\nwant\n%s", out.String(), want)
	}
}

func TestQuietByDefault(t *testing.T) {
	var out bytes.Buffer
	db := configure(t, &out, nil)
	c, _ := db.Open(context.Background())
	_ = c.Read(context.Background(), "t", []byte("k"), nil, drivers.NewRecord(1))
	_ = db.Close()
	if out.Len() != 0 {
		t.Errorf("printed %q with default properties, want nothing", out.String())
	}
}

func TestCount(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	db := configure(t, &out, map[string]string{KeyCount: "true"})
	c, _ := db.Open(ctx)
	r := drivers.NewRecord(1)
	for _, k := range []string{"a", "b", "a", "c", "a"} {
		_ = c.Read(ctx, "t", []byte(k), nil, r)
	}
	// Field order does not matter, as Java sorts the names.
	_ = c.Read(ctx, "t", []byte("a"), drivers.FieldSet{1, 2}, r)
	_ = c.Read(ctx, "t", []byte("a"), drivers.FieldSet{2, 1}, r)
	_ = c.Scan(ctx, "t", []byte("a"), 3, nil, nil)
	_ = c.Delete(ctx, "t", []byte("a"))
	_ = c.Delete(ctx, "t", []byte("a"))
	r.Set(0, []byte("x"))
	_ = c.Insert(ctx, "t", []byte("a"), r)
	r.Set(0, []byte("y"))
	_ = c.Insert(ctx, "t", []byte("a"), r)
	_ = c.Update(ctx, "t", []byte("a"), r)
	reads, scans, updates, inserts, deletes := db.Counts()
	if reads != 4 || scans != 1 || updates != 1 || inserts != 2 || deletes != 1 {
		t.Errorf("Counts() = %d %d %d %d %d, want 4 1 1 2 1", reads, scans, updates, inserts, deletes)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	want := "[READS], Uniques, 4\n[SCANS], Uniques, 1\n[UPDATES], Uniques, 1\n[INSERTS], Uniques, 2\n[DELETES], Uniques, 1\n"
	if out.String() != want {
		t.Errorf("Close printed %q, want %q", out.String(), want)
	}
}

func TestBadProperties(t *testing.T) {
	for _, kv := range []map[string]string{
		{KeyVerbose: "yes"},
		{KeySimulateDelay: "-3"},
		{KeySimulateDelay: "soon"},
		{KeyRandomizeDelay: "1"},
		{KeyCount: "maybe"},
	} {
		var s props.Set
		s.Add(props.FromMap(kv, "test")...)
		_, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
		for k := range kv {
			if err == nil || !strings.Contains(err.Error(), k) {
				t.Errorf("Configure(%v) = %v, want an error naming %s", kv, err, k)
			}
		}
	}
}

// TestDelayFixed checks that a fixed delay lasts at least its length.
func TestDelayFixed(t *testing.T) {
	db := configure(t, nil, map[string]string{KeySimulateDelay: "20", KeyRandomizeDelay: "false"})
	c, _ := db.Open(context.Background())
	start := time.Now()
	if err := c.Delete(context.Background(), "t", []byte("k")); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Errorf("Delete with simulatedelay=20 took %v, want >= 20ms", el)
	}
}

// TestDelayRandom checks the randomized draw: whole milliseconds in [0, 10)
// with mean 4.5 ms (tolerance 0.5 ms over 4000 draws; the standard error is
// about 0.05 ms).
func TestDelayRandom(t *testing.T) {
	db := configure(t, nil, map[string]string{KeySimulateDelay: "10"})
	c, _ := db.Open(context.Background())
	cc := c.(*conn)
	var sum time.Duration
	seen := map[time.Duration]bool{}
	const n = 4000
	for range n {
		d := cc.draw()
		if d < 0 || d >= 10*time.Millisecond || d%time.Millisecond != 0 {
			t.Fatalf("draw() = %v, want a whole number of ms in [0, 10ms)", d)
		}
		seen[d] = true
		sum += d
	}
	if mean := sum / n; mean < 4*time.Millisecond || mean > 5*time.Millisecond {
		t.Errorf("mean draw = %v, want 4.5ms ± 0.5ms", mean)
	}
	if len(seen) != 10 {
		t.Errorf("draws took %d distinct values, want all 10", len(seen))
	}
}

// TestDelayCancel checks that cancellation ends a simulated delay.
func TestDelayCancel(t *testing.T) {
	db := configure(t, nil, map[string]string{KeySimulateDelay: "1h", KeyRandomizeDelay: "false"})
	c, _ := db.Open(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	err := c.Read(ctx, "t", []byte("k"), nil, drivers.NewRecord(1))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Read during a 1h delay, cancelled: %v, want context.Canceled", err)
	}
}

// TestAllocs pins the allocation budget: none per operation, quiet or
// verbose (once the line buffer has grown).
func TestAllocs(t *testing.T) {
	ctx := context.Background()
	vals := drivers.NewRecord(driverstest.NumFields)
	vals.Set(0, []byte("value"))
	dst := drivers.NewRecord(driverstest.NumFields)
	key := []byte("user12345")
	one := drivers.FieldSet{1}
	for _, kv := range []map[string]string{nil, {KeyVerbose: "true"}} {
		var out bytes.Buffer
		db := configure(t, &out, kv)
		c, _ := db.Open(ctx)
		ops := map[string]func(){
			"Read":   func() { _ = c.Read(ctx, "usertable", key, nil, dst) },
			"Scan":   func() { _ = c.Scan(ctx, "usertable", key, 10, one, nil) },
			"Update": func() { _ = c.Update(ctx, "usertable", key, vals) },
			"Insert": func() { _ = c.Insert(ctx, "usertable", key, vals) },
			"Delete": func() { _ = c.Delete(ctx, "usertable", key) },
		}
		for name, op := range ops {
			out.Grow(1 << 20)
			if n := testing.AllocsPerRun(100, op); n != 0 {
				t.Errorf("%s with %v: %v allocs per op, want 0", name, kv, n)
			}
		}
	}
}

func BenchmarkDriver(b *testing.B) {
	driverstest.Bench(b, func(b *testing.B) drivers.DB { return configure(b, nil, nil) }, driverstest.NoData())
}

// A Conn declares that it ignores value bytes only when it neither prints
// nor counts them.
func TestIgnoresValueBytes(t *testing.T) {
	for _, tc := range []struct {
		out  bool
		kv   map[string]string
		want bool
	}{
		{false, nil, true},
		{true, nil, true},
		{true, map[string]string{KeyVerbose: "true"}, false},
		{false, map[string]string{KeyVerbose: "true"}, true}, // no writer: prints nothing
		{false, map[string]string{KeyCount: "true"}, false},
	} {
		var out *bytes.Buffer
		if tc.out {
			out = new(bytes.Buffer)
		}
		db := configure(t, out, tc.kv)
		c, err := db.Open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ig, ok := c.(drivers.ValueBytesIgnorer)
		if !ok {
			t.Fatalf("%T is not a drivers.ValueBytesIgnorer", c)
		}
		if got := ig.IgnoresValueBytes(); got != tc.want {
			t.Errorf("writer %v, %v: IgnoresValueBytes() = %v, want %v", tc.out, tc.kv, got, tc.want)
		}
		_ = c.Close(context.Background())
		_ = db.Close()
	}
}
