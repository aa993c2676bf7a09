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

	"github.com/gobench/gobench/drivers/localfs"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/dfsio"
)

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
	test    dfsio.Test
	hasTest bool
	clean   bool
	fs      string
	resFile string
	format  dfsio.Format
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
		readSub := func(t dfsio.Test) error {
			if !a.hasTest || a.test != dfsio.Read || a.clean {
				return fmt.Errorf("%s is only allowed right after -read", arg)
			}
			a.test = t
			return nil
		}
		var err error
		var v string
		switch {
		case strings.HasPrefix(l, "-read"):
			a.test, a.hasTest, a.clean = dfsio.Read, true, false
		case l == "-write":
			a.test, a.hasTest, a.clean = dfsio.Write, true, false
		case l == "-append":
			a.test, a.hasTest, a.clean = dfsio.Append, true, false
		case l == "-truncate":
			a.test, a.hasTest, a.clean = dfsio.Truncate, true, false
		case l == "-clean":
			a.test, a.hasTest, a.clean = dfsio.Clean, true, true
		case l == "-random":
			err = readSub(dfsio.RandomRead)
		case l == "-backward":
			err = readSub(dfsio.BackwardRead)
		case l == "-skip":
			err = readSub(dfsio.SkipRead)
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
				add(dfsio.KeyNrFiles, v, arg)
			}
		case l == "-filesize" || l == "-size":
			if v, err = next(); err == nil {
				add(dfsio.KeySize, v, arg)
			}
		case l == "-skipsize":
			if v, err = next(); err == nil {
				var n int64
				if n, err = props.ParseBytes(v, props.MB); err == nil { // TestDFSIO: parseSize, MB by default
					add(dfsio.KeySkipSize, strconv.FormatInt(n, 10), arg)
				} else {
					err = fmt.Errorf("-skipSize %q: %w", v, err)
				}
			}
		case l == "-buffersize":
			if v, err = next(); err == nil {
				add(dfsio.KeyBufferSize, v, arg)
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
				if a.format, ok = dfsio.ParseFormat(v); !ok {
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
	add(dfsio.KeyTest, a.test.String(), "command line")
	return a, nil
}

// hdfsSiteKeys are the Hadoop settings the hdfs driver takes as they are
// (they override its conf directory's core-site.xml and hdfs-site.xml).
var hdfsSiteKeys = map[string]bool{"hadoop.security.authentication": true, "dfs.namenode.kerberos.principal": true,
	"dfs.data.transfer.protection": true, "dfs.encrypt.data.transfer": true, "hadoop.rpc.protection": true}

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
		if strings.HasPrefix(k, "hdfs.") || strings.HasPrefix(k, "test.") || hdfsSiteKeys[k] {
			a.set.Add(props.Value{Key: k, Value: v, Source: src})
			return
		}
		a.warns = append(a.warns, fmt.Sprintf("-D %s=%s ignored: not a setting gobench uses", k, v))
	}
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
	fsName, err := a.fileSystem()
	if err != nil {
		return usageErr(err)
	}
	a.set.Add(props.Value{Key: "workload", Value: dfsio.Kind.Name, Source: "gobench dfsio"})
	plan, err := workload.Prepare(&a.set)
	if err != nil {
		return configErr(err)
	}
	for _, w := range append(a.warns, plan.Warnings...) {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	job := plan.Job().(*dfsio.Job)
	cfg := job.Config()
	dfsio.Log(stderr, "TestDFSIO.1.8 (gobench %s, %s)", version, fsName)
	for _, l := range job.Preamble() {
		dfsio.Log(stderr, "%s", l)
	}
	if !a.clean {
		dfsio.Log(stderr, "running %s of %d files with %d workers", cfg.Test, cfg.NrFiles, plan.Threads())
	}
	stop := dfsioProgress(stderr, job, cfg.NrFiles, 10*time.Second)
	res, runErr := plan.Run(ctx, workload.WithLog(stderr))
	stop()
	if res == nil || a.clean {
		return runErr
	}
	if n := len(res.OpenErrors); n > 0 {
		fmt.Fprintf(stderr, "Warning: %d of %d workers could not open a connection and did nothing: %v\n", n, res.Threads, res.OpenErrors[0])
	}
	sum := job.Summary(res.RunTime)
	lines := sum.Lines(time.Now(), a.format)
	for _, l := range lines {
		dfsio.Log(stderr, "%s", l)
	}
	for _, l := range sum.GobenchLines() {
		dfsio.Log(stderr, "%s", l)
	}
	ferr := appendResults(a.resFile, lines)
	report := measure.Lines(res.Snapshot, measure.LineOptions{RunTime: res.RunTime, Type: measure.HdrHistogram})
	if err := measure.WriteText(stdout, report); err != nil {
		return err
	}
	var errs []error
	var fe *workload.FailedError
	if runErr != nil && !errors.As(runErr, &fe) {
		errs = append(errs, runErr) // failed files are reported below, by name
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

// fileSystem turns -fs into the driver's properties: file:///dir is the
// localfs driver at dir, hdfs://host:port (the default, at hdfs.namenode)
// the hdfs driver. It returns the name the log line shows.
func (a *dfsioArgs) fileSystem() (string, error) {
	u, err := url.Parse(a.fs)
	if err != nil {
		return "", fmt.Errorf("-fs %q: %w", a.fs, err)
	}
	add := func(k, v string) { a.set.Add(props.Value{Key: k, Value: v, Source: "-fs"}) }
	switch u.Scheme {
	case "file":
		root := u.Path
		if root == "" {
			root = "/"
		}
		add("db", "localfs")
		add(localfs.KeyRoot, root)
		if a.sync {
			a.set.Add(props.Value{Key: localfs.KeySync, Value: "true", Source: "-sync"})
		}
		return "local file system " + root, nil
	case "", "hdfs":
		add("db", "hdfs")
		if u.Host != "" {
			add("hdfs.namenode", u.Host)
		}
		if a.sync {
			a.warns = append(a.warns, "-sync applies to -fs file:// only; ignored")
		}
		nn := "127.0.0.1:9000"
		if v, ok := a.set.Get("hdfs.namenode"); ok {
			nn = v.Value
		} else if v, ok := a.set.Get("hdfs.conf.dir"); ok {
			return "hdfs (fs.defaultFS of " + v.Value + ")", nil
		} else if d := os.Getenv("HADOOP_CONF_DIR"); d != "" {
			return "hdfs (fs.defaultFS of " + d + ")", nil
		}
		return "hdfs://" + nn, nil
	}
	return "", fmt.Errorf("-fs %q: allowed: hdfs://host:port or file:///dir", a.fs)
}

// dfsioProgress logs the files finished and the MB processed every
// interval until the returned stop is called.
func dfsioProgress(w io.Writer, job *dfsio.Job, n int, every time.Duration) (stop func()) {
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
			case <-t.C: // the time of the read, not the tick's due time (stale when late)
				now := time.Now()
				files, b := job.Progress()
				dfsio.Log(w, "progress: %d of %d files done, %.1f MB processed in %.0f s, %.1f MB/s now",
					files, n, float64(b)/(1<<20), now.Sub(start).Seconds(), float64(b-lastB)/(1<<20)/now.Sub(last).Seconds())
				last, lastB = now, b
			}
		}
	}()
	return func() { close(done); <-finished }
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
