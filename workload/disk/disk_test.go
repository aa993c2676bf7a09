package disk_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	_ "github.com/gobench/gobench/drivers/diskfile"
	_ "github.com/gobench/gobench/drivers/pebble"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/disk"
)

func set(kv ...string) *props.Set {
	var s props.Set
	for i := 0; i+1 < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "test"})
	}
	return &s
}

func run(t *testing.T, kv ...string) (disk.Summary, error) {
	t.Helper()
	plan, err := workload.Prepare(set(append([]string{"workload", "disk", "db", "diskfile"}, kv...)...))
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	_, err = plan.Run(context.Background())
	return plan.Job().(*disk.Job).Summary(), err
}

// A write then a read of two files in each of two directories, through
// Prepare and Run: every file has the size asked, holds what was written
// (not zeros), is read back whole with O_DIRECT, and is removed after.
func TestWriteThenReadBackThroughPrepare(t *testing.T) {
	root := t.TempDir()
	dirs := filepath.Join(root, "d1") + "," + filepath.Join(root, "d2")
	for _, flags := range [][]string{
		{"diskfile.conv", "fdatasync"},
		{"diskfile.oflag", "direct", "diskfile.conv", "none"},
		{"diskfile.oflag", "dsync"},
	} {
		kv := append([]string{"disk.dirs", dirs, "disk.files", "2", "disk.bs", "4K", "disk.size", "1MB"}, flags...)
		ws, err := run(t, append(kv, "disk.test", "write")...)
		if err != nil {
			t.Fatalf("%v write: %v", flags, err)
		}
		if len(ws.Files) != 4 || ws.Failed != 0 || ws.Bytes != 4<<20 {
			t.Fatalf("%v write summary: %d files, %d failed, %d bytes", flags, len(ws.Files), ws.Failed, ws.Bytes)
		}
		for _, f := range ws.Files {
			b, err := os.ReadFile(f.Name)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != 1<<20 || f.Full != 256 || f.Partial != 0 {
				t.Fatalf("%s: %d bytes on disk, %d+%d records; want 1 MiB, 256+0", f.Name, len(b), f.Full, f.Partial)
			}
			if bytes.Count(b, []byte{0}) > len(b)/100 {
				t.Fatalf("%s: mostly zeros; want the random block", f.Name)
			}
			if f.Time <= 0 || f.End <= f.Start {
				t.Fatalf("%s: time %v (start %v, end %v)", f.Name, f.Time, f.Start, f.End)
			}
		}
		rs, err := run(t, append(kv, "disk.test", "read")...)
		if err != nil {
			t.Fatalf("%v read: %v", flags, err)
		}
		if rs.Bytes != 4<<20 || rs.Failed != 0 || rs.MBps() <= 0 {
			t.Fatalf("%v read: %d bytes, %d failed, %.1f MB/s", flags, rs.Bytes, rs.Failed, rs.MBps())
		}
		for _, f := range rs.Files {
			if !f.Removed {
				t.Errorf("%s not removed after the read (%v)", f.Name, f.RemoveErr)
			}
			if _, err := os.Stat(f.Name); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s still there: %v", f.Name, err)
			}
		}
	}
}

// A size that is not a multiple of the block: dd's "2+1 records", with
// O_DIRECT writes (the short last block goes without it) and reads.
func TestPartialLastBlock(t *testing.T) {
	dir := t.TempDir()
	kv := []string{"disk.dirs", dir, "disk.bs", "4096", "disk.size", "10000", "diskfile.oflag", "direct"}
	ws, err := run(t, append(kv, "disk.test", "write")...)
	if err != nil {
		t.Fatal(err)
	}
	if f := ws.Files[0]; f.Full != 2 || f.Partial != 1 || f.Bytes != 10000 {
		t.Fatalf("write: %d+%d records, %d bytes; want 2+1, 10000", f.Full, f.Partial, f.Bytes)
	}
	if st, err := os.Stat(filepath.Join(dir, "gobench-disk-0")); err != nil || st.Size() != 10000 {
		t.Fatalf("file on disk: %v, %v", st, err)
	}
	rs, err := run(t, append(kv, "disk.test", "read", "disk.remove", "false")...)
	if err != nil {
		t.Fatal(err)
	}
	if f := rs.Files[0]; f.Full != 2 || f.Partial != 1 || f.Bytes != 10000 || f.Removed {
		t.Fatalf("read: %d+%d records, %d bytes, removed %v; want 2+1, 10000, kept", f.Full, f.Partial, f.Bytes, f.Removed)
	}
}

// O_DIRECT with a block size the file system cannot take fails the run
// (exit 1 in the CLI) with the alignment named, and nothing is measured
// as written.
func TestDirectNeedsAlignedBlocks(t *testing.T) {
	s, err := run(t, "disk.dirs", t.TempDir(), "disk.bs", "1000", "disk.size", "10000", "diskfile.oflag", "direct")
	var fe *workload.FailedError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "multiple of") || !strings.Contains(err.Error(), "bs=1000") {
		t.Fatalf("err = %v; want a failed run naming the alignment and bs=1000", err)
	}
	if s.Failed != 1 || s.Bytes != 0 {
		t.Fatalf("summary %+v", s)
	}
}

func TestPrepareRefusesBadInputAndDriversWithoutFiles(t *testing.T) {
	_, err := workload.Prepare(set("workload", "disk", "db", "pebble", "pebble.dir", t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), "file streams") || !strings.Contains(err.Error(), "diskfile") {
		t.Fatalf("disk on pebble: %v; want the missing capability and the drivers that have it", err)
	}
	_, err = workload.Prepare(set("workload", "disk", "db", "diskfile", "disk.bs", "4Q", "disk.dirs", "rel/dir",
		"disk.test", "rewrite", "diskfile.oflag", "drect"))
	if err == nil {
		t.Fatal("bad values accepted")
	}
	for _, want := range []string{"disk.bs", "4Q", "disk.dirs", "absolute", "disk.test", "rewrite", "diskfile.oflag", "direct"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestDeclaredCapabilities(t *testing.T) {
	d, err := drivers.Lookup("diskfile")
	if err != nil {
		t.Fatal(err)
	}
	db, err := d.Configure(props.NewDecoder(set()), drivers.Schema{})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := db.Open(context.Background())
	if got, want := drivers.CapsOf(db), drivers.ConnCaps(c); got != want || !got.Has(drivers.CapFiles) {
		t.Fatalf("declared %v, Conn has %v", got.Names(), want.Names())
	}
}
