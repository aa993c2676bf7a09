package hdfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	hdfsc "github.com/colinmarc/hdfs/v2"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hdfs/hwire"
)

// Create implements [drivers.FileSystem]: Hadoop's create with overwrite,
// one create call (gobench's own writer, with pipeline recovery).
func (c *Conn) Create(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	defer c.end()
	if c.nn == nil {
		f, err := c.kcreate(name, true)
		if err != nil {
			return nil, ctxErr(ctx, notFound("create", name, err))
		}
		return &writer{stream: c.stream(ctx, f), f: f}, nil
	}
	w, err := c.create(ctx, name, true)
	if err != nil {
		return nil, ctxErr(ctx, notFound("create", name, err))
	}
	return &writer{stream: c.stream(ctx, nil), w: w}, nil
}

// Append implements [drivers.FileSystem] (the colinmarc client's append).
func (c *Conn) Append(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	cl, err := c.beginClient(ctx)
	if err != nil {
		return nil, err
	}
	defer c.end()
	w, err := cl.Append(name)
	if err != nil {
		return nil, ctxErr(ctx, notFound("append", name, err))
	}
	return &writer{stream: c.stream(ctx, w), f: w}, nil
}

// Open implements [drivers.FileSystem]: one getBlockLocations call;
// positional reads ask the DataNode for exactly the bytes wanted, over a
// connection kept from the last read.
func (c *Conn) Open(ctx context.Context, name string) (drivers.FileReader, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	defer c.end()
	if c.nn == nil {
		f, err := c.cl.Open(name)
		if err != nil {
			return nil, ctxErr(ctx, notFound("open", name, err))
		}
		return &reader{stream: c.stream(ctx, f), f: f}, nil
	}
	r, err := hwire.Open(c.nn, c.peers, name)
	if err != nil {
		return nil, ctxErr(ctx, notFound("open", name, err))
	}
	return &reader{stream: c.stream(ctx, nil), r: r}, nil
}

// Size implements [drivers.FileSystem].
func (c *Conn) Size(ctx context.Context, name string) (int64, error) {
	cl, err := c.beginClient(ctx)
	if err != nil {
		return 0, err
	}
	defer c.end()
	st, err := cl.Stat(name)
	if err != nil {
		return 0, ctxErr(ctx, notFound("stat", name, err))
	}
	return st.Size(), nil
}

// Truncate implements [drivers.FileSystem].
func (c *Conn) Truncate(ctx context.Context, name string, size int64) (bool, error) {
	cl, err := c.beginClient(ctx)
	if err != nil {
		return false, err
	}
	defer c.end()
	done, err := cl.Truncate(name, size)
	if err != nil {
		return false, ctxErr(ctx, notFound("truncate", name, err))
	}
	return done, nil
}

// RemoveAll implements [drivers.FileSystem]: one delete call.
func (c *Conn) RemoveAll(ctx context.Context, name string) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	var err error
	if c.nn == nil {
		err = c.cl.RemoveAll(name)
	} else {
		err = c.nn.Delete(name, true)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return ctxErr(ctx, opErr("remove", name, err))
	}
	return nil
}

// beginClient starts an operation (see [Conn.begin]) that needs
// colinmarc's client; when it returns no error, the caller ends it.
func (c *Conn) beginClient(ctx context.Context) (*hdfsc.Client, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	cl, err := c.client()
	if err != nil {
		err = ctxErr(ctx, err)
		c.end()
		return nil, err
	}
	return cl, nil
}

// stream is what a writer and a reader share: each call runs as an
// operation of the Conn c under the ctx the stream was opened with.
type stream struct {
	c      *Conn
	ctx    context.Context
	dl     deadliner // the colinmarc stream, if it is one
	closed bool
}

// deadliner is a colinmarc stream, which takes a deadline for a whole call.
type deadliner interface{ SetDeadline(time.Time) error }

// stream counts a stream opened under ctx; dl is the colinmarc stream, nil
// for gobench's own.
func (c *Conn) stream(ctx context.Context, dl deadliner) stream {
	c.streams++
	return stream{c: c, ctx: ctx, dl: dl}
}

// begin starts a call: see [Conn.begin]. The guard bounds each network
// call by hdfs.timeout; a colinmarc stream also gets it as a deadline for
// the whole call, as Hadoop's per-call socket timeouts.
func (s *stream) begin() error {
	if err := s.c.begin(s.ctx); err != nil {
		return err
	}
	if t := s.c.db.cfg.Timeout; t > 0 && s.dl != nil {
		s.dl.SetDeadline(time.Now().Add(t))
	}
	return nil
}

// writer writes a file: w (gobench's writer) or f (colinmarc's: for
// Append, and for Create when the DB goes through colinmarc's client) is set.
type writer struct {
	stream
	w *hwire.Writer
	f *hdfsc.FileWriter
}

func (w *writer) Write(b []byte) (int, error) {
	if err := w.begin(); err != nil {
		return 0, err
	}
	defer w.c.end()
	var n int
	var err error
	if w.w != nil {
		n, err = w.w.Write(b)
	} else {
		n, err = w.f.Write(b)
	}
	if err != nil {
		return n, ctxErr(w.ctx, opErr("write", "", err))
	}
	return n, nil
}

func (w *writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	defer func() { w.c.streams-- }()
	if err := w.begin(); err != nil {
		// ctx is done: cut what the stream has open (the clients are
		// replaced before the next operation) so that Close cannot block.
		w.c.g.retire()
		if w.w != nil {
			w.w.Abort()
		} else {
			w.f.Close()
		}
		return err
	}
	defer w.c.end()
	var err error
	if w.w != nil {
		err = w.w.Close()
	} else {
		err = closeWriter(w.ctx, w.f)
	}
	if err != nil {
		return ctxErr(w.ctx, opErr("close", "", err))
	}
	return nil
}

// reader is the reading counterpart of writer: r (gobench's reader) or f
// (colinmarc's, on a secured DB) is set.
type reader struct {
	stream
	r *hwire.Reader
	f *hdfsc.FileReader
}

func (r *reader) Read(b []byte) (int, error) {
	if err := r.begin(); err != nil {
		return 0, err
	}
	defer r.c.end()
	var n int
	var err error
	if r.f != nil {
		n, err = r.f.Read(b)
	} else {
		n, err = r.r.Read(b)
	}
	return n, ctxErr(r.ctx, readErr(err))
}

func (r *reader) ReadAt(b []byte, off int64) (int, error) {
	if off >= r.Size() {
		return 0, io.EOF
	}
	if err := r.begin(); err != nil {
		return 0, err
	}
	defer r.c.end()
	var n int
	var err error
	if r.f != nil {
		// colinmarc's ReadAt seeks: keep the offset of Read where it was.
		cur, _ := r.f.Seek(0, io.SeekCurrent)
		n, err = r.f.ReadAt(b, off)
		r.f.Seek(cur, io.SeekStart)
	} else {
		n, err = r.r.ReadAt(b, off)
	}
	return n, ctxErr(r.ctx, readErr(err))
}

// readErr names the driver in a read error; io.EOF stays itself.
func readErr(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return fmt.Errorf("hdfs: read: %w", err)
}

func (r *reader) Close() error {
	if !r.closed {
		r.closed = true
		r.c.streams--
	}
	if r.f != nil {
		return r.f.Close()
	}
	return r.r.Close()
}

func (r *reader) Size() int64 {
	if r.f != nil {
		return r.f.Stat().Size()
	}
	return r.r.Size()
}
