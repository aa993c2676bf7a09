package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/hive"
)

const hiveAbout = `The field report's Hive test: generate books, customers and transactions (seeded,
-scale bytes or rows per table), create and load them through HiveServer2, then run the
report's five queries (scan, aggregate, join, join3, join-again) and/or the statements of
-f FILE.sql, -repeat times on each of -concurrency sessions. Prints per query: runs,
failures, min, median, max, p95 and p99 (HDR histogram), rows returned and the first row;
then gobench's report (-json FILE: the result document, for gobench report and merge).
-verify checks every answer of the five queries against the same query computed in Go.
Any hive.* property can also be given with -p (gobench help lists them).`

// hiveFlags are `gobench hive`'s flags; only those given become properties.
type hiveFlags struct {
	fs        *flag.FlagSet
	sources   multiFlag
	overrides multiFlag
	status    bool
	verify    bool
	printSQL  bool
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// hiveFlagKeys maps each value flag to its property.
var hiveFlagKeys = []struct{ flag, key, usage string }{
	{"server", "hive.server", "HiveServer2 host:port (default 127.0.0.1:10000)"},
	{"scale", hive.KeyScale, "size of each table: 16MB, 4GB (the report) or rows, 100000 (default 16MB)"},
	{"data", hive.KeyDataDir, "directory for the generated files, seen by HiveServer2, or hdfs://host:port/dir (default ./gobench-hive-data)"},
	{"queries", hive.KeyQueries, "built-in queries: all, none or a list of scan,aggregate,join,join3,join-again (q1..q5) (default all, none with -f)"},
	{"f", hive.KeySQLFile, "a .sql file of queries to run (split on ;, named by -- name: NAME)"},
	{"repeat", hive.KeyRepeat, "times each session runs the queries (default 1)"},
	{"concurrency", "threadcount", "sessions running the queries at once (default 1)"},
	{"warmup", hive.KeyWarmup, "unmeasured passes over the queries first, per session (default 0)"},
	{"database", hive.KeyDatabase, "Hive database of the tables, created if missing (default default)"},
	{"format", hive.KeyFormat, "table storage: text, orc or parquet (default text)"},
	{"load", hive.KeyLoad, "auto (reuse tables holding the data set), always, never (default auto)"},
	{"seed", hive.KeyDataSeed, "seed of the data generator (default 1)"},
	{"json", "exportfile", "write the JSON result document to this file"},
}

func newHiveFlags() (*hiveFlags, map[string]*string) {
	f := &hiveFlags{fs: flag.NewFlagSet("hive", flag.ContinueOnError)}
	f.fs.SetOutput(io.Discard)
	vals := map[string]*string{}
	for _, k := range hiveFlagKeys {
		vals[k.flag] = f.fs.String(k.flag, "", k.usage)
	}
	f.fs.Var(&f.sources, "P", "a property file (repeatable; lowest layer)")
	f.fs.Var(&f.overrides, "p", "key=value (repeatable; overrides -P, overridden by the flags above)")
	f.fs.BoolVar(&f.status, "s", false, "a status line every 10 s")
	f.fs.BoolVar(&f.verify, "verify", false, "check the five queries' answers against the Go reference")
	f.fs.BoolVar(&f.printSQL, "sql", false, "print the queries' SQL, separated by ; (for beeline -f), and exit")
	return f, vals
}

// hiveLayers turns the command line into property layers: -P files, -p,
// then the flags, over the command's defaults (db hive, a data directory
// beside the working directory).
func hiveLayers(args []string) (*props.Set, bool, error) {
	f, vals := newHiveFlags()
	rest, err := parseInterspersed(f.fs, args)
	if err != nil {
		return nil, false, err
	}
	if len(rest) > 0 {
		return nil, false, usageErr(fmt.Errorf("hive: unexpected argument %q (queries go in a file: -f FILE.sql)", rest[0]))
	}
	var layers props.Layers
	layers.Add(props.LayerDefault, props.Value{Key: "db", Value: "hive", Source: "gobench hive"},
		props.Value{Key: "workload", Value: hive.Kind.Name, Source: "gobench hive"})
	if dir, err := filepath.Abs("gobench-hive-data"); err == nil {
		layers.Add(props.LayerDefault, props.Value{Key: hive.KeyDataDir, Value: dir, Source: "default"})
	}
	for _, p := range f.sources {
		vals, err := readSource(source{name: p})
		if err != nil {
			return nil, false, err
		}
		layers.Add(props.LayerFile, vals...)
	}
	for _, o := range f.overrides {
		v, err := props.ParseOverride(o, "-p")
		if err != nil {
			return nil, false, usageErr(err)
		}
		layers.Add(props.LayerOverride, v)
	}
	for _, k := range hiveFlagKeys {
		v := *vals[k.flag]
		if v == "" {
			continue
		}
		if k.flag == "data" && !strings.Contains(v, "://") {
			if abs, err := filepath.Abs(v); err == nil {
				v = abs
			}
		}
		layers.Add(props.LayerFlag, props.Value{Key: k.key, Value: v, Source: "-" + k.flag})
		if k.flag == "json" {
			layers.Add(props.LayerFlag, props.Value{Key: "exporter", Value: "json", Source: "-json"})
		}
	}
	if f.status {
		layers.Add(props.LayerFlag, props.Value{Key: "status", Value: "true", Source: "-s"})
	}
	if f.verify {
		layers.Add(props.LayerFlag, props.Value{Key: hive.KeyVerify, Value: "true", Source: "-verify"})
	}
	return layers.Set(), f.printSQL, nil
}

func hiveMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	set, printSQL, err := hiveLayers(args)
	if errors.Is(err, flag.ErrHelp) {
		f, _ := newHiveFlags()
		return printUsage(stdout, f.fs, "gobench hive [-scale 16MB] [-data DIR] [-queries all] [-f FILE.sql] [-repeat N] [-concurrency C] [-verify] [-json FILE] [-P file] [-p key=value]", hiveAbout)
	}
	if err != nil {
		var ue *usageError
		if !errors.As(err, &ue) {
			err = usageErr(fmt.Errorf("hive: %w", err))
		}
		return err
	}
	plan, err := workload.Prepare(set, workload.WithOutput(stdout))
	if err != nil {
		return configErr(err)
	}
	job, ok := plan.Job().(*hive.Job)
	if !ok {
		plan.Close()
		return usageErr(fmt.Errorf("hive: the workload property must be hive, not %s", plan.Kind.Name))
	}
	cfg := job.Config()
	if printSQL {
		plan.Close()
		for _, q := range cfg.Queries {
			fmt.Fprintf(stdout, "-- %s: %s\n%s;\n", q.Name, q.Title, q.SQL)
		}
		return nil
	}
	fmt.Fprintf(stderr, "gobench %s hive: db %s, database %s, %d queries x %d repeats (+%d warm-up) on %d sessions\n",
		version, plan.DriverName, cfg.Database, len(cfg.Queries), cfg.Repeat, cfg.Warmup, plan.Threads())
	printSetup(stderr, plan, nil)
	if cfg.HDFS() && cfg.Load != hive.LoadNever {
		closeFS, err := hdfsSink(ctx, job, cfg.DataDir, set)
		if err != nil {
			plan.Close()
			return err
		}
		defer closeFS()
	}
	o, runErr := execute(ctx, plan, stderr, plan.Output.Exporter == "json")
	if o == nil {
		return runErr
	}
	table := stdout
	if plan.Output.Exporter == "json" && plan.Output.ExportFile == "" {
		table = stderr // stdout carries the document
	}
	if err := writeHiveTable(table, job, o.res); err != nil {
		return err
	}
	fmt.Fprintln(table)
	if err := writeBenchReport(plan, o, stdout); err != nil {
		return err
	}
	var fe *workload.FailedError
	if errors.As(runErr, &fe) {
		return fmt.Errorf("hive: %d of %d query executions failed; the first: %s", fe.Failed, fe.Attempted, fe.First)
	}
	return runErr
}

// hdfsSink opens the hdfs driver at the data directory's NameNode for the
// generator; the returned function closes it.
func hdfsSink(ctx context.Context, job *hive.Job, dir string, set *props.Set) (func(), error) {
	u, err := url.Parse(dir)
	if err != nil || u.Host == "" {
		return nil, usageErr(fmt.Errorf("%s=%s: want hdfs://host:port/dir", hive.KeyDataDir, dir))
	}
	drv, err := drivers.Lookup("hdfs")
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", hive.KeyDataDir, dir, err)
	}
	var s props.Set
	s.Add(props.Value{Key: "hdfs.namenode", Value: u.Host, Source: hive.KeyDataDir})
	if v, ok := set.Get("hdfs.user"); ok {
		s.Add(v)
	}
	db, err := drv.Configure(props.NewDecoder(&s), drivers.Schema{})
	if err != nil {
		return nil, configErr(err)
	}
	conn, err := db.Open(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%s=%s: %w", hive.KeyDataDir, dir, err)
	}
	fs, ok := conn.(drivers.FileSystem)
	if !ok {
		conn.Close(ctx)
		db.Close()
		return nil, fmt.Errorf("%s=%s: the hdfs driver offers no file streams", hive.KeyDataDir, dir)
	}
	job.UseSink(&hive.FileSystemSink{FS: fs, Root: u.Path})
	return func() { conn.Close(context.WithoutCancel(ctx)); db.Close() }, nil
}

// writeHiveTable prints one line per query: runs, failures, min, median,
// max, p95, p99 (ms, from the measurement's HDR histogram, the rank rule of
// every gobench report), rows and the first row; then the failures and the
// verification.
func writeHiveTable(w io.Writer, job *hive.Job, res *engine.Result) error {
	ms := func(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', 1, 64) }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\truns\tfailed\tmin(ms)\tmedian(ms)\tmax(ms)\tp95(ms)\tp99(ms)\trows\t\tfirst row")
	var notes []string
	checked, wrong, failed := 0, 0, 0
	for _, r := range job.Results() {
		line := []string{r.Query.Name, strconv.Itoa(r.Runs), strconv.Itoa(r.Failed)}
		if s := res.Series(r.Query.Name); s != nil && s.Count() > 0 {
			line = append(line, ms(s.Min()), ms(s.Percentile(50)), ms(s.Max()), ms(s.Percentile(95)), ms(s.Percentile(99)))
		} else {
			line = append(line, "-", "-", "-", "-", "-")
		}
		line = append(line, strconv.FormatInt(r.Rows, 10), "", firstRow(r))
		fmt.Fprintln(tw, strings.Join(line, "\t"))
		if r.FirstErr != nil {
			notes = append(notes, fmt.Sprintf("%s: %d of %d failed; the first: %v", r.Query.Name, r.Failed, r.Runs, r.FirstErr))
		}
		if r.RowsDiffer {
			notes = append(notes, fmt.Sprintf("%s: executions returned different numbers of rows", r.Query.Name))
		}
		if r.Query.Builtin > 0 {
			checked += r.Verified
			failed += r.Failed
			if r.Mismatch != "" {
				wrong++
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	if job.Answers() != nil {
		switch {
		case wrong == 0 && failed == 0:
			fmt.Fprintf(w, "verify: all %d answers of the built-in queries match the Go reference\n", checked)
		case wrong == 0:
			fmt.Fprintf(w, "verify: the %d answers of the built-in queries that came back match the Go reference; %d executions failed before answering\n", checked, failed)
		default:
			fmt.Fprintf(w, "verify: %d queries answered differently from the Go reference (see above)\n", wrong)
		}
	}
	return nil
}

// firstRow renders a result's first row as col=value pairs.
func firstRow(r hive.QueryResult) string {
	if r.FirstRow == nil {
		return "-"
	}
	parts := make([]string, len(r.FirstRow))
	for i, v := range r.FirstRow {
		c := ""
		if i < len(r.Columns) {
			c = r.Columns[i]
			if j := strings.LastIndexByte(c, '.'); j >= 0 {
				c = c[j+1:] // Hive prefixes columns with the table or alias
			}
		}
		parts[i] = c + "=" + v
	}
	s := strings.Join(parts, " ")
	if len(s) > 100 {
		s = s[:97] + "..."
	}
	return s
}
