package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gobench/gobench/drivers/diskfile"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/disk"
)

const diskAbout = `dd's disk test done right: for each block size, write a file per worker
sequentially (dd if=/dev/zero of=FILE bs=BS conv=fdatasync), then read it back
with O_DIRECT (dd if=FILE of=/dev/null bs=BS iflag=direct) so the page cache
cannot answer, and remove it. Every file of every -dir is written at once (one
directory per disk: the node's disks together). dd's own lines go to stderr per
file; the table per block size to stdout. Sizes take binary units (4K, 1M, 1G).
The field's test (report 000): -bs 1024,2048,4096,8192 on every data disk.`

// diskArgs is gobench disk's command line.
type diskArgs struct {
	dirs  []string
	files int
	bs    []string // as given, one run each
	size  string
	oflag string
	conv  string
	iflag string
	test  string // both, write, read
	keep  bool
	json  string
	quiet bool // no dd lines
}

func parseDiskArgs(args []string) (*diskArgs, bool, error) {
	a := &diskArgs{}
	fs := flag.NewFlagSet("disk", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dirs := fs.String("dir", ".", "directories, comma-separated, one per disk: the files of all are written at once")
	fs.IntVar(&a.files, "files", 1, "files per directory, written at once")
	bs := fs.String("bs", "1M", "block sizes, comma-separated: one write and one read each (e.g. 1024,2048,4096,8192,1M)")
	fs.StringVar(&a.size, "size", "1G", "bytes per file")
	fs.StringVar(&a.conv, "conv", "fdatasync", "dd's conv at the end of each written file: fdatasync, fsync or none (page cache!)")
	fs.StringVar(&a.oflag, "oflag", "none", "dd's oflag for writes: direct, dsync, sync (comma list) or none")
	fs.StringVar(&a.iflag, "iflag", "direct", "dd's iflag for the read: direct or none (the page cache may answer)")
	fs.StringVar(&a.test, "test", "both", "both (write, then read back), write, or read (files a write -keep left)")
	fs.BoolVar(&a.keep, "keep", false, "keep the files (default: removed after the read)")
	fs.StringVar(&a.json, "json", "", "also write the results as JSON to this file")
	fs.BoolVar(&a.quiet, "q", false, "leave out dd's lines per file")
	rest, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		var b strings.Builder
		printUsage(&b, fs, "gobench disk [-dir DIR[,DIR...]] [-files N] [-bs SIZE[,SIZE...]] [-size SIZE] [-conv fdatasync|fsync|none] [-oflag direct|dsync|sync] [-iflag direct|none] [-test both|write|read] [-keep] [-json FILE]", diskAbout)
		return nil, true, errors.New(b.String())
	}
	if err != nil {
		return nil, false, err
	}
	if len(rest) > 0 {
		return nil, false, fmt.Errorf("unexpected argument %q (directories go in -dir)", rest[0])
	}
	for _, d := range strings.Split(*dirs, ",") {
		if d = strings.TrimSpace(d); d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, false, fmt.Errorf("-dir %q: %w", d, err)
		}
		a.dirs = append(a.dirs, filepath.ToSlash(abs))
	}
	if len(a.dirs) == 0 {
		return nil, false, fmt.Errorf("-dir %q: give at least one directory", *dirs)
	}
	for _, b := range strings.Split(*bs, ",") {
		if b = strings.TrimSpace(b); b != "" {
			a.bs = append(a.bs, b)
		}
	}
	if len(a.bs) == 0 {
		return nil, false, fmt.Errorf("-bs %q: give at least one block size", *bs)
	}
	switch a.test {
	case "both", "write", "read":
	default:
		return nil, false, fmt.Errorf("-test %q: allowed: both, write, read", a.test)
	}
	return a, false, nil
}

// props is the property layer of one run: direction t at block size bs.
func (a *diskArgs) props(t disk.Test, bs string) *props.Set {
	var s props.Set
	add := func(k, v, src string) { s.Add(props.Value{Key: k, Value: v, Source: src}) }
	add("workload", disk.Kind.Name, "gobench disk")
	add("db", "diskfile", "gobench disk")
	add(diskfile.KeyRoot, "/", "gobench disk")
	add(disk.KeyDirs, strings.Join(a.dirs, ","), "-dir")
	add(disk.KeyFiles, strconv.Itoa(a.files), "-files")
	add(disk.KeyBS, bs, "-bs")
	add(disk.KeySize, a.size, "-size")
	add(disk.KeyTest, t.String(), "-test")
	add(disk.KeyRemove, strconv.FormatBool(!a.keep), "-keep")
	add(diskfile.KeyConv, a.conv, "-conv")
	add(diskfile.KeyOflag, a.oflag, "-oflag")
	add(diskfile.KeyIflag, a.iflag, "-iflag")
	return &s
}

// diskRun is one direction at one block size.
type diskRun struct {
	Test    string        `json:"test"`
	BS      int           `json:"bs"`
	At      time.Time     `json:"at"`
	MBps    float64       `json:"mb_per_s"` // all files together, 10⁶ B/s
	Bytes   int64         `json:"bytes"`
	Wall    time.Duration `json:"wall_ns"`
	Files   []diskFileOut `json:"files"`
	Failed  int           `json:"failed"`
	P50us   int64         `json:"block_p50_us"`
	P99us   int64         `json:"block_p99_us"`
	CloseMs float64       `json:"close_max_ms"` // the slowest close (fdatasync)
	Err     string        `json:"error,omitempty"`
	Skipped string        `json:"skipped,omitempty"`
	sum     disk.Summary
}

type diskFileOut struct {
	Name    string        `json:"name"`
	Bytes   int64         `json:"bytes"`
	Records string        `json:"records"`
	Time    time.Duration `json:"time_ns"`
	MBps    float64       `json:"mb_per_s"`
	Err     string        `json:"error,omitempty"`
}

// diskOutcome is a whole gobench disk: its settings and runs.
type diskOutcome struct {
	Dirs  []string  `json:"dirs"`
	Files int       `json:"files_per_dir"`
	Size  int64     `json:"size"`
	Conv  string    `json:"conv"`
	Oflag string    `json:"oflag"`
	Iflag string    `json:"iflag"`
	Runs  []diskRun `json:"runs"`
}

// Best returns the highest throughput of the runs of test t, and when it
// was measured.
func (o *diskOutcome) Best(t string) (mbps float64, bs int, at time.Time, ok bool) {
	for _, r := range o.Runs {
		if r.Test == t && r.Err == "" && r.Skipped == "" && r.MBps > mbps {
			mbps, bs, at, ok = r.MBps, r.BS, r.At, true
		}
	}
	return
}

// runDisk prepares every run (all problems at once, before any I/O), then
// runs them in order: per block size a write, then a read. dd's lines go to
// dd (nil: nowhere). It returns what ran even when it also fails.
func runDisk(ctx context.Context, a *diskArgs, dd, stderr io.Writer) (*diskOutcome, error) {
	var tests []disk.Test
	switch a.test {
	case "both":
		tests = []disk.Test{disk.Write, disk.Read}
	case "write":
		tests = []disk.Test{disk.Write}
	case "read":
		tests = []disk.Test{disk.Read}
	}
	type step struct {
		t    disk.Test
		bs   string
		plan *workload.Plan
	}
	var steps []step
	var errs []error
	for _, bs := range a.bs {
		for _, t := range tests {
			p, err := workload.Prepare(a.props(t, bs))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			steps = append(steps, step{t, bs, p})
		}
	}
	if len(errs) > 0 {
		for _, s := range steps {
			s.plan.Close()
		}
		return nil, configErr(dedupeErrs(errs))
	}
	cfg := steps[0].plan.Job().(*disk.Job).Config()
	o := &diskOutcome{Dirs: a.dirs, Files: a.files, Size: cfg.Size, Conv: a.conv, Oflag: a.oflag, Iflag: a.iflag}
	fmt.Fprintf(stderr, "gobench disk: %d file(s) of %s at once (%s), conv=%s oflag=%s iflag=%s\n",
		len(cfg.Paths()), disk.HumanSize(uint64(cfg.Size), true), strings.Join(a.dirs, ", "), a.conv, a.oflag, a.iflag)
	var runErr error
	writeFailed := map[string]bool{}
	for i, s := range steps {
		if err := ctx.Err(); err != nil {
			for _, r := range steps[i:] {
				r.plan.Close()
			}
			runErr = errors.New("disk: interrupted")
			break
		}
		bs := s.plan.Job().(*disk.Job).Config().BlockSize
		if s.t == disk.Read && writeFailed[s.bs] {
			s.plan.Close()
			o.Runs = append(o.Runs, diskRun{Test: "read", BS: bs, At: time.Now(), Skipped: "the write failed"})
			continue
		}
		r := diskStep(ctx, s.plan, dd)
		o.Runs = append(o.Runs, r)
		if r.Err != "" {
			runErr = errors.Join(runErr, fmt.Errorf("disk %s bs=%d: %s", r.Test, r.BS, r.Err))
			if s.t == disk.Write {
				writeFailed[s.bs] = true
			}
		}
	}
	if !a.keep {
		for _, p := range cfg.Paths() {
			os.Remove(p) // what a failed or write-only run left
		}
	}
	return o, runErr
}

// diskStep runs one plan and sums it up.
func diskStep(ctx context.Context, plan *workload.Plan, dd io.Writer) diskRun {
	job := plan.Job().(*disk.Job)
	cfg := job.Config()
	at := time.Now()
	res, err := plan.Run(ctx)
	s := job.Summary()
	r := diskRun{Test: cfg.Test.String(), BS: cfg.BlockSize, At: at, MBps: s.MBps(), Bytes: s.Bytes, Wall: s.Wall, Failed: s.Failed, sum: s}
	for _, f := range s.Files {
		fo := diskFileOut{Name: f.Name, Bytes: f.Bytes, Records: fmt.Sprintf("%d+%d", f.Full, f.Partial), Time: f.Time, MBps: f.MBps()}
		if f.Err != nil {
			fo.Err = f.Err.Error()
		}
		r.Files = append(r.Files, fo)
		if dd != nil {
			fmt.Fprintf(dd, "%s %s bs=%d:\n", cfg.Test, f.Name, cfg.BlockSize)
			for _, l := range disk.Lines(f.Bytes, f.Full, f.Partial, f.Time) {
				fmt.Fprintln(dd, l)
			}
			if f.Err != nil {
				fmt.Fprintf(dd, "error: %v\n", f.Err)
			}
		}
	}
	if res != nil {
		r.P50us, r.P99us = res.Percentile(cfg.Test.Op(), 50), res.Percentile(cfg.Test.Op(), 99)
		if c := res.Series(disk.NameClose); c != nil {
			r.CloseMs = float64(c.Max()) / 1000
		}
	}
	switch {
	case err != nil:
		r.Err = err.Error()
	case s.Failed > 0:
		r.Err = fmt.Sprintf("%d of %d files failed", s.Failed, len(s.Files))
	case res != nil && res.Stopped == "interrupted":
		r.Err = "interrupted"
	}
	return r
}

// writeDiskTable prints one row per block size: write and read MB/s.
func writeDiskTable(w io.Writer, o *diskOutcome) error {
	type row struct{ write, read *diskRun }
	var order []int
	rows := map[int]*row{}
	for i := range o.Runs {
		r := &o.Runs[i]
		if rows[r.BS] == nil {
			rows[r.BS] = &row{}
			order = append(order, r.BS)
		}
		if r.Test == "write" {
			rows[r.BS].write = r
		} else {
			rows[r.BS].read = r
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bs\tfiles\twrite MB/s\twrite p50 µs\twrite p99 µs\tclose max ms\tread MB/s\tread p50 µs\tread p99 µs\t\n")
	cell := func(r *diskRun, f func(*diskRun) string) string {
		switch {
		case r == nil:
			return "-"
		case r.Skipped != "":
			return "skipped"
		case r.Err != "":
			return "failed"
		}
		return f(r)
	}
	for _, bs := range order {
		rw := rows[bs]
		n := len(o.Dirs) * o.Files
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", bs, n,
			cell(rw.write, func(r *diskRun) string { return fmt.Sprintf("%.1f", r.MBps) }),
			cell(rw.write, func(r *diskRun) string { return strconv.FormatInt(r.P50us, 10) }),
			cell(rw.write, func(r *diskRun) string { return strconv.FormatInt(r.P99us, 10) }),
			cell(rw.write, func(r *diskRun) string { return fmt.Sprintf("%.1f", r.CloseMs) }),
			cell(rw.read, func(r *diskRun) string { return fmt.Sprintf("%.1f", r.MBps) }),
			cell(rw.read, func(r *diskRun) string { return strconv.FormatInt(r.P50us, 10) }),
			cell(rw.read, func(r *diskRun) string { return strconv.FormatInt(r.P99us, 10) }))
	}
	return tw.Flush()
}

func diskMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, help, err := parseDiskArgs(args)
	if help {
		_, werr := fmt.Fprint(stdout, err.Error())
		return werr
	}
	if err != nil {
		return usageErr(fmt.Errorf("disk: %w", err))
	}
	dd := stderr
	if a.quiet {
		dd = nil
	}
	o, runErr := runDisk(ctx, a, dd, stderr)
	if o == nil {
		return runErr
	}
	if err := writeDiskTable(stdout, o); err != nil {
		return err
	}
	if a.json != "" {
		b, err := json.MarshalIndent(o, "", "  ")
		if err == nil {
			err = os.WriteFile(a.json, append(b, '\n'), 0o644)
		}
		if err != nil {
			return errors.Join(runErr, fmt.Errorf("disk: -json: %w", err))
		}
	}
	return runErr
}

// dedupeErrs joins errors, dropping repeated lines (the same bad flag
// reported by every run's Prepare).
func dedupeErrs(errs []error) error {
	seen := map[string]bool{}
	var out []error
	for _, e := range errs {
		for _, l := range strings.Split(e.Error(), "\n") {
			if !seen[l] {
				seen[l] = true
				out = append(out, errors.New(l))
			}
		}
	}
	return errors.Join(out...)
}
