package disk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"
	"unsafe"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
)

// Names in the report.
const (
	NameOpen  = "OPEN"  // open or create the file (outside dd's time)
	NameClose = "CLOSE" // close it: holds conv=fdatasync's flush
	NameFile  = "FILE"  // one sample per file: dd's time
	opOpen    = 0
	opIO      = 1
	opClose   = 2
)

// File is what one worker measured for its file, as dd reports it.
type File struct {
	Name          string
	Bytes         int64
	Full, Partial int64         // blocks of the full size, and shorter ones (dd's "N+M records")
	Start, End    time.Duration // after the open, after the close; since the run began
	Time          time.Duration // End - Start: dd's time
	Err           error         // nil when the file completed
	Removed       bool          // a read removed the file afterwards
	RemoveErr     error         // removing it failed
}

// Job is the disk test as an [engine.Job]: worker i writes or reads
// Config.Paths()[i], one block per Step. The Conn must implement
// [drivers.FileSystem]. Its methods are safe for concurrent use.
type Job struct {
	cfg   Config
	paths []string
	mu    sync.Mutex
	files []File
}

// NewJob checks c and makes its job.
func NewJob(c Config) (*Job, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	p := c.Paths()
	return &Job{cfg: c, paths: p, files: make([]File, len(p))}, nil
}

// Config returns the job's configuration.
func (j *Job) Config() Config { return j.cfg }

// Ops implements [engine.Job]: OPEN, WRITE or READ, CLOSE.
func (j *Job) Ops() []string { return []string{NameOpen, j.cfg.Test.Op(), NameClose} }

// Extra implements [engine.Job].
func (j *Job) Extra() []string { return []string{NameFile} }

// Schema implements [engine.Job]: the kind names its files itself.
func (j *Job) Schema() drivers.Schema { return drivers.Schema{Table: "usertable"} }

// Warnings implements [engine.Job].
func (j *Job) Warnings() []string { return nil }

// Files returns what each worker measured, in Paths order; a file no
// worker finished has Err set.
func (j *Job) Files() []File {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := append([]File(nil), j.files...)
	for i := range out {
		if out[i].Name == "" {
			out[i] = File{Name: j.paths[i], Err: errors.New("not done: the run stopped first")}
		}
	}
	return out
}

func (j *Job) record(i int, f File) {
	j.mu.Lock()
	j.files[i] = f
	j.mu.Unlock()
}

// blockAlign is the address alignment of the block buffer, enough for
// O_DIRECT on any Linux file system, so the driver never has to copy.
const blockAlign = 4096

// NewTask implements [engine.Job].
func (j *Job) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (engine.Task, error) {
	fs, ok := conn.(drivers.FileSystem)
	if !ok {
		return nil, errors.New("disk needs file streams, which this db does not offer (use db diskfile)")
	}
	if id >= len(j.paths) {
		return nil, fmt.Errorf("disk: worker %d has no file (%d files)", id, len(j.paths))
	}
	buf := make([]byte, j.cfg.BlockSize+blockAlign)
	if r := int(uintptr(unsafe.Pointer(&buf[0])) % blockAlign); r != 0 {
		buf = buf[blockAlign-r:]
	}
	buf = buf[:j.cfg.BlockSize:j.cfg.BlockSize]
	if j.cfg.Test == Write {
		// Random bytes rather than dd's zeros, so that a device or file
		// system that compresses or deduplicates cannot shortcut them.
		for i := 0; i+8 <= len(buf); i += 8 {
			v := rnd.Uint64()
			for k := 0; k < 8; k++ {
				buf[i+k] = byte(v >> (8 * k))
			}
		}
	}
	return &task{j: j, fs: fs, m: m, buf: buf, idx: id, file: File{Name: j.paths[id]}, fileS: m.Extra(NameFile)}, nil
}

// task is one worker: one file.
type task struct {
	j     *Job
	fs    drivers.FileSystem
	m     *engine.Meter
	buf   []byte
	idx   int
	fileS int

	opened bool
	done   bool
	w      io.WriteCloser
	r      drivers.FileReader
	file   File
}

// Step implements [engine.Task]: the open, one block, or the close.
func (t *task) Step(ctx context.Context) bool {
	if t.done {
		return false
	}
	if !t.opened {
		return t.open(ctx)
	}
	cfg := &t.j.cfg
	start := t.m.Now()
	if cfg.Test == Write {
		n := int64(len(t.buf))
		if rest := cfg.Size - t.file.Bytes; rest < n {
			n = rest
		}
		_, err := t.w.Write(t.buf[:n])
		if t.m.Measure(opIO, start, err); err != nil {
			return t.fail(err)
		}
		t.count(int(n))
		if t.file.Bytes >= cfg.Size {
			return t.close(ctx)
		}
		return true
	}
	n := len(t.buf)
	if rest := cfg.Size - t.file.Bytes; rest < int64(n) {
		n = int(rest)
	}
	k, err := t.r.Read(t.buf[:n])
	eof := errors.Is(err, io.EOF)
	if eof {
		err = nil
	}
	if k > 0 || err != nil {
		t.m.Measure(opIO, start, err)
	}
	if err != nil {
		return t.fail(err)
	}
	t.count(k)
	if eof && k == 0 || t.file.Bytes >= cfg.Size {
		return t.close(ctx)
	}
	return true
}

func (t *task) count(n int) {
	t.file.Bytes += int64(n)
	if n == len(t.buf) {
		t.file.Full++
	} else {
		t.file.Partial++
	}
}

func (t *task) open(ctx context.Context) bool {
	t.opened = true
	start := t.m.Now()
	var err error
	if t.j.cfg.Test == Write {
		t.w, err = t.fs.Create(ctx, t.file.Name, t.j.cfg.BlockSize)
	} else {
		t.r, err = t.fs.Open(ctx, t.file.Name)
	}
	t.m.Measure(opOpen, start, err)
	if err != nil {
		return t.fail(err)
	}
	t.file.Start = t.m.Now()
	return true
}

// close closes the file (inside dd's time: the fdatasync is here) and
// records it; a read then removes the file if asked, outside the time.
func (t *task) close(ctx context.Context) bool {
	start := t.m.Now()
	var err error
	if t.w != nil {
		err = t.w.Close()
	} else {
		err = t.r.Close()
	}
	t.w, t.r = nil, nil
	t.m.Measure(opClose, start, err)
	if err != nil {
		return t.fail(err)
	}
	t.file.End = t.m.Now()
	t.file.Time = t.file.End - t.file.Start
	t.m.Sample(t.fileS, t.file.Start)
	if t.j.cfg.Test == Read && t.j.cfg.Remove {
		t.file.RemoveErr = t.fs.RemoveAll(ctx, t.file.Name)
		t.file.Removed = t.file.RemoveErr == nil
	}
	t.done = true
	t.j.record(t.idx, t.file)
	return false
}

// fail abandons the file with err.
func (t *task) fail(err error) bool {
	if t.w != nil {
		t.w.Close()
	}
	if t.r != nil {
		t.r.Close()
	}
	t.w, t.r = nil, nil
	t.file.End = t.m.Now()
	t.file.Time = t.file.End - t.file.Start
	t.file.Err = fmt.Errorf("%s: %w", t.file.Name, err)
	t.done = true
	t.j.record(t.idx, t.file)
	return false
}

// Close implements [engine.TaskCloser]: a file still open when the run
// was stopped is closed and recorded as not completed, with what it moved.
func (t *task) Close(ctx context.Context) error {
	if t.done || !t.opened {
		if !t.opened && !t.done {
			t.file.Err = errors.New("not started: the run stopped first")
			t.j.record(t.idx, t.file)
		}
		return nil
	}
	t.fail(errors.New("stopped before the end of the file"))
	return nil
}
