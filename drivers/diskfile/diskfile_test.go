package diskfile

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
)

func fsOf(t *testing.T, m Modes) (drivers.FileSystem, string) {
	t.Helper()
	dir := t.TempDir()
	c, err := New(dir, m).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c.(drivers.FileSystem), dir
}

// Buffers that are not aligned, lengths that are not multiples of the
// alignment, positional reads off the alignment: with O_DIRECT on both
// sides the bytes still arrive intact, through the bounce buffers.
func TestDirectUnalignedBuffersRoundTrip(t *testing.T) {
	ctx := context.Background()
	fs, dir := fsOf(t, Modes{Direct: true, Conv: Fdatasync, DirectRead: true})
	data := make([]byte, 3*4096+1000)
	for i := range data {
		data[i] = byte(rand.Uint32())
	}
	w, err := fs.Create(ctx, "/f", 4096)
	if err != nil {
		t.Fatal(err)
	}
	// An unaligned 8192-byte block (bounced), an aligned one, then the
	// short tail (written without O_DIRECT).
	un := make([]byte, 8192+1)[1:]
	copy(un, data[:8192])
	if _, err := w.Write(un); err != nil {
		t.Fatal(err)
	}
	al := alignedBuf(4096, align{4096, 4096})
	copy(al, data[8192:12288])
	if _, err := w.Write(al); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data[12288:]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); !bytes.Equal(b, data) {
		t.Fatal("file content differs from what was written")
	}
	r, err := fs.Open(ctx, "/f")
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 3000) // not a multiple of any alignment
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("sequential direct read: %d bytes, differs", len(got))
	}
	p := make([]byte, 700)
	if n, err := r.ReadAt(p, 5000); n != 700 || err != nil || !bytes.Equal(p, data[5000:5700]) {
		t.Fatalf("ReadAt(5000) = %d, %v", n, err)
	}
	if n, err := r.ReadAt(p, int64(len(data))-100); n != 100 || err != io.EOF || !bytes.Equal(p[:100], data[len(data)-100:]) {
		t.Fatalf("ReadAt at the end = %d, %v; want 100, EOF", n, err)
	}
	r.Close()
}

func TestDirectRefusesUnalignedBlockSize(t *testing.T) {
	fs, _ := fsOf(t, Modes{Direct: true})
	_, err := fs.Create(context.Background(), "/f", 1000)
	if err == nil || !strings.Contains(err.Error(), "bs=1000") || !strings.Contains(err.Error(), "multiple of") {
		t.Fatalf("Create with bs 1000 and O_DIRECT: %v", err)
	}
}

func TestMissingFileIsNotFound(t *testing.T) {
	fs, _ := fsOf(t, Modes{DirectRead: true})
	if _, err := fs.Open(context.Background(), "/none"); drivers.Classify(err) != drivers.NotFound {
		t.Fatalf("Open of a missing file: %v", err)
	}
}

func TestCancelledContextStopsWrites(t *testing.T) {
	fs, _ := fsOf(t, Modes{})
	ctx, cancel := context.WithCancel(context.Background())
	w, err := fs.Create(ctx, "/f", 1)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := w.Write([]byte("x")); err == nil {
		t.Fatal("Write after cancel succeeded")
	}
	w.Close()
}
