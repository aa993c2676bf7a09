package drivers

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestLocalDirKeepsNamesBelowRoot(t *testing.T) {
	root := t.TempDir()
	d := NewLocalDir(root)
	for name, want := range map[string]string{
		"/a/b":      filepath.Join(root, "a", "b"),
		"a/b":       filepath.Join(root, "a", "b"),
		"/../../x":  filepath.Join(root, "x"),
		"/a/../../": root,
	} {
		if got := d.Path(name); got != want {
			t.Errorf("Path(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLocalDirSizeTruncateRemove(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	d := NewLocalDir(root)
	if err := os.MkdirAll(filepath.Join(root, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "b", "f"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Size(ctx, "/b/f"); n != 10 || err != nil {
		t.Fatalf("Size = %d, %v; want 10, nil", n, err)
	}
	if done, err := d.Truncate(ctx, "/b/f", 3); !done || err != nil {
		t.Fatalf("Truncate = %v, %v; want true, nil", done, err)
	}
	if n, _ := d.Size(ctx, "/b/f"); n != 3 {
		t.Fatalf("Size after Truncate = %d, want 3", n)
	}
	if err := d.RemoveAll(ctx, "/b"); err != nil {
		t.Fatal(err)
	}
	if err := d.RemoveAll(ctx, "/b"); err != nil {
		t.Fatalf("RemoveAll of a missing name: %v", err)
	}
	_, err := d.Size(ctx, "/b/f")
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) || Classify(err) != NotFound {
		t.Fatalf("Size of a removed file: %v (%v); want ErrNotFound and fs.ErrNotExist", err, Classify(err))
	}
	if _, err := d.Truncate(ctx, "/b/f", 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Truncate of a removed file: %v; want ErrNotFound", err)
	}
}
