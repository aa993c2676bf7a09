package dfsio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
)

// DFSIO operation and measurement names in the report.
const (
	NameOpen    = "OPEN"    // open or create a file (not in TestDFSIO's time)
	NameClose   = "CLOSE"   // close a file (in TestDFSIO's time: the final flush)
	NameFile    = "FILE"    // one sample per file: TestDFSIO's per-map time
	NamePrepare = "PREPARE" // deleting the previous output (and data, for write)
	NameReduce  = "REDUCE"  // writing part-00000
	opOpen      = 0         // operation ids: OPEN, the I/O op, CLOSE
	opIO        = 1         //
	opClose     = 2         //
	truncPoll   = 100 * time.Millisecond
)

// File is what one file's worker measured, as TestDFSIO's map reports
// it.
type File struct {
	Name   string
	Bytes  int64         // bytes written, read, appended or truncated away
	ExecMS int64         // TestDFSIO's execTime: whole milliseconds from after the open to after the close
	Time   time.Duration // the same, not truncated
	Err    error         // nil when the file's I/O completed
}

// Job is TestDFSIO as an [engine.Job]: one task per file, processed by as many
// workers as the spec's threadcount (one per file by default, see
// [Config.Workers]). Each worker takes the next file, opens it (timed
// apart as OPEN, outside the file's time), does one buffer per Step (timed
// as WRITE, READ, APPEND or TRUNCATE), and closes it (CLOSE, inside the
// file's time). The first Step of the run deletes what TestDFSIO deletes
// first (PREPARE); the worker finishing the last file writes the reducer's
// part-00000 (REDUCE). The Conn must implement [drivers.FileSystem].
//
// A DFSIO runs once; its methods are safe for concurrent use.
type Job struct {
	cfg   Config
	next  atomic.Int64 // next file index to take
	bytes atomic.Int64 // bytes processed so far, for progress

	prepOnce sync.Once
	prepErr  error

	mu       sync.Mutex
	files    []File
	finished int
	reduce   error
}

// NewJob checks c and makes its job.
func NewJob(c Config) (*Job, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Job{cfg: c, files: make([]File, c.NrFiles)}, nil
}

// Config returns the job's configuration.
func (j *Job) Config() Config { return j.cfg }

// Ops implements [engine.Job]: OPEN, the I/O operation, CLOSE.
func (j *Job) Ops() []string {
	return []string{NameOpen, tests[j.cfg.Test].op, NameClose}
}

// Extra implements [engine.Job].
func (j *Job) Extra() []string {
	return []string{NameFile, NamePrepare, NameReduce}
}

// Warnings implements [engine.Job].
func (j *Job) Warnings() []string { return nil }

// Schema implements [engine.Job]: dfsio names its files itself.
func (j *Job) Schema() drivers.Schema { return drivers.Schema{Table: "usertable"} }

// SetUp implements [engine.SetUpper]: what TestDFSIO does before its timer
// starts. It writes the control files (one per file, as TestDFSIO's
// createControlFile does), or, for the clean test, deletes the base
// directory; each step is logged as TestDFSIO logs it.
func (j *Job) SetUp(ctx context.Context, conn drivers.Conn, log io.Writer) error {
	fs, ok := conn.(drivers.FileSystem)
	if !ok {
		return fmt.Errorf("dfsio needs file streams, which this db does not offer (use hdfs, or -fs file:///dir)")
	}
	if j.cfg.Test == Clean {
		Log(log, "Cleaning up test files")
		if err := fs.RemoveAll(ctx, j.cfg.BaseDir); err != nil {
			return fmt.Errorf("dfsio -clean: %w", err)
		}
		return nil
	}
	Log(log, "creating control file: %d bytes, %d files", j.cfg.Size, j.cfg.NrFiles)
	if err := j.cfg.WriteControl(ctx, fs); err != nil {
		return fmt.Errorf("dfsio: %w", err)
	}
	Log(log, "created control files for: %d files", j.cfg.NrFiles)
	return nil
}

// Files returns a copy of the per-file results, in file order. Files no
// worker reached (the run was stopped) have Err set.
func (j *Job) Files() []File {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := append([]File(nil), j.files...)
	for i := range out {
		if out[i].Name == "" {
			out[i] = File{Name: j.cfg.FileName(i), Err: errors.New("not processed: the run stopped first")}
		}
	}
	return out
}

// Progress returns the files finished (completed or failed) and the bytes
// processed so far. Safe to call while the run goes on.
func (j *Job) Progress() (files int, bytes int64) {
	j.mu.Lock()
	files = j.finished
	j.mu.Unlock()
	return files, j.bytes.Load()
}

// PrepareErr is the error deleting the previous output, if any (then no file
// was processed).
func (j *Job) PrepareErr() error { return j.prepErr }

// ReduceErr is the error writing part-00000, if any.
func (j *Job) ReduceErr() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.reduce
}

// NewTask implements [engine.Job].
func (j *Job) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *engine.Meter) (engine.Task, error) {
	fs, ok := conn.(drivers.FileSystem)
	if !ok {
		return nil, fmt.Errorf("dfsio needs file streams, which this db does not offer (use hdfs, or -fs file:///dir)")
	}
	buf := make([]byte, j.cfg.BufferSize)
	for i := range buf {
		buf[i] = byte('0' + i%50) // TestDFSIO's pattern
	}
	return &task{j: j, fs: fs, m: m, rnd: rnd, buf: buf, idx: -1,
		fileS: m.Extra(NameFile), prepS: m.Extra(NamePrepare), redS: m.Extra(NameReduce)}, nil
}

// prepare deletes, once per run, what TestDFSIO deletes before the job:
// the data and output directories for write, the output directory
// otherwise. Inside the timed run, as in TestDFSIO's CLI.
func (j *Job) prepare(ctx context.Context, t *task) error {
	j.prepOnce.Do(func() {
		start := t.m.Now()
		var err error
		if j.cfg.Test == Write {
			err = t.fs.RemoveAll(ctx, j.cfg.DataDir())
		}
		if err == nil {
			err = t.fs.RemoveAll(ctx, j.cfg.OutputDir())
		}
		t.m.Sample(t.prepS, start)
		t.m.Count(t.prepS, drivers.Classify(err))
		if err != nil {
			j.prepErr = fmt.Errorf("dfsio: delete previous output: %w", err)
		}
	})
	return j.prepErr
}

// finish records file i; the worker finishing the last file writes
// part-00000.
func (j *Job) finish(ctx context.Context, t *task, f File, i int) {
	j.mu.Lock()
	j.files[i] = f
	j.finished++
	last := j.finished == j.cfg.NrFiles
	j.mu.Unlock()
	if !last {
		return
	}
	start := t.m.Now()
	err := j.writeReduce(ctx, t.fs)
	t.m.Sample(t.redS, start)
	t.m.Count(t.redS, drivers.Classify(err))
	j.mu.Lock()
	j.reduce = err
	j.mu.Unlock()
}

// writeReduce writes <output dir>/part-00000 as TestDFSIO's
// AccumulatingReducer does, so tools reading it find the same sums.
func (j *Job) writeReduce(ctx context.Context, fs drivers.FileSystem) error {
	s := j.sums()
	w, err := fs.Create(ctx, j.cfg.OutputDir()+"/part-00000", 4096)
	if err != nil {
		return fmt.Errorf("dfsio: write part-00000: %w", err)
	}
	_, werr := io.WriteString(w, s.reducerOutput())
	if err := errors.Join(werr, w.Close()); err != nil {
		return fmt.Errorf("dfsio: write part-00000: %w", err)
	}
	return nil
}

// Preamble returns the lines TestDFSIO logs about its configuration before
// it starts: nrFiles, nrBytes (MB) (as Java's Float.toString prints it),
// bufferSize, skipSize (skip reads only) and baseDir.
func (j *Job) Preamble() []string {
	c := j.cfg
	lines := []string{
		fmt.Sprintf("nrFiles = %d", c.NrFiles),
		fmt.Sprintf("nrBytes (MB) = %s", measure.FormatJavaFloat(float32(c.Size)/(1<<20))),
		fmt.Sprintf("bufferSize = %d", c.BufferSize),
	}
	if c.Test == SkipRead {
		skip := c.SkipSize
		if skip == 0 {
			skip = int64(c.BufferSize)
		}
		lines = append(lines, fmt.Sprintf("skipSize = %d", skip))
	}
	return append(lines, "baseDir = "+c.BaseDir)
}
