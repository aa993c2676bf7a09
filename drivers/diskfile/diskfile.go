package diskfile

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("diskfile", Driver{}) }

// Property keys.
const (
	KeyRoot  = "diskfile.root"  // the directory that name "/" maps to
	KeyOflag = "diskfile.oflag" // dd's oflag: none, direct, dsync, sync (comma list)
	KeyConv  = "diskfile.conv"  // dd's conv: none, fdatasync, fsync
	KeyIflag = "diskfile.iflag" // dd's iflag: none, direct
)

// Conv is what Close does to a written file before closing it: dd's
// conv=fdatasync or conv=fsync, or nothing.
type Conv uint8

// The flushes at the end of a written file.
const (
	NoConv    Conv = iota // the data may still be in the page cache
	Fdatasync             // conv=fdatasync: the data reaches the device
	Fsync                 // conv=fsync: the data and the metadata
)

func (c Conv) String() string { return [...]string{"none", "fdatasync", "fsync"}[c] }

// Modes are dd's flags for writing and reading.
type Modes struct {
	Direct bool // oflag=direct: O_DIRECT writes
	Dsync  bool // oflag=dsync: O_DSYNC, every write waits for the device
	Sync   bool // oflag=sync: O_SYNC, the same with metadata
	Conv   Conv
	// DirectRead is iflag=direct: O_DIRECT reads.
	DirectRead bool
}

// Oflag returns the output flags as dd spells them ("direct,dsync"; "none").
func (m Modes) Oflag() string {
	var f []string
	if m.Direct {
		f = append(f, "direct")
	}
	if m.Dsync {
		f = append(f, "dsync")
	}
	if m.Sync {
		f = append(f, "sync")
	}
	if len(f) == 0 {
		return "none"
	}
	return strings.Join(f, ",")
}

// Iflag returns the input flags as dd spells them ("direct"; "none").
func (m Modes) Iflag() string {
	if m.DirectRead {
		return "direct"
	}
	return "none"
}

// Driver is the diskfile driver (db=diskfile; gobench disk selects it).
type Driver struct{}

// Keys implements [drivers.Driver].
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyRoot, Default: "/", Usage: "the local directory that the file names' \"/\" maps to", Show: true},
		{Name: KeyOflag, Default: "none", Usage: "dd's oflag for writes: none, direct (O_DIRECT), dsync (O_DSYNC), sync (O_SYNC); a comma list", Show: true},
		{Name: KeyConv, Default: "fdatasync", Usage: "dd's conv at the end of a written file: none, fdatasync, fsync", Show: true},
		{Name: KeyIflag, Default: "direct", Usage: "dd's iflag for reads: direct (O_DIRECT, past the page cache) or none", Show: true},
	}
}

// Decode reads the diskfile keys from d (problems are recorded in d).
func Decode(d *props.Decoder) (root string, m Modes) {
	root = d.String(KeyRoot, "/")
	for _, f := range d.Strings(KeyOflag, []string{"none"}) {
		switch strings.TrimSpace(f) {
		case "none", "":
		case "direct":
			m.Direct = true
		case "dsync":
			m.Dsync = true
		case "sync":
			m.Sync = true
		default:
			v, _ := d.Lookup(KeyOflag)
			d.Fail(&props.Error{Key: KeyOflag, Value: v.Value, Source: v.Source, Line: v.Line,
				Err: fmt.Errorf("unknown flag %q", f), Allowed: "none, direct, dsync, sync (a comma list)",
				Hint: props.Nearest(f, []string{"direct", "dsync", "sync"})})
		}
	}
	switch d.Enum(KeyConv, "fdatasync", "none", "fdatasync", "fsync") {
	case "fdatasync":
		m.Conv = Fdatasync
	case "fsync":
		m.Conv = Fsync
	}
	m.DirectRead = d.Enum(KeyIflag, "direct", "none", "direct") == "direct"
	return root, m
}

// Configure implements [drivers.Driver]; it does no I/O.
func (Driver) Configure(d *props.Decoder, _ drivers.Schema) (drivers.DB, error) {
	root, m := Decode(d)
	if (m.Direct || m.DirectRead) && !directSupported {
		d.Failf(KeyOflag, "direct I/O (O_DIRECT) is not offered on this operating system; use diskfile.conv=fdatasync and diskfile.iflag=none")
	}
	return New(root, m), nil
}

// Caps implements [drivers.Capable]: Conns are file systems.
func (Driver) Caps() drivers.Caps { return drivers.CapFiles }

// Caps implements [drivers.Capable].
func (*DB) Caps() drivers.Caps { return drivers.CapFiles }

// DB is a local directory tree written and read with dd's flags. It is
// safe for concurrent use; its Conns are not shared.
type DB struct {
	dir   drivers.LocalDir
	modes Modes
}

// New serves the directory root (made absolute) with modes m.
func New(root string, m Modes) *DB { return &DB{dir: drivers.NewLocalDir(root), modes: m} }

// Modes returns the flags the DB writes and reads with.
func (db *DB) Modes() Modes { return db.modes }

// Open returns a connection; it does no I/O.
func (db *DB) Open(context.Context) (drivers.Conn, error) {
	return &Conn{LocalDir: db.dir, db: db}, nil
}

// Close does nothing.
func (db *DB) Close() error { return nil }

// Conn is one worker's handle; it implements [drivers.FileSystem] (Size,
// Truncate and RemoveAll are its [drivers.LocalDir]'s).
type Conn struct {
	drivers.NoRecords // no record operations (NOT_IMPLEMENTED)
	drivers.LocalDir  // names, Size, Truncate, RemoveAll
	db                *DB
}

var (
	_ drivers.Conn       = (*Conn)(nil)
	_ drivers.FileSystem = (*Conn)(nil)
)

// Create implements [drivers.FileSystem]: the file is opened with the
// oflag flags; bufferSize is the block size, which O_DIRECT needs to be a
// multiple of the file system's alignment.
func (c *Conn) Create(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	return c.openWrite(ctx, "create", name, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, bufferSize)
}

// Append implements [drivers.FileSystem].
func (c *Conn) Append(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	if _, err := os.Stat(c.Path(name)); err != nil {
		return nil, drivers.LocalError("append", name, err)
	}
	return c.openWrite(ctx, "append", name, os.O_APPEND|os.O_WRONLY, bufferSize)
}

func (c *Conn) openWrite(ctx context.Context, op, name string, flag, bs int) (io.WriteCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", op, name, err)
	}
	m := c.db.modes
	p := c.Path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, drivers.LocalError(op, name, err)
	}
	f, err := os.OpenFile(p, flag|outFlags(m), 0o644)
	if err != nil {
		if m.Direct && isInvalid(err) {
			return nil, fmt.Errorf("%s %s: the file system refuses O_DIRECT (oflag=direct): %w; use conv=fdatasync instead", op, name, err)
		}
		return nil, drivers.LocalError(op, name, err)
	}
	al := alignment(p)
	if m.Direct && bs > 0 && bs%al.offset != 0 {
		f.Close()
		return nil, fmt.Errorf("%s %s: oflag=direct needs a block size that is a multiple of %d bytes here (the file system's direct-I/O alignment); bs=%d is not: choose another bs, or write through the page cache with conv=fdatasync", op, name, al.offset, bs)
	}
	return &writer{f: f, ctx: ctx, conv: m.Conv, direct: m.Direct, al: al}, nil
}

// Open implements [drivers.FileSystem]: with iflag=direct the file is read
// with O_DIRECT.
func (c *Conn) Open(ctx context.Context, name string) (drivers.FileReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	m := c.db.modes
	p := c.Path(name)
	flag := os.O_RDONLY
	if m.DirectRead {
		flag |= oDirect
	}
	f, err := os.OpenFile(p, flag, 0)
	if err != nil {
		if m.DirectRead && isInvalid(err) {
			return nil, fmt.Errorf("open %s: the file system refuses O_DIRECT (iflag=direct): %w; use iflag=none (the page cache may then serve the read)", name, err)
		}
		return nil, drivers.LocalError("open", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, drivers.LocalError("open", name, err)
	}
	return &reader{f: f, ctx: ctx, size: st.Size(), direct: m.DirectRead, al: alignment(p)}, nil
}

// Close does nothing.
func (c *Conn) Close(context.Context) error { return nil }
