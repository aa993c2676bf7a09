package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// gobench disk end to end on two temporary directories: dd's three lines
// per file and run, one table row per block size, the JSON, no file left.
func TestDiskCommandWritesReadsAndCleansUp(t *testing.T) {
	root := t.TempDir()
	d1, d2 := filepath.Join(root, "disk1"), filepath.Join(root, "disk2")
	js := filepath.Join(root, "disk.json")
	code, out, errs := gobench(t, context.Background(), "disk", "-dir", d1+","+d2, "-bs", "4096,8K", "-size", "256K", "-json", js)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	ddLine := regexp.MustCompile(`(?m)^262144 bytes \(262 kB, 256 KiB\) copied, [0-9.e-]+ s, [0-9.]+ [kMG]?B/s$`)
	if n := len(ddLine.FindAllString(errs, -1)); n != 8 {
		t.Fatalf("%d dd transfer lines, want 8 (2 files x 2 bs x write+read):\n%s", n, errs)
	}
	for _, rec := range []string{"64+0 records in", "32+0 records out"} {
		if !strings.Contains(errs, rec) {
			t.Errorf("stderr lacks %q", rec)
		}
	}
	for _, bs := range []string{"4096", "8192"} {
		if !regexp.MustCompile(`(?m)^\s+` + bs + `\s+2\s+[0-9.]+\s+\d+\s+\d+\s+[0-9.]+\s+[0-9.]+\s+\d+\s+\d+$`).MatchString(out) {
			t.Errorf("no table row for bs %s:\n%s", bs, out)
		}
	}
	var o diskOutcome
	b, err := os.ReadFile(js)
	if err != nil || json.Unmarshal(b, &o) != nil {
		t.Fatalf("json: %v\n%s", err, b)
	}
	if len(o.Runs) != 4 || o.Runs[0].Test != "write" || o.Runs[1].Test != "read" || o.Runs[0].Bytes != 2*256<<10 || o.Runs[3].BS != 8192 {
		t.Fatalf("json runs: %+v", o.Runs)
	}
	for _, d := range []string{d1, d2} {
		if left, _ := os.ReadDir(d); len(left) != 0 {
			t.Errorf("%s: files left: %v", d, left)
		}
	}
}

func TestDiskCommandBadInputExit2(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-bs", "4K,12Q", "-size", "1M"}, []string{"disk.bs", "12Q", "-bs"}},
		{[]string{"-conv", "fdatasink"}, []string{"diskfile.conv", "fdatasink", "fdatasync"}},
		{[]string{"-test", "rewrite"}, []string{"-test", "rewrite", "both, write, read"}},
		{[]string{"-files", "0"}, []string{"disk.files", "0"}},
	} {
		code, _, errs := gobench(t, context.Background(), append([]string{"disk", "-dir", dir}, c.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, errs)
			}
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("bad input wrote files: %v", left)
	}
}

// A write that fails (O_DIRECT with a block the file system cannot take)
// exits 1, says why, and skips the read of that block size.
func TestDiskCommandFailedWriteExit1(t *testing.T) {
	code, out, errs := gobench(t, context.Background(), "disk", "-dir", t.TempDir(), "-bs", "1000", "-size", "10000", "-oflag", "direct")
	if code != 1 || !strings.Contains(errs, "multiple of") || !strings.Contains(out, "failed") || !strings.Contains(out, "skipped") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// Ctrl-C during a write: the run stops at once, says what was written,
// exits 1, and leaves no file.
func TestDiskCommandInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	start := time.Now()
	code, out, errs := gobench(t, ctx, "disk", "-dir", dir, "-bs", "4K", "-size", "1G", "-oflag", "dsync")
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("took %v after the interrupt", d)
	}
	if code != 1 || !strings.Contains(out, "failed") || !strings.Contains(errs, "stopped before the end of the file") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^\d+ bytes \(.*\) copied, `).MatchString(errs) {
		t.Errorf("no dd line for what was written:\n%s", errs)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}
