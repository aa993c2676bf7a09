package basic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() {
	drivers.Register("basic", Driver{})
	drivers.Alias("site.ycsb.BasicDB", "basic")
	drivers.Alias("com.yahoo.ycsb.BasicDB", "basic")
}

// Property keys, spelled as in YCSB's BasicDB.
const (
	KeyVerbose        = "basicdb.verbose"
	KeySimulateDelay  = "basicdb.simulatedelay"
	KeyRandomizeDelay = "basicdb.randomizedelay"
	KeyCount          = "basicdb.count"
)

// Driver is the "basic" driver. Out receives the verbose log and the count
// summary; nil discards them. The zero value (registered) prints nothing
// until given a writer with [Driver.WithOutput].
type Driver struct {
	Out io.Writer
}

// New returns a Driver that prints to w.
func New(w io.Writer) Driver { return Driver{Out: w} }

// WithOutput returns a copy of d that prints to w; it makes Driver a
// [drivers.Printer].
func (d Driver) WithOutput(w io.Writer) drivers.Driver { d.Out = w; return d }

// Keys lists basic's properties.
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyVerbose, Default: "false", Usage: "print every operation with its table, key and fields (Java's default is true)"},
		{Name: KeySimulateDelay, Default: "0", Usage: "delay each operation by this many milliseconds (or Go duration text)"},
		{Name: KeyRandomizeDelay, Default: "true", Usage: "draw each delay uniformly from [0, simulatedelay) instead of using it whole"},
		{Name: KeyCount, Default: "false", Usage: "count distinct (table, key, fields) per operation and print the counts at close"},
	}
}

// Config is basic's decoded configuration.
type Config struct {
	Verbose   bool
	Delay     time.Duration // basicdb.simulatedelay; 0 = none
	Randomize bool          // basicdb.randomizedelay
	Count     bool
}

// Configure decodes basic's properties. It reports every bad value, and
// does no I/O.
func (d Driver) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	before := len(p.Errs())
	cfg := Config{
		Verbose:   p.Bool(KeyVerbose, false),
		Delay:     p.Duration(KeySimulateDelay, 0, time.Millisecond),
		Randomize: p.Bool(KeyRandomizeDelay, true),
		Count:     p.Bool(KeyCount, false),
	}
	if errs := p.Errs()[before:]; len(errs) > 0 {
		return nil, fmt.Errorf("configure basic: %w", errors.Join(errs...))
	}
	return NewDB(cfg, s, d.Out, p.Set()), nil
}

// DB is the shared state of a basic run: the configuration, the output and
// the counters. It is safe for concurrent use.
type DB struct {
	cfg    Config
	schema drivers.Schema
	props  *props.Set

	outMu sync.Mutex
	out   io.Writer // nil: print nothing
	once  sync.Once

	seeds  atomic.Uint64
	counts *counts // nil unless cfg.Count
}

// NewDB returns a DB for cfg. Output goes to out (nil discards it); when
// cfg.Verbose is set, the first Open prints the properties in ps (may be
// nil) as Java's BasicDB does.
func NewDB(cfg Config, s drivers.Schema, out io.Writer, ps *props.Set) *DB {
	db := &DB{cfg: cfg, schema: s, props: ps, out: out}
	if cfg.Count {
		db.counts = newCounts()
	}
	return db
}

// Open returns a new connection with its own random source and delay
// timer.
func (db *DB) Open(context.Context) (drivers.Conn, error) {
	if db.cfg.Verbose && db.out != nil {
		db.once.Do(db.printProps)
	}
	c := &conn{db: db, rng: rand.New(rand.NewPCG(db.seeds.Add(1), 0x6261736963))}
	if db.cfg.Delay > 0 {
		c.timer = time.NewTimer(time.Hour)
		c.timer.Stop()
	}
	return c, nil
}

// Close prints the count summary when basicdb.count is set, in Java's
// form: "[READS], Uniques, 42".
func (db *DB) Close() error {
	if db.counts == nil || db.out == nil {
		return nil
	}
	db.outMu.Lock()
	defer db.outMu.Unlock()
	if _, err := io.WriteString(db.out, db.counts.summary()); err != nil {
		return fmt.Errorf("basic: print counts: %w", err)
	}
	return nil
}

// Counts returns the number of distinct (table, key, fields or values)
// seen per operation: reads, scans, updates, inserts, deletes. It is all
// zeros unless basicdb.count is set.
func (db *DB) Counts() (reads, scans, updates, inserts, deletes int) {
	if db.counts == nil {
		return
	}
	n := db.counts.sizes()
	return n[opRead], n[opScan], n[opUpdate], n[opInsert], n[opDelete]
}

func (db *DB) printProps() {
	b := []byte("***************** properties *****************\n")
	if db.props != nil {
		for _, k := range db.props.Keys() {
			v, _ := db.props.Get(k)
			b = fmt.Appendf(b, "%q=%q\n", k, v.Value)
		}
	}
	b = append(b, "**********************************************\n"...)
	db.write(b)
}

// write prints one prepared chunk; write errors are ignored, as Java's
// System.out does.
func (db *DB) write(b []byte) {
	db.outMu.Lock()
	db.out.Write(b)
	db.outMu.Unlock()
}
