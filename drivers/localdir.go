package drivers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// LocalDir is a local directory tree named with a [FileSystem]'s absolute
// slash paths: what the drivers of local disks (localfs, diskfile) share.
// Embedded in a Conn, it gives Size, Truncate (always done at once) and
// RemoveAll; the Conn opens its streams itself, with its own flags, at
// [LocalDir.Path]. A zero LocalDir is the working directory.
type LocalDir struct{ root string }

// NewLocalDir serves the directory root, made absolute (it need not exist
// yet).
func NewLocalDir(root string) LocalDir {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return LocalDir{root: root}
}

// Root returns the local directory that name "/" maps to.
func (d LocalDir) Root() string { return d.root }

// Path returns the local path of name, cleaned as an absolute slash path
// so that it stays below the root ("/../x" is root/x).
func (d LocalDir) Path(name string) string {
	return filepath.Join(d.root, filepath.FromSlash(path.Clean("/"+name)))
}

// LocalError puts op and name in front of err, and marks a missing file
// (fs.ErrNotExist) as [ErrNotFound] as well.
func LocalError(op, name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %s: %w: %w", op, name, ErrNotFound, err)
	}
	return fmt.Errorf("%s %s: %w", op, name, err)
}

// Size implements [FileSystem].
func (d LocalDir) Size(_ context.Context, name string) (int64, error) {
	st, err := os.Stat(d.Path(name))
	if err != nil {
		return 0, LocalError("stat", name, err)
	}
	return st.Size(), nil
}

// Truncate implements [FileSystem]; it is always done at once.
func (d LocalDir) Truncate(_ context.Context, name string, size int64) (bool, error) {
	if err := os.Truncate(d.Path(name), size); err != nil {
		return false, LocalError("truncate", name, err)
	}
	return true, nil
}

// RemoveAll implements [FileSystem].
func (d LocalDir) RemoveAll(_ context.Context, name string) error {
	if err := os.RemoveAll(d.Path(name)); err != nil {
		return LocalError("remove", name, err)
	}
	return nil
}
