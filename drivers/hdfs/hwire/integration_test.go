//go:build integration

package hwire

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"testing"
	"time"
)

// These tests need the real HDFS on 127.0.0.1:9000 (testenv/up.sh hdfs);
// GOBENCH_HDFS_NAMENODE overrides the address.

var dials int // DataNode connections dialled

func dialNN(t testing.TB) (*NameNode, *Peers) {
	t.Helper()
	addr := os.Getenv("GOBENCH_HDFS_NAMENODE")
	if addr == "" {
		addr = "127.0.0.1:9000"
	}
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("namenode %s: %v (start it with testenv/up.sh hdfs)", addr, err)
	}
	nn, err := NewNameNode(c, "gobench")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nn.Close() })
	p := &Peers{Dial: func(a string) (net.Conn, error) { dials++; return net.DialTimeout("tcp", a, 5*time.Second) }}
	t.Cleanup(p.Close)
	return nn, p
}

func TestIntegrationWriteRead(t *testing.T) {
	nn, peers := dialNN(t)
	d, err := nn.ServerDefaults()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("defaults %+v", d)
	dir := "/tmp/gobench-hwire-test"
	name := dir + "/f"
	// 3 blocks of 1 MiB and a bit, odd sizes to cross packet and chunk edges.
	data := make([]byte, 3<<20+12345)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rnd.Uint32())
	}
	w, err := Create(nn, peers, name, CreateOptions{Perm: 0o644, Overwrite: true, CreateParent: true, Replication: 1, BlockSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for b := data; len(b) > 0; {
		k := min(len(b), 100001)
		if _, err := w.Write(b[:k]); err != nil {
			t.Fatal(err)
		}
		b = b[k:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(nn, peers, name)
	if err != nil {
		t.Fatal(err)
	}
	if r.Size() != int64(len(data)) || len(r.Blocks.Blocks) != 4 {
		t.Fatalf("size %d blocks %d, want %d and 4", r.Size(), len(r.Blocks.Blocks), len(data))
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("sequential read: %d bytes, err %v, equal %v", len(got), err, bytes.Equal(got, data))
	}
	before := dials
	for i := 0; i < 50; i++ {
		off := rnd.IntN(len(data))
		n := rnd.IntN(300000)
		buf := make([]byte, n)
		k, err := r.ReadAt(buf, int64(off))
		want := data[off:min(off+n, len(data))]
		if k != len(want) || !bytes.Equal(buf[:k], want) || (err != nil && !(errors.Is(err, io.EOF) && k < n)) {
			t.Fatalf("ReadAt(%d, %d) = %d, %v", n, off, k, err)
		}
	}
	// Positional reads reuse the DataNode connection (a dial per read is
	// what colinmarc/hdfs does).
	if d := dials - before; d > 2 {
		t.Errorf("50 positional reads dialled %d DataNode connections, want at most 2", d)
	}
	if err := nn.Rename2(name, dir+"/g", true); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(nn, peers, name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("open after rename: %v", err)
	}
	if err := nn.Delete(dir+"/g", false); err != nil {
		t.Fatal(err)
	}
	if err := nn.Delete(dir+"/g", false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := Create(nn, peers, dir, CreateOptions{Perm: 0o644, Replication: 1, BlockSize: 1 << 20}); err == nil {
		t.Fatal("create over a directory succeeded")
	}
	if err := nn.Delete(dir, true); err != nil {
		t.Fatal(err)
	}
}
