package hdfs

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func TestNameEscaping(t *testing.T) {
	for _, c := range []struct{ key, name string }{
		{"user123", "user123"}, {"a/b", "a%2Fb"}, {".", "%2E"}, {"a b%", "a%20b%25"}, {"\x00\xff", "%00%FF"}, {"", ""},
	} {
		got := string(appendName(nil, []byte(c.key)))
		if got != c.name {
			t.Errorf("appendName(%q) = %q, want %q", c.key, got, c.name)
		}
		back, ok := unescape(nil, got)
		if !ok || string(back) != c.key {
			t.Errorf("unescape(%q) = %q, %v; want %q", got, back, ok, c.key)
		}
	}
	for _, tmp := range []string{".tmp-x-1", "a%4", "a%zz"} {
		if _, ok := unescape(nil, tmp); ok {
			t.Errorf("unescape(%q) accepted a name that is not a record", tmp)
		}
	}
}

func TestRecordCodec(t *testing.T) {
	r := drivers.NewRecord(4)
	r.Set(0, []byte("zero"))
	r.Set(2, []byte{})
	r.Set(3, bytes.Repeat([]byte{0xff}, 300))
	b := encode(nil, r)
	got := drivers.NewRecord(4)
	if err := decode(b, nil, got); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		w, wok := r.Get(i)
		g, gok := got.Get(i)
		if wok != gok || !bytes.Equal(w, g) {
			t.Errorf("field %d: got %q,%v want %q,%v", i, g, gok, w, wok)
		}
	}
	got.Reset()
	if err := decode(b, drivers.FieldSet{3}, got); err != nil || got.Count() != 1 || !got.Has(3) {
		t.Errorf("decode of field 3 only: %v, %d fields", err, got.Count())
	}
	if err := decode(b[:len(b)-1], nil, got); err == nil {
		t.Error("a truncated record must be reported corrupt")
	}
	if a := testing.AllocsPerRun(100, func() { b = encode(b[:0], r) }); a != 0 {
		t.Errorf("encode allocates %v times", a)
	}
}

func TestConfigure(t *testing.T) {
	var s props.Set
	for k, v := range map[string]string{KeyNamenode: "hdfs://nn1:8020, nn2:8020", KeyReplication: "3", KeyBlockSize: "64MB", KeyTimeout: "5", KeyUser: "alice"} {
		s.Add(props.Value{Key: k, Value: v, Source: "test"})
	}
	db, err := Driver{}.Configure(props.NewDecoder(&s), drivers.Schema{Table: "t", Fields: []string{"f0"}})
	if err != nil {
		t.Fatal(err)
	}
	c := db.(*DB).Config()
	if strings.Join(c.Namenodes, ",") != "nn1:8020,nn2:8020" || c.Replication != 3 || c.BlockSize != 64<<20 || c.Timeout != 5*time.Second || c.User != "alice" {
		t.Errorf("config %+v", c)
	}
	var bad props.Set
	bad.Add(props.Value{Key: KeyNamenode, Value: "nohost", Source: "f", Line: 3})
	bad.Add(props.Value{Key: KeyReplication, Value: "-1", Source: "f", Line: 4})
	_, err = Driver{}.Configure(props.NewDecoder(&bad), drivers.Schema{})
	if err == nil || !strings.Contains(err.Error(), KeyNamenode) || !strings.Contains(err.Error(), KeyReplication) {
		t.Errorf("errors %v should name both keys", err)
	}
}

func TestNameAndDecodeAllocs(t *testing.T) {
	r := drivers.NewRecord(10)
	for i := 0; i < 10; i++ {
		r.Set(i, bytes.Repeat([]byte{'x'}, 100))
	}
	b := encode(nil, r)
	dst := drivers.NewRecord(10)
	decode(b, nil, dst)
	var name []byte
	if a := testing.AllocsPerRun(100, func() {
		dst.Reset()
		decode(b, nil, dst)
		name = appendName(name[:0], []byte("user6284781860667377211"))
	}); a != 0 {
		t.Errorf("decode + name: %v allocs per op, want 0", a)
	}
}

func BenchmarkRecordCodec(b *testing.B) {
	r := drivers.NewRecord(10)
	for i := 0; i < 10; i++ {
		r.Set(i, bytes.Repeat([]byte{'x'}, 100))
	}
	dst := drivers.NewRecord(10)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = encode(buf[:0], r)
		dst.Reset()
		decode(buf, nil, dst)
	}
}
