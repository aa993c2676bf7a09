package dfsio

import (
	"errors"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// Kind is Hadoop's TestDFSIO as a workload kind (workload=dfsio), for
// example `gobench run -db hdfs -p workload=dfsio -p dfsio.test=write
// -p dfsio.nrfiles=4 -p dfsio.size=64MB`: the run prints YCSB's report of
// the OPEN, WRITE/READ/APPEND/TRUNCATE, CLOSE and FILE measurements. `gobench
// dfsio` takes TestDFSIO's own options and also prints TestDFSIO's summary
// ([Job.Summary]). The phase (load or run) does not matter, and
// threadcount, when given, bounds the files processed at once.
var Kind = engine.Kind{
	Name:    "dfsio",
	Summary: "Hadoop's TestDFSIO: write, read (sequential, random, backward, skip), append, truncate or clean N files of size S",
	Command: "dfsio",
	Needs:   drivers.CapFiles,
	Keys:    Keys(),
	Build:   build,
}

// build decodes the dfsio properties; the files, not an op count, bound the
// run, and threadcount, when given, bounds the files processed at once.
func build(b *engine.Build) (engine.Job, error) {
	c, err := Decode(b.Props)
	limit := 0
	if _, ok := b.Props.Lookup("threadcount"); ok {
		limit = b.Settings.Threads
	}
	b.Settings.Threads = c.Workers(limit)
	if c.Test == Clean {
		b.Settings.Threads = 1
	}
	b.Settings.Ops = 0
	if err != nil {
		return nil, err
	}
	return NewJob(c)
}

// Test is one of TestDFSIO's test types.
type Test uint8

// TestDFSIO's test types.
const (
	Write        Test = iota // -write
	Read                     // -read
	RandomRead               // -read -random
	BackwardRead             // -read -backward
	SkipRead                 // -read -skip
	Append                   // -append
	Truncate                 // -truncate
	Clean                    // -clean: delete the base directory
)

var tests = [...]struct{ key, name, dir, op string }{
	Write:        {"write", "write", "io_write", "WRITE"},
	Read:         {"read", "read", "io_read", "READ"},
	RandomRead:   {"random", "random read", "io_random_read", "READ"},
	BackwardRead: {"backward", "backward read", "io_random_read", "READ"},
	SkipRead:     {"skip", "skip read", "io_random_read", "READ"},
	Append:       {"append", "append", "io_append", "APPEND"},
	Truncate:     {"truncate", "truncate", "io_truncate", "TRUNCATE"},
	Clean:        {"clean", "clean", "", "CLEAN"},
}

// String is TestDFSIO's name of the test, as printed after
// "----- TestDFSIO ----- : " ("write", "random read", ...).
func (t Test) String() string { return tests[t].name }

// ParseTest parses a dfsio.test value: write, read, random, backward,
// skip, append, truncate or clean (TestDFSIO's printed names such as "random read"
// are accepted too).
func ParseTest(s string) (Test, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, t := range tests {
		if s == t.key || s == t.name {
			return Test(i), true
		}
	}
	return 0, false
}

func testKeys() string {
	k := make([]string, len(tests))
	for i, t := range tests {
		k[i] = t.key
	}
	return strings.Join(k, ", ")
}

// DFSIO property keys. TestDFSIO's own configuration keys keep their Hadoop
// names so that `-D test.build.data=/x` means the same in both tools.
const (
	KeyTest       = "dfsio.test"               // write, read, random, backward, skip, append, truncate
	KeyNrFiles    = "dfsio.nrfiles"            // -nrFiles
	KeySize       = "dfsio.size"               // -size / -fileSize; plain number = MB
	KeyBufferSize = "test.io.file.buffer.size" // -bufferSize
	KeySkipSize   = "test.io.skip.size"        // -skipSize
	KeyBaseDir    = "test.build.data"          // base directory
	KeyCodec      = "test.io.compression.class"
)

// Defaults of TestDFSIO 3.x.
const (
	DefaultBaseDir    = "/benchmarks/TestDFSIO"
	DefaultBufferSize = 1000000 // bytes, not 1 MiB
	DefaultSize       = 1 << 20
)

// Keys lists the dfsio properties for help and unknown-key hints.
func Keys() []props.Key {
	return []props.Key{
		{Name: KeyTest, Default: "write", Usage: "the test: " + testKeys()},
		{Name: KeyNrFiles, Default: "1", Usage: "number of files, one worker (map) each"},
		{Name: KeySize, Default: "1MB", Usage: "bytes per file (plain number = MB; units B, KB, MB, GB, TB)"},
		{Name: KeyBufferSize, Default: strconv.Itoa(DefaultBufferSize), Usage: "bytes per I/O call"},
		{Name: KeySkipSize, Default: "0", Usage: "skip read: bytes skipped after each buffer (0 = buffer size)"},
		{Name: KeyBaseDir, Default: DefaultBaseDir, Usage: "base directory (io_data, io_write, ... below it)"},
	}
}

// Config is what a TestDFSIO run does.
type Config struct {
	Test       Test
	NrFiles    int    // number of files (TestDFSIO's map tasks)
	Size       int64  // bytes per file: written, appended, read at most, or the truncated length
	BufferSize int    // bytes per I/O call
	SkipSize   int64  // skip read: bytes skipped after each buffer; 0 = BufferSize
	BaseDir    string // test.build.data
}

// DefaultConfig is TestDFSIO's default: one file of 1 MB written with
// 1 000 000-byte buffers under /benchmarks/TestDFSIO.
func DefaultConfig() Config {
	return Config{Test: Write, NrFiles: 1, Size: DefaultSize, BufferSize: DefaultBufferSize, BaseDir: DefaultBaseDir}
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
	}
	if int(c.Test) >= len(tests) {
		bad(KeyTest, int(c.Test), "unknown test; allowed: "+testKeys())
	}
	if c.NrFiles < 1 {
		bad(KeyNrFiles, c.NrFiles, "must be at least 1")
	}
	if c.Size < 0 {
		bad(KeySize, c.Size, "must be >= 0")
	}
	if c.BufferSize < 1 {
		bad(KeyBufferSize, c.BufferSize, "must be at least 1 byte")
	}
	if c.SkipSize < 0 {
		bad(KeySkipSize, c.SkipSize, "must be >= 0")
	}
	if !strings.HasPrefix(c.BaseDir, "/") {
		bad(KeyBaseDir, c.BaseDir, "must be an absolute path")
	}
	return errors.Join(errs...)
}

// DataDir is the directory of the benchmark files (<base>/io_data).
func (c Config) DataDir() string { return path.Join(c.BaseDir, "io_data") }

// FileName is the path of file i (<base>/io_data/test_io_<i>).
func (c Config) FileName(i int) string {
	return c.DataDir() + "/test_io_" + strconv.Itoa(i)
}

// OutputDir is where TestDFSIO's reducer writes part-00000 for this test
// (<base>/io_write, io_read, io_random_read, io_append or io_truncate).
func (c Config) OutputDir() string { return path.Join(c.BaseDir, tests[c.Test].dir) }

// skip returns the offset step rule of positional reads as TestDFSIO's
// test.io.skip.size: 0 random, > 0 skip, < 0 backward.
func (c Config) skip() int64 {
	switch c.Test {
	case BackwardRead:
		return -int64(c.BufferSize)
	case SkipRead:
		if c.SkipSize == 0 {
			return int64(c.BufferSize)
		}
		return c.SkipSize
	}
	return 0
}

// Workers is the number of workers: one per file, at most limit when
// limit > 0 (TestDFSIO's maps run in waves when the cluster has fewer
// containers than files).
func (c Config) Workers(limit int) int {
	if limit > 0 && limit < c.NrFiles {
		return limit
	}
	return c.NrFiles
}

// Decode reads the dfsio properties from d. Problems with single values
// are recorded in d (read them with d.Err()); Decode returns Validate's.
func Decode(d *props.Decoder) (Config, error) {
	c := DefaultConfig()
	if v, ok := d.Lookup(KeyTest); ok {
		if t, ok := ParseTest(v.Value); ok {
			c.Test = t
		} else {
			d.Fail(&props.Error{Key: KeyTest, Value: v.Value, Source: v.Source, Line: v.Line,
				Err: errors.New("unknown test"), Allowed: testKeys()})
		}
	}
	c.NrFiles = d.IntRange(KeyNrFiles, c.NrFiles, 1, math.MaxInt32)
	c.Size = d.BytesUnit(KeySize, c.Size, props.MB)
	c.BufferSize = d.IntRange(KeyBufferSize, c.BufferSize, 1, math.MaxInt32)
	c.SkipSize = d.BytesUnit(KeySkipSize, c.SkipSize, 1)
	c.BaseDir = d.String(KeyBaseDir, c.BaseDir)
	if v, ok := d.Lookup(KeyCodec); ok && v.Value != "" {
		d.Fail(&props.Error{Key: KeyCodec, Value: v.Value, Source: v.Source, Line: v.Line,
			Err: errors.New("compression codecs are Java classes and are not supported; gobench measures uncompressed streams")})
	}
	return c, c.Validate()
}
