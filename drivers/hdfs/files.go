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
)

// Create implements [drivers.FileSystem]: Hadoop's create with overwrite.
func (c *Conn) Create(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	defer c.end()
	w, err := c.create(name)
	if errors.Is(err, os.ErrExist) {
		if rerr := c.c.Remove(name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, ctxErr(ctx, notFound("create", name, rerr))
		}
		w, err = c.create(name)
	}
	if err != nil {
		return nil, ctxErr(ctx, notFound("create", name, err))
	}
	c.streams++
	return &writer{c: c, f: w, ctx: ctx}, nil
}

// Append implements [drivers.FileSystem].
func (c *Conn) Append(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	defer c.end()
	w, err := c.c.Append(name)
	if err != nil {
		return nil, ctxErr(ctx, notFound("append", name, err))
	}
	c.streams++
	return &writer{c: c, f: w, ctx: ctx}, nil
}

// Open implements [drivers.FileSystem].
func (c *Conn) Open(ctx context.Context, name string) (drivers.FileReader, error) {
	if err := c.begin(ctx); err != nil {
		return nil, err
	}
	defer c.end()
	f, err := c.c.Open(name)
	if err != nil {
		return nil, ctxErr(ctx, notFound("open", name, err))
	}
	c.streams++
	return &reader{c: c, f: f, ctx: ctx}, nil
}

// Size implements [drivers.FileSystem].
func (c *Conn) Size(ctx context.Context, name string) (int64, error) {
	if err := c.begin(ctx); err != nil {
		return 0, err
	}
	defer c.end()
	st, err := c.c.Stat(name)
	if err != nil {
		return 0, ctxErr(ctx, notFound("stat", name, err))
	}
	return st.Size(), nil
}

// Truncate implements [drivers.FileSystem].
func (c *Conn) Truncate(ctx context.Context, name string, size int64) (bool, error) {
	if err := c.begin(ctx); err != nil {
		return false, err
	}
	defer c.end()
	done, err := c.c.Truncate(name, size)
	if err != nil {
		return false, ctxErr(ctx, notFound("truncate", name, err))
	}
	return done, nil
}

// RemoveAll implements [drivers.FileSystem].
func (c *Conn) RemoveAll(ctx context.Context, name string) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	if err := c.c.RemoveAll(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return ctxErr(ctx, fmt.Errorf("hdfs: remove %s: %w", name, err))
	}
	return nil
}

// writer runs each call as an operation of its Conn under the ctx it was
// opened with, and bounds each call by hdfs.timeout.
type writer struct {
	c      *Conn
	f      *hdfsc.FileWriter
	ctx    context.Context
	closed bool
}

// begin starts a call: see [Conn.begin]; the deadline of hdfs.timeout is
// for the whole call, as Hadoop's per-call socket timeouts.
func (w *writer) begin() error {
	if err := w.c.begin(w.ctx); err != nil {
		return err
	}
	if t := w.c.db.cfg.Timeout; t > 0 {
		w.f.SetDeadline(time.Now().Add(t))
	}
	return nil
}

func (w *writer) Write(b []byte) (int, error) {
	if err := w.begin(); err != nil {
		return 0, err
	}
	defer w.c.end()
	n, err := w.f.Write(b)
	if err != nil {
		return n, ctxErr(w.ctx, fmt.Errorf("hdfs: write: %w", err))
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
		// ctx is done: cut what the stream has open (the client is
		// replaced before the next operation) so that Close cannot block.
		w.c.g.retire()
		w.f.Close()
		return err
	}
	defer w.c.end()
	if err := closeWriter(w.ctx, w.f); err != nil {
		return ctxErr(w.ctx, fmt.Errorf("hdfs: close: %w", err))
	}
	return nil
}

// reader is the reading counterpart of writer.
type reader struct {
	c      *Conn
	f      *hdfsc.FileReader
	ctx    context.Context
	closed bool
}

func (r *reader) begin() error {
	if err := r.c.begin(r.ctx); err != nil {
		return err
	}
	if t := r.c.db.cfg.Timeout; t > 0 {
		r.f.SetDeadline(time.Now().Add(t))
	}
	return nil
}

func (r *reader) Read(b []byte) (int, error) {
	if err := r.begin(); err != nil {
		return 0, err
	}
	defer r.c.end()
	n, err := r.f.Read(b)
	return n, ctxErr(r.ctx, readErr(err))
}

func (r *reader) ReadAt(b []byte, off int64) (int, error) {
	if off >= r.Size() {
		return 0, io.EOF // the client's Seek refuses offsets past the end
	}
	if err := r.begin(); err != nil {
		return 0, err
	}
	defer r.c.end()
	n, err := r.f.ReadAt(b, off)
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
	return r.f.Close()
}

func (r *reader) Size() int64 { return r.f.Stat().Size() }
