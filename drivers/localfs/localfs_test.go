package localfs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench/gobench/drivers"
)

func fsOf(t *testing.T) (drivers.FileSystem, string) {
	t.Helper()
	dir := t.TempDir()
	c, err := New(dir).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c.(drivers.FileSystem), dir
}

func TestCreateAppendReadTruncateRemove(t *testing.T) {
	ctx := context.Background()
	fs, dir := fsOf(t)
	w, err := fs.Create(ctx, "/b/io_data/f0", 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "io_data", "f0")); err != nil {
		t.Fatalf("file not below the root: %v", err)
	}
	a, err := fs.Append(ctx, "/b/io_data/f0", 4)
	if err != nil {
		t.Fatal(err)
	}
	a.Write([]byte("ab"))
	a.Close()
	r, err := fs.Open(ctx, "/b/io_data/f0")
	if err != nil {
		t.Fatal(err)
	}
	if r.Size() != 12 {
		t.Fatalf("Size() = %d, want 12", r.Size())
	}
	all, _ := io.ReadAll(r)
	if !bytes.Equal(all, []byte("0123456789ab")) {
		t.Fatalf("content %q", all)
	}
	buf := make([]byte, 4)
	if n, err := r.ReadAt(buf, 10); n != 2 || err != io.EOF {
		t.Fatalf("ReadAt(10) = %d, %v; want 2, EOF", n, err)
	}
	r.Close()
	if done, err := fs.Truncate(ctx, "/b/io_data/f0", 5); !done || err != nil {
		t.Fatalf("Truncate = %v, %v", done, err)
	}
	if n, _ := fs.Size(ctx, "/b/io_data/f0"); n != 5 {
		t.Fatalf("size after truncate %d, want 5", n)
	}
	// Create replaces.
	w, _ = fs.Create(ctx, "/b/io_data/f0", 4)
	w.Write([]byte("x"))
	w.Close()
	if n, _ := fs.Size(ctx, "/b/io_data/f0"); n != 1 {
		t.Fatalf("size after re-create %d, want 1", n)
	}
	if err := fs.RemoveAll(ctx, "/b"); err != nil {
		t.Fatal(err)
	}
	if err := fs.RemoveAll(ctx, "/b"); err != nil {
		t.Fatalf("RemoveAll of a missing dir: %v", err)
	}
	for _, op := range []func() error{
		func() error { _, err := fs.Open(ctx, "/b/none"); return err },
		func() error { _, err := fs.Append(ctx, "/b/none", 1); return err },
		func() error { _, err := fs.Size(ctx, "/b/none"); return err },
	} {
		if err := op(); !errors.Is(err, drivers.ErrNotFound) {
			t.Errorf("missing file: %v; want ErrNotFound", err)
		}
	}
}

func TestCancelledContextStopsStreams(t *testing.T) {
	fs, _ := fsOf(t)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := fs.Create(ctx, "/f", 1)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := w.Write([]byte("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Write after cancel: %v", err)
	}
	w.Close()
}

func TestYCSBOpsUnsupported(t *testing.T) {
	c, _ := New(t.TempDir()).Open(context.Background())
	if err := c.Insert(context.Background(), "t", []byte("k"), drivers.NewRecord(1)); drivers.Classify(err) != drivers.NotImplemented {
		t.Fatalf("Insert: %v", err)
	}
}

func TestDeclaredCapabilitiesMatchConn(t *testing.T) {
	db := New(t.TempDir())
	c, err := db.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := drivers.CapsOf(db), drivers.ConnCaps(c); got != want || !got.Has(drivers.CapFiles) {
		t.Errorf("declared %v, Conn implements %v; want both file streams", got.Names(), want.Names())
	}
}
