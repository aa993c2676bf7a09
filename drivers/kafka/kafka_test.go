package kafka

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func decoder(kv ...string) *props.Decoder {
	var l props.Layers
	for i := 0; i+1 < len(kv); i += 2 {
		l.Add(props.LayerOverride, props.Value{Key: kv[i], Value: kv[i+1], Source: "-p"})
	}
	return props.NewDecoder(l.Set())
}

func TestCodecRoundTrip(t *testing.T) {
	cases := []map[int][]byte{
		{},
		{0: nil},
		{0: []byte("a"), 3: bytes.Repeat([]byte{0, 0xff}, 300)},
		{1: {}, 2: []byte("x")},
	}
	for _, c := range cases {
		r := drivers.NewRecord(4)
		for i, v := range c {
			r.Set(i, v)
		}
		enc := appendRecord(nil, r)
		got := drivers.NewRecord(4)
		got.Set(1, []byte("stale"))
		if err := decodeRecord(enc, nil, got); err != nil {
			t.Fatalf("decode %v: %v", c, err)
		}
		if got.Count() != len(c) {
			t.Errorf("fields %v: decoded %d fields, want %d", c, got.Count(), len(c))
		}
		for i, v := range c {
			if g, ok := got.Get(i); !ok || !bytes.Equal(g, v) {
				t.Errorf("fields %v: field %d = %q (present %v), want %q", c, i, g, ok, v)
			}
		}
		sub := drivers.NewRecord(4)
		if err := decodeRecord(enc, drivers.FieldSet{3}, sub); err != nil || sub.Count() > 1 || sub.Has(0) {
			t.Errorf("fields %v: decode of field 3 only gave %d fields, err %v", c, sub.Count(), err)
		}
	}
}

func TestDecodeRejectsCorruptValues(t *testing.T) {
	for _, b := range [][]byte{nil, {0}, {2}, {1, 0}, {1, 0, 5, 'a'}, {1, 0x80}} {
		if err := decodeRecord(b, nil, drivers.NewRecord(2)); err == nil {
			t.Errorf("decode %v: no error", b)
		}
	}
}

func TestConfigureErrorsNameTheKey(t *testing.T) {
	cases := []struct{ key, val string }{
		{KeyAcks, "2"}, {KeyCompression, "brotli"}, {KeyPartitions, "0"}, {KeyLinger, "-1"},
		{KeyMaxMessageBytes, "10"}, {KeyBrokers, " , "}, {KeyOffsetReset, "middle"},
	}
	for _, c := range cases {
		_, err := Driver{}.Configure(decoder(c.key, c.val), drivers.Schema{})
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s=%s: error %v, want one naming %s", c.key, c.val, err, c.key)
		}
	}
	db, err := Driver{}.Configure(decoder(KeyBrokers, "a:1, b:2", KeyAcks, "1", KeyLinger, "0"), drivers.Schema{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := db.(*DB).Config()
	if fmt.Sprint(cfg.Brokers) != "[a:1 b:2]" || cfg.Acks != 1 || cfg.Linger != 0 || cfg.Idempotence {
		t.Errorf("config = %+v", cfg)
	}
}

func TestPartitionSpreadsKeys(t *testing.T) {
	seen := map[int]int{}
	for i := range 1000 {
		p := partition([]byte(fmt.Sprintf("user%d", i)), 4)
		if p < 0 || p >= 4 {
			t.Fatalf("partition out of range: %d", p)
		}
		seen[p]++
	}
	for p := range 4 {
		if seen[p] < 150 {
			t.Errorf("partition %d got %d of 1000 keys, want at least 150", p, seen[p])
		}
	}
	if n := testing.AllocsPerRun(100, func() { partition([]byte("user1"), 8) }); n != 0 {
		t.Errorf("partition allocates %v times", n)
	}
}

func TestIndexOrderAndTombstones(t *testing.T) {
	x := newIndex(1, false)
	for i, k := range []string{"user9", "user10", "user1", "user2"} {
		x.acked([]byte(k), loc{offset: int64(i)}, nil)
	}
	x.acked([]byte("user10"), tombstone(0, 7), nil)
	x.acked([]byte("user9"), loc{offset: 1}, nil) // older ack arriving late: ignored
	keys, _ := x.from([]byte("user"), 10, nil, nil)
	if got := strings.Join(keys, " "); got != "user1 user2 user9" {
		t.Errorf("keys = %s, want user1 user2 user9", got)
	}
	if _, ok := x.get([]byte("user10")); ok {
		t.Error("tombstoned user10 still readable")
	}
	if n := x.liveKeys(); n != 3 {
		t.Errorf("live keys = %d, want 3", n)
	}
	x.acked([]byte("user10"), loc{offset: 8}, nil)
	if l, ok := x.get([]byte("user10")); !ok || l.offset != 8 {
		t.Errorf("user10 after re-insert = %+v %v, want offset 8", l, ok)
	}
	keys, _ = x.from([]byte("user10"), 2, nil, nil)
	if got := strings.Join(keys, " "); got != "user10 user2" {
		t.Errorf("keys from user10 = %s, want user10 user2", got)
	}
}

// TestIndexCovered checks the offset below which the index holds every
// record: acknowledgements advance it only over contiguous offsets, and a
// waiter is woken when it moves.
func TestIndexCovered(t *testing.T) {
	x := newIndex(2, false)
	x.acked([]byte("a"), loc{part: 1, offset: 0}, nil)
	x.acked([]byte("c"), loc{part: 1, offset: 2}, nil) // offset 1 is another client's
	if n := x.covered(1); n != 1 {
		t.Fatalf("covered(1) = %d after offsets 0 and 2, want 1", n)
	}
	_, wake := x.coveredWait(1)
	x.mu.Lock()
	x.setLocked([]byte("b"), loc{part: 1, offset: 1}, nil) // the tail brings offset 1
	x.appliedLocked(1, 1, 2)
	x.mu.Unlock()
	select {
	case <-wake:
	default:
		t.Error("waiter not woken when the covered offset advanced")
	}
	if n := x.covered(1); n != 3 {
		t.Errorf("covered(1) = %d after offsets 0-2, want 3", n)
	}
	if n := x.covered(0); n != 0 {
		t.Errorf("covered(0) = %d, want 0", n)
	}
}

func TestIndexGetDoesNotAllocate(t *testing.T) {
	x := newIndex(1, false)
	for i := range 1000 {
		x.acked([]byte(fmt.Sprintf("user%d", i)), loc{offset: int64(i)}, nil)
	}
	key := []byte("user500")
	keys, locs := make([]string, 0, 100), make([]loc, 0, 100)
	if n := testing.AllocsPerRun(100, func() {
		x.get(key)
		keys, locs = x.from(key, 100, keys[:0], locs[:0])
	}); n != 0 {
		t.Errorf("get + from allocate %v times", n)
	}
	x.acked(key, loc{offset: 5000}, nil)
	if n := testing.AllocsPerRun(100, func() { x.acked(key, loc{offset: 5001}, nil) }); n != 0 {
		t.Errorf("acked of a known key allocates %v times", n)
	}
}

// BenchmarkIndexScan measures taking 50 keys in order from an index of 1M
// keys while other goroutines insert (workload E's pattern); it must not
// grow with the index (the old sorted slice re-merged all keys).
func BenchmarkIndexScan(b *testing.B) {
	x := newIndex(1, false)
	for i := range 1000000 {
		x.acked([]byte(fmt.Sprintf("user%019d", uint64(i)*2654435761%1000000007)), loc{offset: int64(i)}, nil)
	}
	keys, locs := make([]string, 0, 50), make([]loc, 0, 50)
	start := []byte("user0000000005")
	next := int64(1000000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%19 == 0 {
			next++
			x.acked([]byte(fmt.Sprintf("user%019d", next*7919)), loc{offset: next}, nil)
		}
		keys, locs = x.from(start, 50, keys[:0], locs[:0])
	}
}

func TestEncodeDoesNotAllocate(t *testing.T) {
	r := drivers.NewRecord(10)
	for i := range 10 {
		r.Set(i, bytes.Repeat([]byte{'x'}, 100))
	}
	buf := make([]byte, 0, 2048)
	dst := drivers.NewRecord(10)
	enc := appendRecord(buf, r)
	decodeRecord(enc, nil, dst)
	n := testing.AllocsPerRun(100, func() {
		enc = appendRecord(buf[:0], r)
		_ = decodeRecord(enc, nil, dst)
	})
	if n != 0 {
		t.Errorf("encode+decode allocate %v times per record", n)
	}
}
