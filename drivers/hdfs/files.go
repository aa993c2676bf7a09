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
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w, err := c.create(name)
	if errors.Is(err, os.ErrExist) {
		if rerr := c.c.Remove(name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, notFound("create", name, rerr)
		}
		w, err = c.create(name)
	}
	if err != nil {
		return nil, notFound("create", name, err)
	}
	return &writer{f: w, ctx: ctx, timeout: c.db.cfg.Timeout}, nil
}

// Append implements [drivers.FileSystem].
func (c *Conn) Append(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w, err := c.c.Append(name)
	if err != nil {
		return nil, notFound("append", name, err)
	}
	return &writer{f: w, ctx: ctx, timeout: c.db.cfg.Timeout}, nil
}

// Open implements [drivers.FileSystem].
func (c *Conn) Open(ctx context.Context, name string) (drivers.FileReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := c.c.Open(name)
	if err != nil {
		return nil, notFound("open", name, err)
	}
	return &reader{f: f, ctx: ctx, timeout: c.db.cfg.Timeout}, nil
}

// Size implements [drivers.FileSystem].
func (c *Conn) Size(ctx context.Context, name string) (int64, error) {
	st, err := c.c.Stat(name)
	if err != nil {
		return 0, notFound("stat", name, err)
	}
	return st.Size(), nil
}

// Truncate implements [drivers.FileSystem].
func (c *Conn) Truncate(ctx context.Context, name string, size int64) (bool, error) {
	done, err := c.c.Truncate(name, size)
	if err != nil {
		return false, notFound("truncate", name, err)
	}
	return done, nil
}

// RemoveAll implements [drivers.FileSystem].
func (c *Conn) RemoveAll(ctx context.Context, name string) error {
	if err := c.c.RemoveAll(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("hdfs: remove %s: %w", name, err)
	}
	return nil
}

// writer bounds each call by the timeout and stops once ctx is done.
type writer struct {
	f       *hdfsc.FileWriter
	ctx     context.Context
	timeout time.Duration
}

func (w *writer) deadline() error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if w.timeout > 0 {
		return w.f.SetDeadline(time.Now().Add(w.timeout))
	}
	return nil
}

func (w *writer) Write(b []byte) (int, error) {
	if err := w.deadline(); err != nil {
		return 0, err
	}
	n, err := w.f.Write(b)
	if err != nil {
		return n, fmt.Errorf("hdfs: write: %w", err)
	}
	return n, nil
}

func (w *writer) Close() error {
	if err := w.deadline(); err != nil {
		w.f.Close()
		return err
	}
	if err := closeWriter(w.f); err != nil {
		return fmt.Errorf("hdfs: close: %w", err)
	}
	return nil
}

type reader struct {
	f       *hdfsc.FileReader
	ctx     context.Context
	timeout time.Duration
}

func (r *reader) deadline() error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if r.timeout > 0 {
		return r.f.SetDeadline(time.Now().Add(r.timeout))
	}
	return nil
}

func (r *reader) Read(b []byte) (int, error) {
	if err := r.deadline(); err != nil {
		return 0, err
	}
	return r.f.Read(b)
}

func (r *reader) ReadAt(b []byte, off int64) (int, error) {
	if err := r.deadline(); err != nil {
		return 0, err
	}
	if off >= r.Size() {
		return 0, io.EOF // the client's Seek refuses offsets past the end
	}
	return r.f.ReadAt(b, off)
}

func (r *reader) Close() error { return r.f.Close() }
func (r *reader) Size() int64  { return r.f.Stat().Size() }
