package hive

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
)

// Scale is how big each table is: Bytes of text per table (the report used
// about 4 GB each), or Rows per table; exactly one is set.
type Scale struct {
	Bytes int64
	Rows  int64
}

// ParseScale reads a scale: a size with a unit (16MB, 4GB; KB, MB, GB, TB
// are powers of 1024) is bytes per table; a plain number, or a number
// with "rows", is rows per table.
func ParseScale(s string) (Scale, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if n, ok := strings.CutSuffix(t, "rows"); ok {
		t = strings.TrimSpace(n)
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil || v < 1 {
			return Scale{}, errors.New("want a number of rows >= 1")
		}
		return Scale{Rows: v}, nil
	}
	if v, err := strconv.ParseInt(t, 10, 64); err == nil {
		if v < 1 {
			return Scale{}, errors.New("want a number of rows >= 1")
		}
		return Scale{Rows: v}, nil
	}
	mult := int64(1)
	for _, u := range []struct {
		s string
		m int64
	}{{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}, {"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}} {
		if n, ok := strings.CutSuffix(t, u.s); ok {
			t, mult = strings.TrimSpace(n), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 || f*float64(mult) > 1<<50 {
		return Scale{}, errors.New("want bytes per table with a unit (16MB, 4GB) or rows per table (100000)")
	}
	return Scale{Bytes: int64(f * float64(mult))}, nil
}

func (s Scale) String() string {
	if s.Rows > 0 {
		return fmt.Sprintf("%d rows per table", s.Rows)
	}
	return fmt.Sprintf("%s per table", formatBytes(s.Bytes))
}

func formatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return strconv.FormatFloat(float64(b)/(1<<30), 'f', -1, 64) + " GB"
	case b >= 1<<20:
		return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + " MB"
	case b >= 1<<10:
		return strconv.FormatFloat(float64(b)/(1<<10), 'f', 1, 64) + " KB"
	}
	return strconv.FormatInt(b, 10) + " B"
}

// NewDataset sizes the data set of seed at scale: with bytes, each table
// gets the rows that fill about that many bytes (the mean line length is
// measured on its first 4096 rows).
func NewDataset(seed uint64, s Scale) Dataset {
	d := Dataset{Seed: seed}
	if s.Rows > 0 {
		for t := range d.Rows {
			d.Rows[t] = s.Rows
		}
		return d
	}
	// Transactions' lines depend on the other tables' sizes (id digits):
	// size books and customers first, with a provisional guess for them.
	for t := range d.Rows {
		d.Rows[t] = max(s.Bytes/64, 1)
	}
	for _, t := range Tables() {
		d.Rows[t] = max(1, s.Bytes*sampleRows/d.sampleBytes(t))
	}
	return d
}

const sampleRows = 4096

func (d *Dataset) sampleBytes(t Table) int64 {
	var buf []byte
	var n int64
	for id := int64(1); id <= sampleRows; id++ {
		buf = d.AppendRow(buf[:0], t, id)
		n += int64(len(buf))
	}
	return n
}

// String describes the data set (for logs and the tables' property).
func (d Dataset) String() string {
	return fmt.Sprintf("gobench-hive v%d seed=%d books=%d customers=%d transactions=%d",
		GeneratorVersion, d.Seed, d.Rows[Books], d.Rows[Customers], d.Rows[Transactions])
}

// Sink is where the generator writes its files: a local directory
// ([LocalDir]) or a drivers.FileSystem ([FileSystemSink], HDFS). Names are
// slash-separated, relative to the sink's root.
type Sink interface {
	Create(ctx context.Context, name string) (io.WriteCloser, error)
	ReadFile(ctx context.Context, name string) ([]byte, error)
	RemoveAll(ctx context.Context, name string) error
}

// LocalDir is a [Sink] on the local file system, rooted at a directory.
type LocalDir string

// Create implements [Sink].
func (l LocalDir) Create(_ context.Context, name string) (io.WriteCloser, error) {
	p := filepath.Join(string(l), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	return os.Create(p)
}

// ReadFile implements [Sink].
func (l LocalDir) ReadFile(_ context.Context, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(l), filepath.FromSlash(name)))
}

// RemoveAll implements [Sink].
func (l LocalDir) RemoveAll(_ context.Context, name string) error {
	return os.RemoveAll(filepath.Join(string(l), filepath.FromSlash(name)))
}

// FileSystemSink is a [Sink] on a driver's file system (the hdfs driver's
// Conn), rooted at Root ("/user/gobench/hive-data").
type FileSystemSink struct {
	FS   drivers.FileSystem
	Root string
	mu   sync.Mutex // a Conn's FileSystem is used by one goroutine at a time
}

// Create implements [Sink]. Writes go through the one FileSystem, so the
// parts of a table are written one after another.
func (f *FileSystemSink) Create(ctx context.Context, name string) (io.WriteCloser, error) {
	f.mu.Lock()
	w, err := f.FS.Create(ctx, path.Join(f.Root, name), 1<<20)
	if err != nil {
		f.mu.Unlock()
		return nil, err
	}
	return &lockedWriter{w: w, unlock: f.mu.Unlock}, nil
}

// ReadFile implements [Sink].
func (f *FileSystemSink) ReadFile(ctx context.Context, name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.FS.Open(ctx, path.Join(f.Root, name))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// RemoveAll implements [Sink].
func (f *FileSystemSink) RemoveAll(ctx context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.FS.RemoveAll(ctx, path.Join(f.Root, name))
}

type lockedWriter struct {
	w      io.WriteCloser
	unlock func()
	once   sync.Once
}

func (l *lockedWriter) Write(p []byte) (int, error) { return l.w.Write(p) }
func (l *lockedWriter) Close() error {
	err := l.w.Close()
	l.once.Do(l.unlock)
	return err
}

// manifestName is the file, at the sink's root, that records which data
// set the part files hold; it is written last, so a generation that was
// interrupted never looks complete. Hive skips files starting with "_".
const manifestName = "_gobench_dataset"

// partRows bounds a part file to about 128 MB.
func (d *Dataset) partRows(t Table, workers int) int64 {
	avg := max(d.sampleBytes(t)/sampleRows, 1)
	per := max((128<<20)/avg, 1)
	if n := d.Rows[t]; n/int64(workers) >= 10000 && n/int64(workers) < per {
		per = (n + int64(workers) - 1) / int64(workers)
	}
	return per
}

// GenStats is what a generation wrote.
type GenStats struct {
	Bytes [numTables]int64
	Files [numTables]int
	Time  time.Duration
	Reuse bool // the sink already held this data set
}

// Generate writes the data set under the sink's root, each table in
// <table>/part-NNNNN files of about 128 MB (at least one per worker for
// big tables), with workers goroutines. When the root already holds this
// data set (its manifest matches) it writes nothing and says so.
func (d *Dataset) Generate(ctx context.Context, sink Sink, workers int) (GenStats, error) {
	t0 := time.Now()
	var st GenStats
	if b, err := sink.ReadFile(ctx, manifestName); err == nil && strings.TrimSpace(string(b)) == d.String() {
		st.Reuse, st.Time = true, time.Since(t0)
		return st, nil
	}
	workers = max(workers, 1)
	if err := sink.RemoveAll(ctx, manifestName); err != nil {
		return st, fmt.Errorf("removing the old manifest: %w", err)
	}
	type part struct {
		t      Table
		n      int
		lo, hi int64
	}
	var parts []part
	for _, t := range Tables() {
		if err := sink.RemoveAll(ctx, t.String()); err != nil {
			return st, fmt.Errorf("removing old %s files: %w", t, err)
		}
		per := d.partRows(t, workers)
		for lo, n := int64(1), 0; lo <= d.Rows[t]; lo, n = lo+per, n+1 {
			parts = append(parts, part{t: t, n: n, lo: lo, hi: min(lo+per-1, d.Rows[t])})
		}
	}
	var next atomic.Int64
	var bytes [numTables]atomic.Int64
	var files [numTables]atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var line []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= len(parts) || ctx.Err() != nil {
					return
				}
				p := parts[i]
				n, err := d.writePart(ctx, sink, p.t, p.n, p.lo, p.hi, &line)
				bytes[p.t].Add(n)
				files[p.t].Add(1)
				if err != nil {
					errs[w] = err
					next.Store(int64(len(parts))) // stop the others
					return
				}
			}
		})
	}
	wg.Wait()
	for t := range st.Bytes {
		st.Bytes[t], st.Files[t] = bytes[t].Load(), int(files[t].Load())
	}
	if err := errors.Join(append(errs, ctx.Err())...); err != nil {
		return st, err
	}
	w, err := sink.Create(ctx, manifestName)
	if err == nil {
		_, err = io.WriteString(w, d.String()+"\n")
		err = errors.Join(err, w.Close())
	}
	st.Time = time.Since(t0)
	if err != nil {
		return st, fmt.Errorf("writing the manifest: %w", err)
	}
	return st, nil
}

// writePart writes rows lo..hi of t as part n.
func (d *Dataset) writePart(ctx context.Context, sink Sink, t Table, n int, lo, hi int64, line *[]byte) (int64, error) {
	name := fmt.Sprintf("%s/part-%05d", t, n)
	f, err := sink.Create(ctx, name)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	var total int64
	for id := lo; id <= hi; id++ {
		*line = d.AppendRow((*line)[:0], t, id)
		bw.Write(*line)
		total += int64(len(*line))
		if id&0xffff == 0 && ctx.Err() != nil {
			break
		}
	}
	err = errors.Join(bw.Flush(), f.Close())
	if err != nil {
		return total, fmt.Errorf("%s: %w", name, err)
	}
	return total, ctx.Err()
}
