package hive

import (
	"errors"
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// Property keys of the hive workload.
const (
	KeyQueries    = "hive.queries"    // built-in queries to run
	KeySQLFile    = "hive.sqlfile"    // a user's .sql file
	KeyRepeat     = "hive.repeat"     // passes over the query list per session
	KeyWarmup     = "hive.warmup"     // passes before the measured ones
	KeyScale      = "hive.scale"      // bytes or rows per table
	KeyDataSeed   = "hive.dataseed"   // the data generator's seed
	KeyDataDir    = "hive.datadir"    // where the text files go
	KeyLoad       = "hive.load"       // auto, always, never
	KeyFormat     = "hive.format"     // text, orc, parquet
	KeyDatabase   = "hive.database"   // the Hive database of the tables
	KeyVerify     = "hive.verify"     // check built-in answers against Go
	KeyGenThreads = "hive.genthreads" // generator goroutines
)

// Kind is the field report's Hive test as a workload kind (workload=hive):
// a seeded data generator for books, customers and transactions, table
// creation and loading through HiveServer2, and the report's five queries
// (or a user's .sql file) run hive.repeat times on each of threadcount
// sessions, each query its own measurement. `gobench hive` offers it with
// its own flags.
var Kind = engine.Kind{
	Name:    "hive",
	Summary: "Hive query benchmark: generate books/customers/transactions, load them through HiveServer2, time the field report's five queries (or a .sql file) on N sessions",
	Command: "hive",
	Needs:   drivers.CapQuery,
	Keys:    Keys(),
	Build:   build,
}

// Keys lists the hive workload's properties.
func Keys() []props.Key {
	return []props.Key{
		{Name: KeyQueries, Default: "all", Usage: "built-in queries, comma-separated: all, none, " + builtinList(), Show: true},
		{Name: KeySQLFile, Default: "", Usage: "a .sql file of queries (split on ;, named by a -- name: NAME comment or Q1, Q2, ...); run after the built-in ones given by hive.queries (default then: none)"},
		{Name: KeyRepeat, Default: "1", Usage: "times each session runs the query list (measured)"},
		{Name: KeyWarmup, Default: "0", Usage: "times each session runs the query list first, unmeasured"},
		{Name: KeyScale, Default: "16MB", Usage: "size of each table: bytes of text with a unit (16MB, 4GB as in the report) or rows (100000)", Show: true},
		{Name: KeyDataSeed, Default: "1", Usage: "seed of the data generator (same seed and scale: same data, anywhere)"},
		{Name: KeyDataDir, Default: "", Usage: "absolute directory for the generated files, seen by HiveServer2 (LOAD DATA LOCAL INPATH); hdfs://host:port/dir for HDFS (LOAD DATA INPATH)", Show: true},
		{Name: KeyLoad, Default: "auto", Usage: "auto: reuse tables holding this data set, else generate (reusing matching files) and load; always: reload; never: use the tables as they are"},
		{Name: KeyFormat, Default: "text", Usage: "table storage: text (the loaded files), orc or parquet (converted from text inside Hive)"},
		{Name: KeyDatabase, Default: "default", Usage: "Hive database of the tables (created if missing)", Show: true},
		{Name: KeyVerify, Default: "false", Usage: "check every answer of a built-in query against the same query computed in Go (UNEXPECTED_STATE when it differs)"},
		{Name: KeyGenThreads, Default: "(CPUs)", Usage: "goroutines generating the files"},
	}
}

// Load modes.
const (
	LoadAuto   = "auto"
	LoadAlways = "always"
	LoadNever  = "never"
)

// Config is what a hive run does.
type Config struct {
	Queries    []Query
	Repeat     int
	Warmup     int
	Scale      Scale
	Dataset    Dataset
	DataDir    string // absolute local path, or hdfs://host:port/path
	Load       string
	Format     string
	Database   string
	Verify     bool
	GenThreads int
}

// Passes is the number of times each session runs the query list.
func (c Config) Passes() int { return c.Warmup + c.Repeat }

// HDFS reports whether the data directory is on HDFS.
func (c Config) HDFS() bool { return strings.HasPrefix(c.DataDir, "hdfs://") }

// Decode reads the hive workload's properties; every problem is recorded
// in d and returned joined.
func Decode(d *props.Decoder) (Config, error) {
	c := Config{Load: LoadAuto, Format: "text", Database: "default"}
	var errs []error
	bad := func(key, why, allowed string) {
		v, _ := d.Lookup(key)
		errs = append(errs, &props.Error{Key: key, Value: v.Value, Source: v.Source, Line: v.Line, Err: errors.New(why), Allowed: allowed})
	}
	file := strings.TrimSpace(d.String(KeySQLFile, ""))
	list := "all"
	if file != "" {
		list = "none"
	}
	list = d.String(KeyQueries, list)
	for _, n := range strings.Split(list, ",") {
		switch n = strings.TrimSpace(n); strings.ToLower(n) {
		case "", "none":
		case "all":
			c.Queries = append(c.Queries, Builtins...)
		default:
			q, ok := lookupBuiltin(n)
			if !ok {
				v, _ := d.Lookup(KeyQueries)
				var names []string
				for _, b := range Builtins {
					names = append(names, strings.ToLower(b.Name))
				}
				errs = append(errs, &props.Error{Key: KeyQueries, Value: v.Value, Source: v.Source, Line: v.Line,
					Err: fmt.Errorf("no built-in query %q", n), Allowed: "all, none, " + builtinList(), Hint: props.Nearest(strings.ToLower(n), names)})
				continue
			}
			c.Queries = append(c.Queries, q)
		}
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			bad(KeySQLFile, err.Error(), "a readable .sql file")
		} else if qs, err := ParseSQL(string(b)); err != nil {
			bad(KeySQLFile, fmt.Sprintf("%s: %v", file, err), "statements separated by ;")
		} else {
			c.Queries = append(c.Queries, qs...)
		}
	}
	seen := map[string]bool{}
	for _, q := range c.Queries {
		if seen[q.Name] {
			bad(KeyQueries, fmt.Sprintf("query %s is listed twice (names must be unique; rename it in the .sql file with -- name: NAME)", q.Name), "")
		}
		seen[q.Name] = true
	}
	c.Repeat = d.IntRange(KeyRepeat, 1, 1, 1<<20)
	c.Warmup = d.IntRange(KeyWarmup, 0, 0, 1<<20)
	scale := d.String(KeyScale, "16MB")
	if s, err := ParseScale(scale); err != nil {
		bad(KeyScale, err.Error(), "bytes per table (16MB, 4GB) or rows per table (100000)")
	} else {
		c.Scale = s
	}
	seed := d.Int64(KeyDataSeed, 1)
	c.DataDir = strings.TrimSpace(d.String(KeyDataDir, ""))
	c.Load = d.Enum(KeyLoad, LoadAuto, LoadAuto, LoadAlways, LoadNever)
	c.Format = d.Enum(KeyFormat, "text", "text", "orc", "parquet")
	c.Database = strings.TrimSpace(d.String(KeyDatabase, "default"))
	if !validIdent(c.Database) {
		bad(KeyDatabase, "not a plain Hive identifier", "letters, digits and _")
	}
	c.Verify = d.Bool(KeyVerify, false)
	c.GenThreads = d.IntRange(KeyGenThreads, runtime.GOMAXPROCS(0), 1, 1024)
	if c.Load != LoadNever {
		switch {
		case c.DataDir == "":
			bad(KeyDataDir, "required to generate and load the tables", "an absolute directory HiveServer2 can read, or hdfs://host:port/dir")
		case c.HDFS():
			if rest := strings.TrimPrefix(c.DataDir, "hdfs://"); !strings.Contains(rest, "/") || path.Clean(rest[strings.Index(rest, "/"):]) == "/" {
				bad(KeyDataDir, "an HDFS data directory needs a path below the root", "hdfs://host:port/dir")
			}
		case !path.IsAbs(c.DataDir):
			bad(KeyDataDir, "must be absolute (HiveServer2 reads it as given)", "an absolute directory")
		case strings.ContainsAny(c.DataDir, "'\\"):
			bad(KeyDataDir, "quotes and backslashes are not allowed in the path", "")
		}
	}
	if len(c.Queries) == 0 {
		bad(KeyQueries, "no query to run", "all, "+builtinList()+", or a file in "+KeySQLFile)
	}
	c.Dataset = NewDataset(uint64(seed), c.Scale)
	return c, errors.Join(errs...)
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// build decodes the properties and sizes the run: threadcount sessions,
// each running the query list Passes() times.
func build(b *engine.Build) (engine.Job, error) {
	c, err := Decode(b.Props)
	if _, ok := b.Props.Lookup("operationcount"); ok {
		b.Notes = append(b.Notes, "operationcount has no effect with workload=hive: the run is threadcount sessions x hive.warmup+hive.repeat passes x the queries")
	}
	if err != nil {
		return nil, err
	}
	b.Settings.Ops = int64(len(c.Queries) * c.Passes() * b.Settings.Threads)
	return NewJob(c), nil
}
