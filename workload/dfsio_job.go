package workload

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
)

// DFSIO operation and measurement names in the report.
const (
	NameDFSIOOpen    = "OPEN"    // open or create a file (not in TestDFSIO's time)
	NameDFSIOClose   = "CLOSE"   // close a file (in TestDFSIO's time: the final flush)
	NameDFSIOFile    = "FILE"    // one sample per file: TestDFSIO's per-map time
	NameDFSIOPrepare = "PREPARE" // deleting the previous output (and data, for write)
	NameDFSIOReduce  = "REDUCE"  // writing part-00000
	dfsioOpOpen      = 0         // operation ids: OPEN, the I/O op, CLOSE
	dfsioOpIO        = 1         //
	dfsioOpClose     = 2         //
	dfsioTruncPoll   = 100 * time.Millisecond
)

// DFSIOFile is what one file's worker measured, as TestDFSIO's map reports
// it.
type DFSIOFile struct {
	Name   string
	Bytes  int64         // bytes written, read, appended or truncated away
	ExecMS int64         // TestDFSIO's execTime: whole milliseconds from after the open to after the close
	Time   time.Duration // the same, not truncated
	Err    error         // nil when the file's I/O completed
}

// DFSIO is TestDFSIO as a [Job]: one task per file, processed by as many
// workers as the spec's threadcount (one per file by default, see
// [DFSIOConfig.Workers]). Each worker takes the next file, opens it (timed
// apart as OPEN, outside the file's time), does one buffer per Step (timed
// as WRITE, READ, APPEND or TRUNCATE), and closes it (CLOSE, inside the
// file's time). The first Step of the run deletes what TestDFSIO deletes
// first (PREPARE); the worker finishing the last file writes the reducer's
// part-00000 (REDUCE). The Conn must implement [drivers.FileSystem].
//
// A DFSIO runs once; its methods are safe for concurrent use.
type DFSIO struct {
	cfg   DFSIOConfig
	next  atomic.Int64 // next file index to take
	bytes atomic.Int64 // bytes processed so far, for progress

	prepOnce sync.Once
	prepErr  error

	mu       sync.Mutex
	files    []DFSIOFile
	finished int
	reduce   error
}

// NewDFSIO checks c and makes its job.
func NewDFSIO(c DFSIOConfig) (*DFSIO, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &DFSIO{cfg: c, files: make([]DFSIOFile, c.NrFiles)}, nil
}

// Config returns the job's configuration.
func (j *DFSIO) Config() DFSIOConfig { return j.cfg }

// Ops implements [Job]: OPEN, the I/O operation, CLOSE.
func (j *DFSIO) Ops() []string {
	return []string{NameDFSIOOpen, dfsioTests[j.cfg.Test].op, NameDFSIOClose}
}

// Extra implements [Job].
func (j *DFSIO) Extra() []string {
	return []string{NameDFSIOFile, NameDFSIOPrepare, NameDFSIOReduce}
}

// Warnings implements [Job].
func (j *DFSIO) Warnings() []string { return nil }

// Files returns a copy of the per-file results, in file order. Files no
// worker reached (the run was stopped) have Err set.
func (j *DFSIO) Files() []DFSIOFile {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := append([]DFSIOFile(nil), j.files...)
	for i := range out {
		if out[i].Name == "" {
			out[i] = DFSIOFile{Name: j.cfg.FileName(i), Err: errors.New("not processed: the run stopped first")}
		}
	}
	return out
}

// Progress returns the files finished (completed or failed) and the bytes
// processed so far. Safe to call while the run goes on.
func (j *DFSIO) Progress() (files int, bytes int64) {
	j.mu.Lock()
	files = j.finished
	j.mu.Unlock()
	return files, j.bytes.Load()
}

// PrepareErr is the error deleting the previous output, if any (then no file
// was processed).
func (j *DFSIO) PrepareErr() error { return j.prepErr }

// ReduceErr is the error writing part-00000, if any.
func (j *DFSIO) ReduceErr() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.reduce
}

// NewTask implements [Job].
func (j *DFSIO) NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *Meter) (Task, error) {
	fs, ok := conn.(drivers.FileSystem)
	if !ok {
		return nil, fmt.Errorf("dfsio needs file streams, which this db does not offer (use hdfs, or -fs file:///dir)")
	}
	buf := make([]byte, j.cfg.BufferSize)
	for i := range buf {
		buf[i] = byte('0' + i%50) // TestDFSIO's pattern
	}
	return &dfsioTask{j: j, fs: fs, m: m, rnd: rnd, buf: buf, idx: -1,
		fileS: m.t.Extra(NameDFSIOFile), prepS: m.t.Extra(NameDFSIOPrepare), redS: m.t.Extra(NameDFSIOReduce)}, nil
}

// prepare deletes, once per run, what TestDFSIO deletes before the job:
// the data and output directories for write, the output directory
// otherwise. Inside the timed run, as in TestDFSIO's CLI.
func (j *DFSIO) prepare(ctx context.Context, t *dfsioTask) error {
	j.prepOnce.Do(func() {
		start := t.m.Now()
		var err error
		if j.cfg.Test == DFSIOWrite {
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
func (j *DFSIO) finish(ctx context.Context, t *dfsioTask, f DFSIOFile, i int) {
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
func (j *DFSIO) writeReduce(ctx context.Context, fs drivers.FileSystem) error {
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
