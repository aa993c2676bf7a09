package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// source is one workload layer given on the command line, in order: a
// shipped workload (-w NAME) or a property file (-P PATH).
type source struct {
	shipped bool
	name    string
}

// sourceList is a pflag.Value that appends -w and -P values to one ordered
// list, so that their relative order decides precedence.
type sourceList struct {
	list    *[]source
	shipped bool
}

func (s sourceList) String() string { return "" }
func (s sourceList) Type() string {
	if s.shipped {
		return "NAME"
	}
	return "FILE"
}
func (s sourceList) Set(v string) error {
	*s.list = append(*s.list, source{shipped: s.shipped, name: v})
	return nil
}

// benchFlags are the flags of load and run, with YCSB's meanings.
type benchFlags struct {
	sources   []source
	overrides []string
	threads   int
	target    float64
	db        string
	status    bool
	label     string
	classpath string
	jvmArgs   string
	load, txn bool
	set       *pflag.FlagSet
}

func newBenchFlags(name string) *benchFlags {
	f := &benchFlags{}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.VarP(sourceList{&f.sources, true}, "workload", "w", "a shipped workload by name (see `gobench workloads`); repeatable")
	fs.VarP(sourceList{&f.sources, false}, "property-file", "P", "a workload/property file; repeatable, later files win")
	fs.StringArrayVarP(&f.overrides, "prop", "p", nil, "set a property: -p key=value; repeatable, beats files")
	fs.IntVar(&f.threads, "threads", 0, "client threads (threadcount)")
	fs.Float64Var(&f.target, "target", 0, "total operations per second over all threads (target); 0 = as fast as possible")
	fs.StringVar(&f.db, "db", "", "the driver (db): pebble (default), memory, basic, hbase, ...")
	fs.BoolVarP(&f.status, "status", "s", false, "print a status line every status.interval seconds on stderr")
	fs.StringVarP(&f.label, "label", "l", "", "prefix of the status line's timestamp (label)")
	fs.StringVar(&f.classpath, "cp", "", "YCSB's extra classpath: a directory with hbase-site.xml is read for the HBase connection")
	fs.StringVar(&f.jvmArgs, "jvm-args", "", "accepted for YCSB compatibility; ignored (there is no JVM)")
	fs.BoolVar(&f.load, "load", false, "Java Client's switch: load phase")
	fs.BoolVarP(&f.txn, "transactions", "t", false, "Java Client's switch: run phase")
	fs.MarkHidden("load")
	fs.MarkHidden("transactions")
	f.set = fs
	return f
}

// longSingleDash lists the long flags YCSB spells with one dash.
var longSingleDash = map[string]bool{
	"threads": true, "target": true, "db": true, "cp": true, "jvm-args": true,
	"load": true, "workload": true, "prop": true, "status": true, "label": true,
}

// normalizeArgs rewrites YCSB's single-dash long flags (-threads 500,
// -target=100, -db basic) to pflag's double-dash form. Single letters (-P,
// -p, -s, -w, -l, -t) are pflag shorthands already.
func normalizeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 2 {
			name := a[1:]
			if j := strings.IndexByte(name, '='); j >= 0 {
				name = name[:j]
			}
			if longSingleDash[name] {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

// parse parses args, taking a first positional argument as YCSB's binding
// name (`gobench load basic -P ...`).
func (f *benchFlags) parse(args []string) error {
	if err := f.set.Parse(normalizeArgs(args)); err != nil {
		return usageErr(err)
	}
	rest := f.set.Args()
	if len(rest) > 0 {
		if f.db != "" && f.db != rest[0] {
			return usageErr(fmt.Errorf("db given twice: -db %s and binding %s", f.db, rest[0]))
		}
		f.db = rest[0]
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return usageErr(fmt.Errorf("unexpected argument %q (properties go in -p key=value)", rest[0]))
	}
	return nil
}
