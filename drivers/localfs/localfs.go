package localfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("localfs", Driver{}) }

// Property keys.
const (
	KeyRoot = "localfs.root" // the directory that name "/" maps to
	KeySync = "localfs.sync" // fsync each written file before its close returns
)

// Driver is the localfs driver (db=localfs; `gobench dfsio -fs file:///dir`
// selects it).
type Driver struct{}

// Keys implements [drivers.Driver].
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyRoot, Default: ".", Usage: "the local directory that the file system's \"/\" maps to", Show: true},
		{Name: KeySync, Default: "false", Usage: "fsync each written file before its close returns (dd conv=fsync)"},
	}
}

// Configure implements [drivers.Driver]: it does no I/O (the root need not
// exist yet).
func (Driver) Configure(d *props.Decoder, _ drivers.Schema) (drivers.DB, error) {
	db := New(d.String(KeyRoot, "."))
	db.Sync = d.Bool(KeySync, false)
	return db, nil
}

// Caps implements [drivers.Capable]: Conns are file systems (dfsio).
func (Driver) Caps() drivers.Caps { return drivers.CapFiles }

// Caps implements [drivers.Capable].
func (*DB) Caps() drivers.Caps { return drivers.CapFiles }

// DB is a local directory tree. It is safe for concurrent use; its Conns are
// not shared.
type DB struct {
	dir drivers.LocalDir
	// Sync makes Close of a written file call fsync first, so that a write
	// test measures the disk rather than the page cache. Set it before Open.
	Sync bool
}

// New serves the directory root (made absolute; it need not exist yet).
func New(root string) *DB { return &DB{dir: drivers.NewLocalDir(root)} }

// Root returns the local directory that name "/" maps to.
func (db *DB) Root() string { return db.dir.Root() }

// Open returns a connection; it does no I/O.
func (db *DB) Open(ctx context.Context) (drivers.Conn, error) {
	return &Conn{LocalDir: db.dir, db: db}, nil
}

// Close does nothing: a DB holds no resources.
func (db *DB) Close() error { return nil }

// Conn is one worker's handle. It implements [drivers.FileSystem] (Size,
// Truncate and RemoveAll are its [drivers.LocalDir]'s); the YCSB operations
// return errors.ErrUnsupported.
type Conn struct {
	drivers.NoRecords // no record operations (NOT_IMPLEMENTED)
	drivers.LocalDir  // names, Size, Truncate, RemoveAll
	db                *DB
}

var (
	_ drivers.Conn       = (*Conn)(nil)
	_ drivers.FileSystem = (*Conn)(nil)
)

// Create implements [drivers.FileSystem].
func (c *Conn) Create(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	return c.openWrite(ctx, "create", name, os.O_CREATE|os.O_TRUNC|os.O_WRONLY)
}

// Append implements [drivers.FileSystem].
func (c *Conn) Append(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	if _, err := os.Stat(c.Path(name)); err != nil {
		return nil, drivers.LocalError("append", name, err)
	}
	return c.openWrite(ctx, "append", name, os.O_APPEND|os.O_WRONLY)
}

func (c *Conn) openWrite(ctx context.Context, op, name string, flag int) (io.WriteCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", op, name, err)
	}
	p := c.Path(name)
	if flag&os.O_CREATE != 0 {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, drivers.LocalError(op, name, err)
		}
	}
	f, err := os.OpenFile(p, flag, 0o644)
	if err != nil {
		return nil, drivers.LocalError(op, name, err)
	}
	return &writer{f: f, ctx: ctx, sync: c.db.Sync}, nil
}

type writer struct {
	f    *os.File
	ctx  context.Context
	sync bool
}

func (w *writer) Write(b []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	return w.f.Write(b)
}

func (w *writer) Close() error {
	var serr error
	if w.sync {
		serr = w.f.Sync()
	}
	return errors.Join(serr, w.f.Close())
}

// Open implements [drivers.FileSystem].
func (c *Conn) Open(ctx context.Context, name string) (drivers.FileReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	f, err := os.Open(c.Path(name))
	if err != nil {
		return nil, drivers.LocalError("open", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, drivers.LocalError("open", name, err)
	}
	return &reader{f: f, ctx: ctx, size: st.Size()}, nil
}

type reader struct {
	f    *os.File
	ctx  context.Context
	size int64
}

func (r *reader) Read(b []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.f.Read(b)
}

func (r *reader) ReadAt(b []byte, off int64) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.f.ReadAt(b, off)
}

func (r *reader) Close() error { return r.f.Close() }
func (r *reader) Size() int64  { return r.size }

// Close does nothing.
func (c *Conn) Close(context.Context) error { return nil }
