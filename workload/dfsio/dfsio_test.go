package dfsio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// memFS is an in-memory drivers.FileSystem behind a drivers.DB, recording
// the offsets of positional reads.
type memFS struct {
	mu      sync.Mutex
	files   map[string][]byte
	preads  map[string][]int64
	failOn  string // file name whose writes fail
	creates int
}

func newMemFS() *memFS { return &memFS{files: map[string][]byte{}, preads: map[string][]int64{}} }

func (f *memFS) Open(context.Context) (drivers.Conn, error) { return &memConn{fs: f}, nil }
func (f *memFS) Close() error                               { return nil }

type memConn struct {
	driverstest.UnsupportedConn // YCSB ops unused
	fs                          *memFS
}

type memWriter struct {
	fs   *memFS
	name string
}

func (w *memWriter) Write(b []byte) (int, error) {
	w.fs.mu.Lock()
	defer w.fs.mu.Unlock()
	if w.name == w.fs.failOn {
		return 0, errors.New("injected write failure")
	}
	w.fs.files[w.name] = append(w.fs.files[w.name], b...)
	return len(b), nil
}
func (w *memWriter) Close() error { return nil }

type memReader struct {
	*bytes.Reader
	fs   *memFS
	name string
}

func (r *memReader) Close() error { return nil }
func (r *memReader) ReadAt(b []byte, off int64) (int, error) {
	r.fs.mu.Lock()
	r.fs.preads[r.name] = append(r.fs.preads[r.name], off)
	r.fs.mu.Unlock()
	return r.Reader.ReadAt(b, off)
}

func (c *memConn) Create(_ context.Context, name string, _ int) (io.WriteCloser, error) {
	c.fs.mu.Lock()
	defer c.fs.mu.Unlock()
	c.fs.files[name] = []byte{}
	c.fs.creates++
	return &memWriter{c.fs, name}, nil
}

func (c *memConn) Append(_ context.Context, name string, _ int) (io.WriteCloser, error) {
	c.fs.mu.Lock()
	defer c.fs.mu.Unlock()
	if _, ok := c.fs.files[name]; !ok {
		return nil, fmt.Errorf("append %s: %w", name, drivers.ErrNotFound)
	}
	return &memWriter{c.fs, name}, nil
}

func (c *memConn) Open(_ context.Context, name string) (drivers.FileReader, error) {
	c.fs.mu.Lock()
	defer c.fs.mu.Unlock()
	b, ok := c.fs.files[name]
	if !ok {
		return nil, fmt.Errorf("open %s: %w", name, drivers.ErrNotFound)
	}
	return &memReader{bytes.NewReader(b), c.fs, name}, nil
}

func (c *memConn) Size(_ context.Context, name string) (int64, error) {
	c.fs.mu.Lock()
	defer c.fs.mu.Unlock()
	b, ok := c.fs.files[name]
	if !ok {
		return 0, drivers.ErrNotFound
	}
	return int64(len(b)), nil
}

func (c *memConn) Truncate(_ context.Context, name string, size int64) (bool, error) {
	c.fs.mu.Lock()
	defer c.fs.mu.Unlock()
	c.fs.files[name] = c.fs.files[name][:size]
	return false, nil // as HDFS with block recovery: the caller polls
}

func (c *memConn) RemoveAll(_ context.Context, name string) error {
	c.fs.mu.Lock()
	defer c.fs.mu.Unlock()
	for k := range c.fs.files {
		if k == name || strings.HasPrefix(k, name+"/") {
			delete(c.fs.files, k)
		}
	}
	return nil
}

func runDFSIO(t *testing.T, fs *memFS, c Config, threads int) (*Job, *engine.Result) {
	t.Helper()
	j, err := NewJob(c)
	if err != nil {
		t.Fatal(err)
	}
	set := engine.DefaultSettings()
	set.Threads = c.Workers(threads)
	r, err := engine.New(set, j, fs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return j, res
}

func TestDFSIOWriteReadAppendTruncate(t *testing.T) {
	fs := newMemFS()
	c := Config{Test: Write, NrFiles: 4, Size: 10000, BufferSize: 3000, BaseDir: "/bench"}
	j, res := runDFSIO(t, fs, c, 0)
	s := j.Summary(res.RunTime)
	if s.Tasks != 4 || s.Size != 40000 || s.Failed != 0 {
		t.Fatalf("write: tasks %d size %d failed %d; want 4, 40000, 0", s.Tasks, s.Size, s.Failed)
	}
	if res.Threads != 4 {
		t.Errorf("threads %d, want one per file (4)", res.Threads)
	}
	for i := 0; i < 4; i++ {
		b := fs.files[fmt.Sprintf("/bench/io_data/test_io_%d", i)]
		if len(b) != 10000 || b[0] != '0' || b[49] != 'a' || b[50] != '0' || b[3000] != '0' {
			t.Errorf("file %d: len %d, pattern %q...", i, len(b), b[:60])
		}
	}
	if got := res.Snapshot.Lookup("WRITE").Codes[drivers.OK]; got != 16 {
		t.Errorf("WRITE ok count %d, want 16 (4 buffers of 3000, 3000, 3000, 1000 per file)", got)
	}
	if fl := res.Snapshot.Lookup(NameFile); fl == nil || fl.Hist.TotalCount() != 4 {
		t.Errorf("FILE series should hold one sample per file")
	}
	part := string(fs.files["/bench/io_write/part-00000"])
	if !strings.Contains(part, "l:tasks\t4\n") || !strings.Contains(part, "l:size\t40000\n") {
		t.Errorf("part-00000:\n%s", part)
	}

	// Sequential read of 2 threads over 4 files: -size bounds the bytes.
	c.Test, c.Size = Read, 7000
	j, res = runDFSIO(t, fs, c, 2)
	if s := j.Summary(res.RunTime); s.Tasks != 4 || s.Size != 4*9000 {
		// buffers of 3000 until >= 7000 bytes: 9000 per file, as Java
		t.Errorf("read: tasks %d size %d; want 4, 36000", s.Tasks, s.Size)
	}
	if res.Threads != 2 {
		t.Errorf("threads %d, want the -threads bound 2", res.Threads)
	}
	// Read beyond the file: stops at EOF.
	c.Size = 1 << 20
	j, res = runDFSIO(t, fs, c, 0)
	if s := j.Summary(res.RunTime); s.Size != 40000 {
		t.Errorf("read past EOF: size %d, want 40000", s.Size)
	}

	// Backward and skip offsets.
	c.Test, c.Size = BackwardRead, 9000
	runDFSIO(t, fs, c, 0)
	if got := fs.preads["/bench/io_data/test_io_0"]; fmt.Sprint(got) != "[7000 4000 1000]" {
		t.Errorf("backward offsets %v, want [7000 4000 1000]", got)
	}
	clear(fs.preads)
	c.Test, c.SkipSize = SkipRead, 1000
	j, res = runDFSIO(t, fs, c, 0)
	if got := fs.preads["/bench/io_data/test_io_1"]; fmt.Sprint(got) != "[0 4000 8000 12000]" {
		t.Errorf("skip offsets %v, want [0 4000 8000 12000] (the last at EOF ends the file)", got)
	}
	if s := j.Summary(res.RunTime); s.Size != 4*(3000+3000+2000) {
		t.Errorf("skip read size %d, want %d", s.Size, 4*8000)
	}
	clear(fs.preads)
	c.Test, c.Size = RandomRead, 30000
	j, res = runDFSIO(t, fs, c, 0)
	offs := fs.preads["/bench/io_data/test_io_2"]
	for _, o := range offs {
		if o < 0 || o >= 10000 {
			t.Errorf("random offset %d outside [0, 10000)", o)
		}
	}
	if s := j.Summary(res.RunTime); s.Size < 4*30000 || s.Size >= 4*33000 {
		t.Errorf("random read size %d, want 120000..132000", s.Size)
	}

	c.Test, c.Size = Append, 500
	runDFSIO(t, fs, c, 0)
	if n := len(fs.files["/bench/io_data/test_io_3"]); n != 10500 {
		t.Errorf("after append: %d bytes, want 10500", n)
	}
	c.Test, c.Size = Truncate, 2500
	j, res = runDFSIO(t, fs, c, 0)
	if s := j.Summary(res.RunTime); s.Size != 4*8000 || s.Tasks != 4 {
		t.Errorf("truncate: size %d tasks %d, want %d removed, 4", s.Size, s.Tasks, 4*8000)
	}
	if n := len(fs.files["/bench/io_data/test_io_3"]); n != 2500 {
		t.Errorf("after truncate: %d bytes, want 2500", n)
	}
	if _, ok := fs.files["/bench/io_truncate/part-00000"]; !ok {
		t.Error("no io_truncate/part-00000")
	}
}

func TestDFSIOFailuresAreCounted(t *testing.T) {
	fs := newMemFS()
	fs.failOn = "/b/io_data/test_io_1"
	j, res := runDFSIO(t, fs, Config{Test: Write, NrFiles: 3, Size: 100, BufferSize: 10, BaseDir: "/b"}, 0)
	s := j.Summary(res.RunTime)
	if s.Tasks != 2 || s.Failed != 1 || s.Size != 200 {
		t.Fatalf("tasks %d failed %d size %d; want 2, 1, 200", s.Tasks, s.Failed, s.Size)
	}
	if got := res.Snapshot.Lookup("WRITE").Codes[drivers.Error]; got != 1 {
		t.Errorf("WRITE errors %d, want 1", got)
	}
	if g := s.GobenchLines(); !strings.Contains(g[len(g)-1], "Failed files: 1 of 3 (first: /b/io_data/test_io_1: injected write failure)") {
		t.Errorf("gobench lines %q", g)
	}
	// Reading files that are not there: every open fails, the run ends.
	fs2 := newMemFS()
	j, res = runDFSIO(t, fs2, Config{Test: Read, NrFiles: 2, Size: 100, BufferSize: 10, BaseDir: "/b"}, 0)
	if s := j.Summary(res.RunTime); s.Failed != 2 || res.Snapshot.Lookup("OPEN").Codes[drivers.NotFound] != 2 {
		t.Errorf("missing files: failed %d, OPEN not found %d", s.Failed, res.Snapshot.Lookup("OPEN").Codes[drivers.NotFound])
	}
}

func TestDFSIONeedsFileSystem(t *testing.T) {
	j, _ := NewJob(DefaultConfig())
	if _, err := j.NewTask(0, driverstest.UnsupportedConn{}, rand.New(rand.NewPCG(1, 2)), engine.NewMeter(engine.DefaultSettings(), j)); err == nil {
		t.Fatal("a Conn without file streams must be refused")
	}
}

func TestDFSIODecode(t *testing.T) {
	var set props.Set
	for k, v := range map[string]string{KeyTest: "random", KeyNrFiles: "12",
		KeySize: "10", KeyBufferSize: "65536", "threadcount": "5"} {
		set.Add(props.Value{Key: k, Value: v, Source: "test"})
	}
	d := props.NewDecoder(&set)
	settings := engine.DefaultSettings()
	settings.Threads, settings.Ops = 5, 1000
	job, err := Kind.Build(&engine.Build{Phase: engine.Load, Settings: &settings, Props: d})
	if err != nil || d.Err() != nil {
		t.Fatalf("Build: %v / %v", err, d.Err())
	}
	j := job.(*Job)
	want := Config{Test: RandomRead, NrFiles: 12, Size: 10 << 20, BufferSize: 65536, BaseDir: DefaultBaseDir}
	if j.Config() != want {
		t.Errorf("config %+v, want %+v", j.Config(), want)
	}
	if settings.Threads != 5 || settings.Ops != 0 {
		t.Errorf("settings threads %d ops %d; want 5 (threadcount bounds the files at once), 0", settings.Threads, settings.Ops)
	}
	var bad props.Set
	bad.Add(props.Value{Key: "workload", Value: "dfsio", Source: "t"})
	bad.Add(props.Value{Key: KeyTest, Value: "rite", Source: "t"})
	bad.Add(props.Value{Key: KeyCodec, Value: "org.apache.hadoop.io.compress.GzipCodec", Source: "t"})
	d = props.NewDecoder(&bad)
	Decode(d)
	msg := fmt.Sprint(d.Err())
	if !strings.Contains(msg, "dfsio.test") || !strings.Contains(msg, "not supported") {
		t.Errorf("errors %q should name dfsio.test and the unsupported codec", msg)
	}
}

// One buffer of I/O allocates nothing in the workload (the driver's own
// allocations are its business).
func TestDFSIOStepAllocs(t *testing.T) {
	j, _ := NewJob(Config{Test: Write, NrFiles: 1, Size: 1 << 40, BufferSize: 4096, BaseDir: "/b"})
	m := engine.NewMeter(engine.DefaultSettings(), j)
	task, err := j.NewTask(0, &discardConn{}, rand.New(rand.NewPCG(1, 2)), m)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	task.Step(ctx) // prepare + open
	if a := testing.AllocsPerRun(1000, func() { task.Step(ctx) }); a != 0 {
		t.Errorf("write step: %v allocs, want 0", a)
	}
	j2, _ := NewJob(Config{Test: RandomRead, NrFiles: 1, Size: 1 << 40, BufferSize: 4096, BaseDir: "/b"})
	task, _ = j2.NewTask(0, &discardConn{}, rand.New(rand.NewPCG(1, 2)), m)
	task.Step(ctx)
	if a := testing.AllocsPerRun(1000, func() { task.Step(ctx) }); a != 0 {
		t.Errorf("random read step: %v allocs, want 0", a)
	}
}

func BenchmarkDFSIOWriteStep(b *testing.B) {
	j, _ := NewJob(Config{Test: Write, NrFiles: 1, Size: 1 << 62, BufferSize: 4096, BaseDir: "/b"})
	m := engine.NewMeter(engine.DefaultSettings(), j)
	task, _ := j.NewTask(0, &discardConn{}, rand.New(rand.NewPCG(1, 2)), m)
	ctx := context.Background()
	task.Step(ctx)
	b.ReportAllocs()
	b.SetBytes(4096)
	for b.Loop() {
		task.Step(ctx)
	}
}

// discardConn is a FileSystem whose files are endless and whose writes
// vanish.
type discardConn struct{ driverstest.UnsupportedConn }

type endless struct{}

func (endless) Write(b []byte) (int, error)           { return len(b), nil }
func (endless) Read(b []byte) (int, error)            { return len(b), nil }
func (endless) ReadAt(b []byte, _ int64) (int, error) { return len(b), nil }
func (endless) Close() error                          { return nil }
func (endless) Size() int64                           { return 1 << 40 }
func (*discardConn) Create(context.Context, string, int) (io.WriteCloser, error) {
	return endless{}, nil
}
func (*discardConn) Append(context.Context, string, int) (io.WriteCloser, error) {
	return endless{}, nil
}
func (*discardConn) Open(context.Context, string) (drivers.FileReader, error) { return endless{}, nil }
func (*discardConn) Size(context.Context, string) (int64, error)              { return 1 << 40, nil }
func (*discardConn) Truncate(context.Context, string, int64) (bool, error)    { return true, nil }
func (*discardConn) RemoveAll(context.Context, string) error                  { return nil }

func TestDFSIOProgress(t *testing.T) {
	fs := newMemFS()
	j, _ := runDFSIO(t, fs, Config{Test: Write, NrFiles: 3, Size: 1000, BufferSize: 300, BaseDir: "/p"}, 0)
	if files, b := j.Progress(); files != 3 || b != 3000 {
		t.Errorf("Progress() = %d files, %d bytes; want 3, 3000", files, b)
	}
}
