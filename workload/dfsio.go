package workload

import (
	"errors"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/gobench/gobench/props"
)

// KindDFSIO is Hadoop's TestDFSIO as a workload kind (workload=dfsio), for
// example `gobench run -db hdfs -p workload=dfsio -p dfsio.test=write
// -p dfsio.nrfiles=4 -p dfsio.size=64MB`: the run prints YCSB's report of
// the OPEN, WRITE/READ/APPEND/TRUNCATE, CLOSE and FILE measurements. `gobench
// dfsio` takes TestDFSIO's own options and also prints TestDFSIO's summary
// ([DFSIO.Summary]). The phase (load or run) does not matter, and
// threadcount, when given, bounds the files processed at once.
const KindDFSIO = "dfsio"

// DFSIOTest is one of TestDFSIO's test types.
type DFSIOTest uint8

// TestDFSIO's test types.
const (
	DFSIOWrite        DFSIOTest = iota // -write
	DFSIORead                          // -read
	DFSIORandomRead                    // -read -random
	DFSIOBackwardRead                  // -read -backward
	DFSIOSkipRead                      // -read -skip
	DFSIOAppend                        // -append
	DFSIOTruncate                      // -truncate
)

var dfsioTests = [...]struct{ key, name, dir, op string }{
	DFSIOWrite:        {"write", "write", "io_write", "WRITE"},
	DFSIORead:         {"read", "read", "io_read", "READ"},
	DFSIORandomRead:   {"random", "random read", "io_random_read", "READ"},
	DFSIOBackwardRead: {"backward", "backward read", "io_random_read", "READ"},
	DFSIOSkipRead:     {"skip", "skip read", "io_random_read", "READ"},
	DFSIOAppend:       {"append", "append", "io_append", "APPEND"},
	DFSIOTruncate:     {"truncate", "truncate", "io_truncate", "TRUNCATE"},
}

// String is TestDFSIO's name of the test, as printed after
// "----- TestDFSIO ----- : " ("write", "random read", ...).
func (t DFSIOTest) String() string { return dfsioTests[t].name }

// ParseDFSIOTest parses a dfsio.test value: write, read, random, backward,
// skip, append or truncate (TestDFSIO's printed names such as "random read"
// are accepted too).
func ParseDFSIOTest(s string) (DFSIOTest, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, t := range dfsioTests {
		if s == t.key || s == t.name {
			return DFSIOTest(i), true
		}
	}
	return 0, false
}

func dfsioTestKeys() string {
	k := make([]string, len(dfsioTests))
	for i, t := range dfsioTests {
		k[i] = t.key
	}
	return strings.Join(k, ", ")
}

// DFSIO property keys. TestDFSIO's own configuration keys keep their Hadoop
// names so that `-D test.build.data=/x` means the same in both tools.
const (
	KeyDFSIOTest       = "dfsio.test"               // write, read, random, backward, skip, append, truncate
	KeyDFSIONrFiles    = "dfsio.nrfiles"            // -nrFiles
	KeyDFSIOSize       = "dfsio.size"               // -size / -fileSize; plain number = MB
	KeyDFSIOBufferSize = "test.io.file.buffer.size" // -bufferSize
	KeyDFSIOSkipSize   = "test.io.skip.size"        // -skipSize
	KeyDFSIOBaseDir    = "test.build.data"          // base directory
	KeyDFSIOCodec      = "test.io.compression.class"
)

// Defaults of TestDFSIO 3.x.
const (
	DefaultDFSIOBaseDir    = "/benchmarks/TestDFSIO"
	DefaultDFSIOBufferSize = 1000000 // bytes, not 1 MiB
	DefaultDFSIOSize       = 1 << 20
)

// DFSIOKeys lists the dfsio properties for help and unknown-key hints.
func DFSIOKeys() []props.Key {
	return []props.Key{
		{Name: KeyDFSIOTest, Default: "write", Usage: "the test: " + dfsioTestKeys()},
		{Name: KeyDFSIONrFiles, Default: "1", Usage: "number of files, one worker (map) each"},
		{Name: KeyDFSIOSize, Default: "1MB", Usage: "bytes per file (plain number = MB; units B, KB, MB, GB, TB)"},
		{Name: KeyDFSIOBufferSize, Default: strconv.Itoa(DefaultDFSIOBufferSize), Usage: "bytes per I/O call"},
		{Name: KeyDFSIOSkipSize, Default: "0", Usage: "skip read: bytes skipped after each buffer (0 = buffer size)"},
		{Name: KeyDFSIOBaseDir, Default: DefaultDFSIOBaseDir, Usage: "base directory (io_data, io_write, ... below it)"},
	}
}

// DFSIOConfig is what a TestDFSIO run does.
type DFSIOConfig struct {
	Test       DFSIOTest
	NrFiles    int    // number of files (TestDFSIO's map tasks)
	Size       int64  // bytes per file: written, appended, read at most, or the truncated length
	BufferSize int    // bytes per I/O call
	SkipSize   int64  // skip read: bytes skipped after each buffer; 0 = BufferSize
	BaseDir    string // test.build.data
}

// DefaultDFSIOConfig is TestDFSIO's default: one file of 1 MB written with
// 1 000 000-byte buffers under /benchmarks/TestDFSIO.
func DefaultDFSIOConfig() DFSIOConfig {
	return DFSIOConfig{Test: DFSIOWrite, NrFiles: 1, Size: DefaultDFSIOSize, BufferSize: DefaultDFSIOBufferSize, BaseDir: DefaultDFSIOBaseDir}
}

// Validate reports every problem at once.
func (c DFSIOConfig) Validate() error {
	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
	}
	if int(c.Test) >= len(dfsioTests) {
		bad(KeyDFSIOTest, int(c.Test), "unknown test; allowed: "+dfsioTestKeys())
	}
	if c.NrFiles < 1 {
		bad(KeyDFSIONrFiles, c.NrFiles, "must be at least 1")
	}
	if c.Size < 0 {
		bad(KeyDFSIOSize, c.Size, "must be >= 0")
	}
	if c.BufferSize < 1 {
		bad(KeyDFSIOBufferSize, c.BufferSize, "must be at least 1 byte")
	}
	if c.SkipSize < 0 {
		bad(KeyDFSIOSkipSize, c.SkipSize, "must be >= 0")
	}
	if !strings.HasPrefix(c.BaseDir, "/") {
		bad(KeyDFSIOBaseDir, c.BaseDir, "must be an absolute path")
	}
	return errors.Join(errs...)
}

// DataDir is the directory of the benchmark files (<base>/io_data).
func (c DFSIOConfig) DataDir() string { return path.Join(c.BaseDir, "io_data") }

// FileName is the path of file i (<base>/io_data/test_io_<i>).
func (c DFSIOConfig) FileName(i int) string {
	return c.DataDir() + "/test_io_" + strconv.Itoa(i)
}

// OutputDir is where TestDFSIO's reducer writes part-00000 for this test
// (<base>/io_write, io_read, io_random_read, io_append or io_truncate).
func (c DFSIOConfig) OutputDir() string { return path.Join(c.BaseDir, dfsioTests[c.Test].dir) }

// skip returns the offset step rule of positional reads as TestDFSIO's
// test.io.skip.size: 0 random, > 0 skip, < 0 backward.
func (c DFSIOConfig) skip() int64 {
	switch c.Test {
	case DFSIOBackwardRead:
		return -int64(c.BufferSize)
	case DFSIOSkipRead:
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
func (c DFSIOConfig) Workers(limit int) int {
	if limit > 0 && limit < c.NrFiles {
		return limit
	}
	return c.NrFiles
}

// DecodeDFSIO reads the dfsio properties from d. Problems with single
// values are recorded in d (read them with d.Err()); DecodeDFSIO returns
// Validate's.
func DecodeDFSIO(d *props.Decoder) (DFSIOConfig, error) {
	c := DefaultDFSIOConfig()
	if v, ok := d.Lookup(KeyDFSIOTest); ok {
		if t, ok := ParseDFSIOTest(v.Value); ok {
			c.Test = t
		} else {
			d.Fail(&props.Error{Key: KeyDFSIOTest, Value: v.Value, Source: v.Source, Line: v.Line,
				Err: errors.New("unknown test"), Allowed: dfsioTestKeys()})
		}
	}
	c.NrFiles = d.IntRange(KeyDFSIONrFiles, c.NrFiles, 1, math.MaxInt32)
	c.Size = d.BytesUnit(KeyDFSIOSize, c.Size, props.MB)
	c.BufferSize = d.IntRange(KeyDFSIOBufferSize, c.BufferSize, 1, math.MaxInt32)
	c.SkipSize = d.BytesUnit(KeyDFSIOSkipSize, c.SkipSize, 1)
	c.BaseDir = d.String(KeyDFSIOBaseDir, c.BaseDir)
	if v, ok := d.Lookup(KeyDFSIOCodec); ok && v.Value != "" {
		d.Fail(&props.Error{Key: KeyDFSIOCodec, Value: v.Value, Source: v.Source, Line: v.Line,
			Err: errors.New("compression codecs are Java classes and are not supported; gobench measures uncompressed streams")})
	}
	return c, c.Validate()
}

func init() {
	kindBuilders[KindDFSIO] = func(s *Spec, d *props.Decoder) (Job, error) {
		c, err := DecodeDFSIO(d)
		limit := 0
		if _, ok := d.Lookup("threadcount"); ok {
			limit = s.Threads
		}
		s.Threads = c.Workers(limit)
		// The files, not an op count, bound the run; the phase does not
		// matter (each worker stops when no file is left).
		s.Phase, s.OperationCount = Transactions, 0
		if err != nil {
			return nil, err
		}
		return NewDFSIO(c)
	}
}
