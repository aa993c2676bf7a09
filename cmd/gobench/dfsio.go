package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/localfs"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
)

func init() {
	commands["dfsio"] = command{
		summary: "Hadoop's TestDFSIO: -write | -read [-random|-backward|-skip] | -append | -truncate | -clean, -nrFiles N -size S",
		run:     dfsioMain,
	}
}

const dfsioUsage = `Usage: gobench dfsio [-D key=value]... [-fs hdfs://host:port | -fs file:///dir]
         -read [-random | -backward | -skip [-skipSize Size]] | -write | -append | -truncate | -clean
         [-nrFiles N] [-size Size[B|KB|MB|GB|TB]] [-resFile resultFileName] [-bufferSize Bytes]
         [-threads N] [-format 3|mid|2] [-sync]
TestDFSIO's options (case-insensitive; -fileSize = -size; a size without unit is MB).
  -threads N   bound the files processed at once (TestDFSIO's map slots; default: one
               worker per file); -D mapreduce.local.map.tasks.maximum=N does the same
  -format F    summary of TestDFSIO 3.x (3, default), of the 2.8/3.0-alpha builds with
               "Total Throughput" (mid), or of 2.x (2); also --compat=gen-c|gen-b|gen-a
  -sync        with -fs file://, each written file reaches the disk before its close
               returns (dd conv=fsync)
  -D dfs.replication=N, -D dfs.blocksize=S and -D hdfs.*=V configure the HDFS client;
  -D test.build.data=DIR sets the base directory (default /benchmarks/TestDFSIO).
The summary goes to stderr as TestDFSIO's log lines and is appended to the result file
(default TestDFSIO_results.log); the per-operation report goes to stdout.
`

// dfsioArgs is a parsed command line.
type dfsioArgs struct {
	test    workload.DFSIOTest
	hasTest bool
	clean   bool
	fs      string
	resFile string
	format  workload.DFSIOFormat
	sync    bool // -sync: fsync local files before close
	set     props.Set
	warns   []string
}

// parseDFSIO parses TestDFSIO's arguments the way TestDFSIO.run does
// (case-insensitive; -read, -seq and -compression by prefix) plus Hadoop's
// generic -D and -fs and gobench's -threads and -format.
func parseDFSIO(args []string) (*dfsioArgs, error) {
	a := &dfsioArgs{resFile: "TestDFSIO_results.log"}
	if len(args) == 0 {
		return nil, errors.New("missing arguments")
	}
	add := func(key, value, src string) { a.set.Add(props.Value{Key: key, Value: value, Source: src}) }
	for i := 0; i < len(args); i++ {
		arg := args[i]
		l := strings.ToLower(arg)
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", arg)
			}
			i++
			return args[i], nil
		}
		readSub := func(t workload.DFSIOTest) error {
			if !a.hasTest || a.test != workload.DFSIORead || a.clean {
				return fmt.Errorf("%s is only allowed right after -read", arg)
			}
			a.test = t
			return nil
		}
		var err error
		var v string
		switch {
		case strings.HasPrefix(l, "-read"):
			a.test, a.hasTest, a.clean = workload.DFSIORead, true, false
		case l == "-write":
			a.test, a.hasTest, a.clean = workload.DFSIOWrite, true, false
		case l == "-append":
			a.test, a.hasTest, a.clean = workload.DFSIOAppend, true, false
		case l == "-truncate":
			a.test, a.hasTest, a.clean = workload.DFSIOTruncate, true, false
		case l == "-clean":
			a.hasTest, a.clean = true, true
		case l == "-random":
			err = readSub(workload.DFSIORandomRead)
		case l == "-backward":
			err = readSub(workload.DFSIOBackwardRead)
		case l == "-skip":
			err = readSub(workload.DFSIOSkipRead)
		case strings.HasPrefix(l, "-seq"):
			err = errors.New(arg + ": TestDFSIO's sequential in-client mode is not offered; gobench always runs the files in-process, one worker per file (bound it with -threads 1 for a sequential run)")
		case strings.HasPrefix(l, "-compression"):
			if v, err = next(); err == nil {
				err = fmt.Errorf("-compression %s: compression codecs are Java classes and are not supported; gobench measures uncompressed streams", v)
			}
		case l == "-storagepolicy" || l == "-erasurecodepolicy":
			if v, err = next(); err == nil {
				err = fmt.Errorf("%s %s: storage and erasure-coding policies are not supported by gobench's HDFS client; set them on the directory with `hdfs storagepolicies` / `hdfs ec` before the run", arg, v)
			}
		case l == "-nrfiles":
			if v, err = next(); err == nil {
				add(workload.KeyDFSIONrFiles, v, arg)
			}
		case l == "-filesize" || l == "-size":
			if v, err = next(); err == nil {
				add(workload.KeyDFSIOSize, v, arg)
			}
		case l == "-skipsize":
			if v, err = next(); err == nil {
				var n int64
				if n, err = props.ParseBytes(v, props.MB); err == nil { // TestDFSIO: parseSize, MB by default
					add(workload.KeyDFSIOSkipSize, strconv.FormatInt(n, 10), arg)
				} else {
					err = fmt.Errorf("-skipSize %q: %w", v, err)
				}
			}
		case l == "-buffersize":
			if v, err = next(); err == nil {
				add(workload.KeyDFSIOBufferSize, v, arg)
			}
		case l == "-resfile":
			a.resFile, err = next()
		case l == "-threads":
			if v, err = next(); err == nil {
				add("threadcount", v, arg)
			}
		case l == "-format" || l == "-compat" || l == "--compat" || strings.HasPrefix(l, "-compat=") || strings.HasPrefix(l, "--compat="):
			if _, after, ok := strings.Cut(arg, "="); ok {
				v = after
			} else {
				v, err = next()
			}
			if err == nil {
				var ok bool
				if a.format, ok = workload.ParseDFSIOFormat(v); !ok {
					err = fmt.Errorf("-format %q: allowed: 3 (TestDFSIO 3.x), mid (2.8/3.0-alpha, with Total Throughput), 2 (2.x)", v)
				}
			}
		case l == "-fs":
			a.fs, err = next()
		case l == "-sync":
			a.sync = true
		case l == "-conf":
			if v, err = next(); err == nil {
				err = fmt.Errorf("-conf %s: Hadoop XML configuration files are not read; give the settings with -D key=value and -fs", v)
			}
		case arg == "-D" || strings.HasPrefix(arg, "-D"):
			kv := strings.TrimPrefix(arg, "-D")
			if kv == "" {
				kv, err = next()
			}
			if err == nil {
				k, val, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					err = fmt.Errorf("-D %s: want key=value", kv)
				} else {
					a.defineHadoop(strings.TrimSpace(k), val)
				}
			}
		default:
			err = fmt.Errorf("illegal argument: %s", arg)
		}
		if err != nil {
			return nil, err
		}
	}
	if !a.hasTest {
		return nil, errors.New("no test given: one of -write, -read, -append, -truncate, -clean")
	}
	add(workload.KeyDFSIOTest, a.test.String(), "command line")
	return a, nil
}

// defineHadoop maps a Hadoop -D setting onto gobench's properties.
func (a *dfsioArgs) defineHadoop(k, v string) {
	src := "-D " + k
	switch k {
	case "fs.defaultFS", "fs.default.name":
		if a.fs == "" {
			a.fs = v
		}
	case "dfs.replication":
		a.set.Add(props.Value{Key: "hdfs.replication", Value: v, Source: src})
	case "dfs.blocksize", "dfs.block.size":
		a.set.Add(props.Value{Key: "hdfs.blocksize", Value: v, Source: src})
	case "mapreduce.local.map.tasks.maximum":
		a.set.Add(props.Value{Key: "threadcount", Value: v, Source: src})
	default:
		if strings.HasPrefix(k, "hdfs.") || strings.HasPrefix(k, "test.") {
			a.set.Add(props.Value{Key: k, Value: v, Source: src})
			return
		}
		a.warns = append(a.warns, fmt.Sprintf("-D %s=%s ignored: not a setting gobench uses", k, v))
	}
}

// dfsioLog prints like TestDFSIO's logger with Hadoop's stock log4j pattern.
type dfsioLog struct{ w io.Writer }

func (l dfsioLog) info(format string, args ...any) {
	fmt.Fprintf(l.w, "%s INFO fs.TestDFSIO: %s\n", time.Now().Format("06/01/02 15:04:05"), fmt.Sprintf(format, args...))
}

func dfsioMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprint(stdout, dfsioUsage)
		return nil
	}
	a, err := parseDFSIO(args)
	if err != nil {
		fmt.Fprint(stderr, dfsioUsage)
		return usageErr(fmt.Errorf("dfsio: %w", err))
	}
	log := dfsioLog{stderr}
	d := props.NewDecoder(&a.set)
	cfg, verr := workload.DecodeDFSIO(d)
	threads := d.IntRange("threadcount", 0, 1, 1<<20)
	db, dbName, dberr := dfsioDB(a.fs, d)
	if l, ok := db.(*localfs.DB); ok {
		l.Sync = a.sync
	} else if a.sync {
		a.warns = append(a.warns, "-sync applies to -fs file:// only; ignored")
	}
	var unknown []error
	for _, e := range d.Unknown(nil) {
		var pe *props.Error
		if errors.As(e, &pe) && strings.HasPrefix(pe.Key, "hdfs.") && db != nil && !strings.HasPrefix(dbName, "hdfs") {
			fmt.Fprintf(stderr, "Warning: %s ignored on %s\n", pe.Key, dbName)
			continue
		}
		unknown = append(unknown, e)
	}
	if err := errors.Join(append(append(append([]error{}, d.Errs()...), verr, dberr), unknown...)...); err != nil {
		return configErr(err)
	}
	for _, w := range a.warns {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	defer db.Close()

	log.info("TestDFSIO.1.8 (gobench %s, %s)", version, dbName)
	log.info("nrFiles = %d", cfg.NrFiles)
	mb := strconv.FormatFloat(float64(float32(cfg.Size)/(1<<20)), 'f', -1, 32)
	if !strings.Contains(mb, ".") {
		mb += ".0" // Java's Float.toString
	}
	log.info("nrBytes (MB) = %s", mb)
	log.info("bufferSize = %d", cfg.BufferSize)
	if cfg.Test == workload.DFSIOSkipRead {
		skip := cfg.SkipSize
		if skip == 0 {
			skip = int64(cfg.BufferSize)
		}
		log.info("skipSize = %d", skip)
	}
	log.info("baseDir = %s", cfg.BaseDir)
	if a.clean {
		return dfsioClean(ctx, db, cfg, log)
	}
	job, err := workload.NewDFSIO(cfg)
	if err != nil {
		return configErr(err)
	}
	// TestDFSIO writes its control files before its timer starts.
	log.info("creating control file: %d bytes, %d files", cfg.Size, cfg.NrFiles)
	if err := withFS(ctx, db, func(fs drivers.FileSystem) error { return cfg.WriteControl(ctx, fs) }); err != nil {
		return err
	}
	log.info("created control files for: %d files", cfg.NrFiles)
	spec := workload.DefaultSpec()
	spec.Threads = cfg.Workers(threads)
	spec.OperationCount = 0
	r, err := workload.NewJob(spec, job, db, workload.WithLog(stderr))
	if err != nil {
		return configErr(err)
	}
	log.info("running %s of %d files with %d workers", cfg.Test, cfg.NrFiles, spec.Threads)
	stop := dfsioProgress(log, job, cfg.NrFiles, 10*time.Second)
	res, runErr := r.Run(ctx)
	stop()
	if res == nil {
		return runErr
	}
	for _, e := range res.OpenErrors {
		fmt.Fprintf(stderr, "Error: %v\n", e)
	}
	sum := job.Summary(res.RunTime)
	lines := sum.Lines(time.Now(), a.format)
	for _, l := range lines {
		log.info("%s", l)
	}
	for _, l := range sum.GobenchLines() {
		log.info("%s", l)
	}
	ferr := appendResults(a.resFile, lines)
	report := measure.Lines(res.Snapshot, measure.LineOptions{RunTime: res.RunTime, Type: measure.HdrHistogram})
	if err := measure.WriteText(stdout, report); err != nil {
		return err
	}
	var errs []error
	if runErr != nil {
		errs = append(errs, runErr)
	}
	if err := job.PrepareErr(); err != nil {
		errs = append(errs, err)
	}
	if sum.Failed > 0 {
		errs = append(errs, fmt.Errorf("dfsio: %d of %d files failed", sum.Failed, len(sum.Files)))
	}
	if err := job.ReduceErr(); err != nil {
		errs = append(errs, err)
	}
	if res.Stopped == "interrupted" {
		errs = append(errs, errors.New("dfsio: interrupted"))
	}
	return errors.Join(append(errs, ferr)...)
}

// dfsioProgress logs the files finished and the MB processed every
// interval until the returned stop is called.
func dfsioProgress(log dfsioLog, job *workload.DFSIO, n int, every time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		start, last, lastB := time.Now(), time.Now(), int64(0)
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				files, b := job.Progress()
				log.info("progress: %d of %d files done, %.1f MB processed in %.0f s, %.1f MB/s now",
					files, n, float64(b)/(1<<20), now.Sub(start).Seconds(), float64(b-lastB)/(1<<20)/now.Sub(last).Seconds())
				last, lastB = now, b
			}
		}
	}()
	return func() { close(done); <-finished }
}

// dfsioDB opens the file system named by -fs: hdfs://host:port (the
// default, at hdfs.namenode) or file:///dir.
func dfsioDB(fs string, d *props.Decoder) (drivers.DB, string, error) {
	u, err := url.Parse(fs)
	if err != nil {
		return nil, "", usageErr(fmt.Errorf("-fs %q: %w", fs, err))
	}
	switch u.Scheme {
	case "file":
		root := u.Path
		if root == "" {
			root = "/"
		}
		return localfs.New(root), "local file system " + root, nil
	case "", "hdfs":
		if u.Host != "" {
			d.Set().Add(props.Value{Key: "hdfs.namenode", Value: u.Host, Source: "-fs"})
		}
		drv, err := drivers.Lookup("hdfs")
		if err != nil {
			return nil, "", err
		}
		db, err := drv.Configure(d, drivers.Schema{Table: "usertable"})
		if err != nil {
			return nil, "", err
		}
		nn := "127.0.0.1:9000"
		if v, ok := d.Set().Get("hdfs.namenode"); ok {
			nn = v.Value
		}
		return db, "hdfs://" + nn, nil
	}
	return nil, "", usageErr(fmt.Errorf("-fs %q: allowed: hdfs://host:port or file:///dir", fs))
}

// dfsioClean is -clean: delete the whole base directory.
func dfsioClean(ctx context.Context, db drivers.DB, cfg workload.DFSIOConfig, log dfsioLog) error {
	log.info("Cleaning up test files")
	if err := withFS(ctx, db, func(fs drivers.FileSystem) error { return fs.RemoveAll(ctx, cfg.BaseDir) }); err != nil {
		return fmt.Errorf("dfsio -clean: %w", err)
	}
	return nil
}

// withFS runs f on a connection of db, which must offer file streams.
func withFS(ctx context.Context, db drivers.DB, f func(drivers.FileSystem) error) error {
	c, err := db.Open(ctx)
	if err != nil {
		return fmt.Errorf("dfsio: %w", err)
	}
	defer c.Close(ctx)
	fs, ok := c.(drivers.FileSystem)
	if !ok {
		return errors.New("dfsio: the db offers no file streams")
	}
	return f(fs)
}

// appendResults appends the block to the result file, as TestDFSIO does
// (never truncated).
func appendResults(name string, lines []string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("dfsio: result file: %w", err)
	}
	_, werr := io.WriteString(f, strings.Join(lines, "\n")+"\n")
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("dfsio: result file %s: %w", name, err)
	}
	return nil
}
