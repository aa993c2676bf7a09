package dfsio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
)

// task is one worker, TestDFSIO's map task run again for each file it
// takes. One Step is one open, one buffer of I/O, or one truncate.
type task struct {
	j   *Job
	fs  drivers.FileSystem
	m   *engine.Meter
	rnd *rand.Rand
	buf []byte

	fileS, prepS, redS int // extra series

	// The file in progress (idx < 0: none).
	idx    int
	w      io.WriteCloser
	r      drivers.FileReader
	start  time.Duration // after the open: TestDFSIO's tStart
	done   int64         // bytes processed so far
	pos    int64         // last positional offset, -1 before the first
	length int64         // file length at open (reads, truncate)
}

// Step implements [engine.Task].
func (t *task) Step(ctx context.Context) bool {
	if t.j.cfg.Test == Clean {
		return false // SetUp did it
	}
	if t.idx >= 0 {
		t.io(ctx)
		return true
	}
	if t.j.prepare(ctx, t) != nil {
		return false
	}
	i := int(t.j.next.Add(1) - 1)
	if i >= t.j.cfg.NrFiles {
		return false
	}
	t.open(ctx, i)
	return true
}

// open opens (or creates) file i: not part of the file's time.
func (t *task) open(ctx context.Context, i int) {
	cfg := &t.j.cfg
	name := cfg.FileName(i)
	t.idx, t.done, t.pos, t.length = i, 0, -1, 0
	start := t.m.Now()
	var err error
	switch cfg.Test {
	case Write:
		t.w, err = t.fs.Create(ctx, name, cfg.BufferSize)
	case Append:
		t.w, err = t.fs.Append(ctx, name, cfg.BufferSize)
	case Truncate:
		t.length, err = t.fs.Size(ctx, name)
	default:
		t.r, err = t.fs.Open(ctx, name)
		if err == nil {
			t.length = t.r.Size()
		}
	}
	t.m.Measure(opOpen, start, err)
	if err != nil {
		t.fail(ctx, err)
		return
	}
	t.start = t.m.Now()
}

// io does one buffer (or the whole truncate) and closes the file when it is
// done.
func (t *task) io(ctx context.Context) {
	cfg := &t.j.cfg
	switch cfg.Test {
	case Write, Append:
		n := int64(len(t.buf))
		if rest := cfg.Size - t.done; rest < n {
			n = rest
		}
		if n <= 0 {
			t.close(ctx)
			return
		}
		start := t.m.Now()
		_, err := t.w.Write(t.buf[:n])
		if t.m.Measure(opIO, start, err); err != nil {
			t.fail(ctx, err)
			return
		}
		t.done += n
		t.j.bytes.Add(n)
		if t.done >= cfg.Size {
			t.close(ctx)
		}
	case Truncate:
		start := t.m.Now()
		err := t.truncate(ctx, cfg.FileName(t.idx), cfg.Size)
		if t.m.Measure(opIO, start, err); err != nil {
			t.fail(ctx, err)
			return
		}
		t.done = t.length - cfg.Size
		t.j.bytes.Add(t.done)
		t.close(ctx)
	default:
		if t.done >= cfg.Size {
			t.close(ctx)
			return
		}
		start := t.m.Now()
		var n int
		var err error
		if cfg.Test == Read {
			n, err = fill(t.r, t.buf)
		} else {
			t.pos = t.nextOffset(t.pos)
			n, err = t.r.ReadAt(t.buf, t.pos)
		}
		eof := errors.Is(err, io.EOF)
		if eof {
			err = nil
		}
		if n > 0 || err != nil {
			t.m.Measure(opIO, start, err)
		}
		if err != nil {
			t.fail(ctx, err)
			return
		}
		t.done += int64(n)
		t.j.bytes.Add(int64(n))
		// TestDFSIO stops at -size bytes or when a read returns -1 (EOF
		// with nothing read).
		if t.done >= cfg.Size || eof && (cfg.Test == Read || n == 0) {
			t.close(ctx)
		}
	}
}

// nextOffset is TestDFSIO's RandomReadMapper.nextOffset: uniform in
// [0, length) for random reads, back from the end by a buffer for backward,
// forward by a buffer plus the skip for skip reads.
func (t *task) nextOffset(cur int64) int64 {
	buf := int64(len(t.buf))
	switch skip := t.j.cfg.skip(); {
	case skip == 0:
		if t.length <= 0 {
			return 0
		}
		return t.rnd.Int64N(t.length)
	case skip > 0:
		if cur < 0 {
			return 0
		}
		return cur + buf + skip
	default:
		if cur < 0 {
			return max(0, t.length-buf)
		}
		return max(0, cur+skip)
	}
}

// truncate cuts the file and, like TestDFSIO, polls its length every 100 ms
// until a background truncation (HDFS block recovery) has finished.
func (t *task) truncate(ctx context.Context, name string, size int64) error {
	done, err := t.fs.Truncate(ctx, name, size)
	for !done && err == nil {
		tm := time.NewTimer(truncPoll)
		select {
		case <-ctx.Done():
			tm.Stop()
			return ctx.Err()
		case <-tm.C:
		}
		var n int64
		n, err = t.fs.Size(ctx, name)
		done = n == size
	}
	return err
}

// fill reads into b until it is full or the stream ends: one buffer of
// TestDFSIO's sequential read.
func fill(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := r.Read(b[n:])
		n += k
		if err != nil {
			return n, err
		}
		if k == 0 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// close closes the stream (inside the file's time) and records the file.
func (t *task) close(ctx context.Context) {
	var err error
	start := t.m.Now()
	switch {
	case t.w != nil:
		err = t.w.Close()
		t.m.Measure(opClose, start, err)
	case t.r != nil:
		err = t.r.Close()
		t.m.Measure(opClose, start, err)
	}
	t.w, t.r = nil, nil
	if err != nil {
		t.fail(ctx, err)
		return
	}
	d := t.m.Now() - t.start
	t.m.Sample(t.fileS, t.start)
	i := t.idx
	t.idx = -1
	t.j.finish(ctx, t, File{Name: t.j.cfg.FileName(i), Bytes: t.done, ExecMS: d.Milliseconds(), Time: d}, i)
}

// fail abandons the file in progress with err.
func (t *task) fail(ctx context.Context, err error) {
	if t.w != nil {
		t.w.Close()
	}
	if t.r != nil {
		t.r.Close()
	}
	t.w, t.r = nil, nil
	i := t.idx
	t.idx = -1
	name := t.j.cfg.FileName(i)
	t.j.finish(ctx, t, File{Name: name, Bytes: t.done, Err: fmt.Errorf("%s: %w", name, err)}, i)
}
