package disk

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

// Kind is dd's disk test as a workload kind (workload=disk), for example
// `gobench run -db diskfile -p workload=disk -p disk.test=write -p
// disk.bs=4096 -p disk.size=1GB -p disk.dirs=/data1,/data2`. One worker per
// file; the phase does not matter; threadcount and operationcount are the
// kind's (the files decide them).
var Kind = engine.Kind{
	Name:    "disk",
	Summary: "dd's disk test: write or read back a file per worker in blocks of a size, several disks at once",
	Command: "disk",
	Needs:   drivers.CapFiles,
	Keys:    Keys(),
	Build: func(b *engine.Build) (engine.Job, error) {
		c, err := Decode(b.Props)
		if err != nil {
			return nil, err
		}
		b.Settings.Threads = len(c.Paths())
		b.Settings.Ops = 0
		return NewJob(c)
	},
}

// Test is the direction of a run.
type Test uint8

// The two directions.
const (
	Write Test = iota // write the files (dd if=/dev/zero of=FILE)
	Read              // read them back (dd if=FILE of=/dev/null)
)

func (t Test) String() string { return [...]string{"write", "read"}[t] }

// Op is the name of the test's block operation in the report.
func (t Test) Op() string { return [...]string{"WRITE", "READ"}[t] }

// Property keys.
const (
	KeyTest   = "disk.test"   // write or read
	KeyBS     = "disk.bs"     // block size in bytes
	KeySize   = "disk.size"   // bytes per file
	KeyDirs   = "disk.dirs"   // directories, one file set each
	KeyFiles  = "disk.files"  // files per directory
	KeyName   = "disk.name"   // file name prefix
	KeyRemove = "disk.remove" // remove each file after reading it
)

// Defaults.
const (
	DefaultBS   = 1 << 20
	DefaultSize = 1 << 30
	DefaultName = "gobench-disk"
)

// Keys lists the disk properties.
func Keys() []props.Key {
	return []props.Key{
		{Name: KeyTest, Default: "write", Usage: "write, or read (back what a write run left)", Show: true},
		{Name: KeyBS, Default: "1MB", Usage: "block size: bytes per write or read call (binary units: 4K, 1M)", Show: true},
		{Name: KeySize, Default: "1GB", Usage: "bytes per file (a read stops at the end of the file)", Show: true},
		{Name: KeyDirs, Usage: "directories (comma list; required), one per disk; the files of all are written at once", Show: true},
		{Name: KeyFiles, Default: "1", Usage: "files per directory, one worker each"},
		{Name: KeyName, Default: DefaultName, Usage: "file name prefix: <dir>/<name>-<i>"},
		{Name: KeyRemove, Default: "true", Usage: "read: remove each file after it was read"},
	}
}

// Config is one disk run.
type Config struct {
	Test      Test
	BlockSize int
	Size      int64 // bytes per file (write); at most this many (read)
	Dirs      []string
	Files     int // per directory
	Name      string
	Remove    bool // read: remove each file once read
}

// DefaultConfig writes one 1 GiB file in 1 MiB blocks; Dirs must be set.
func DefaultConfig() Config {
	return Config{Test: Write, BlockSize: DefaultBS, Size: DefaultSize, Files: 1, Name: DefaultName, Remove: true}
}

// Paths lists the files, directory by directory: <dir>/<name>-<i>.
func (c Config) Paths() []string {
	var p []string
	for _, d := range c.Dirs {
		for i := 0; i < c.Files; i++ {
			p = append(p, path.Join(d, c.Name+"-"+strconv.Itoa(i)))
		}
	}
	return p
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(key string, val any, why string) {
		errs = append(errs, &props.Error{Key: key, Value: fmt.Sprint(val), Err: errors.New(why)})
	}
	if c.Test > Read {
		bad(KeyTest, int(c.Test), "allowed: write, read")
	}
	if c.BlockSize < 1 {
		bad(KeyBS, c.BlockSize, "must be at least 1 byte")
	}
	if c.Size < 1 {
		bad(KeySize, c.Size, "must be at least 1 byte")
	}
	if c.Files < 1 {
		bad(KeyFiles, c.Files, "must be at least 1")
	}
	if len(c.Dirs) == 0 {
		bad(KeyDirs, "", "give at least one directory")
	}
	for _, d := range c.Dirs {
		if !strings.HasPrefix(d, "/") {
			bad(KeyDirs, d, "each directory must be an absolute path")
		}
	}
	if c.Name == "" || strings.Contains(c.Name, "/") {
		bad(KeyName, c.Name, "must be a file name without '/'")
	}
	seen := map[string]bool{}
	for _, d := range c.Dirs {
		if seen[path.Clean(d)] {
			bad(KeyDirs, d, "directory given twice (use disk.files for several files in one directory)")
		}
		seen[path.Clean(d)] = true
	}
	return errors.Join(errs...)
}

// Decode reads the disk properties; problems with single values are
// recorded in d, and Decode returns them with Validate's.
func Decode(d *props.Decoder) (Config, error) {
	before := len(d.Errs())
	c := DefaultConfig()
	switch d.Enum(KeyTest, "write", "write", "read") {
	case "read":
		c.Test = Read
	}
	if bs := d.Bytes(KeyBS, DefaultBS); bs > math.MaxInt32 {
		d.Failf(KeyBS, "a block size of at most 2 GiB, not %d bytes", bs)
	} else {
		c.BlockSize = int(bs)
	}
	c.Size = d.Bytes(KeySize, c.Size)
	if _, ok := d.Require(KeyDirs); ok {
		c.Dirs = d.Strings(KeyDirs, nil)
	}
	c.Files = d.IntRange(KeyFiles, c.Files, 1, 1<<16)
	c.Name = d.String(KeyName, c.Name)
	c.Remove = d.Bool(KeyRemove, c.Remove)
	errs := append([]error{}, d.Errs()[before:]...)
	return c, errors.Join(append(errs, c.Validate())...)
}
