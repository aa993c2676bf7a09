package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workloads"
)

// defaultDB is the driver used when neither -db nor a db property is given.
const defaultDB = "pebble"

// config is everything a load or run needs, decoded and validated.
type config struct {
	layers props.Layers
	set    *props.Set
	spec   workload.Spec
	dbName string
	driver drivers.Driver
	db     drivers.DB
	warns  []string
	// promAddr is gobench.prometheus: where to serve /metrics ("" = off).
	promAddr string
}

// buildConfig layers the properties (workload files and -P files in order,
// then -p, then explicit flags), decodes the core properties and the
// driver's, and reports every problem at once.
func buildConfig(f *benchFlags, phase workload.Phase, out io.Writer) (*config, error) {
	c := &config{}
	var errs []error
	for _, s := range f.sources {
		vals, err := readSource(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.layers.Add(props.LayerFile, vals...)
	}
	for _, o := range f.overrides {
		v, err := props.ParseOverride(o, "-p")
		if err != nil {
			errs = append(errs, usageErr(err))
			continue
		}
		c.layers.Add(props.LayerOverride, v)
	}
	flag := func(name, key, value string) {
		c.layers.Add(props.LayerFlag, props.Value{Key: key, Value: value, Source: "-" + name})
	}
	fs := f.set
	if fs.Changed("threads") {
		flag("threads", "threadcount", strconv.Itoa(f.threads))
	}
	if fs.Changed("target") {
		flag("target", "target", strconv.FormatFloat(f.target, 'f', -1, 64))
	}
	if f.status {
		flag("s", "status", "true")
	}
	if fs.Changed("label") {
		flag("l", "label", f.label)
	}
	if f.db != "" {
		flag("db", "db", f.db)
	}
	if f.classpath != "" {
		flag("cp", "gobench.classpath", f.classpath)
	}
	if f.load {
		phase = workload.Load
	} else if f.txn {
		phase = workload.Transactions
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if f.jvmArgs != "" {
		c.warns = append(c.warns, fmt.Sprintf("-jvm-args %q ignored: gobench has no JVM", f.jvmArgs))
	}
	addJobIndex(&c.layers, os.Getenv)
	c.set = c.layers.Set()

	d := props.NewDecoder(c.set)
	spec, verr := workload.Decode(d, phase)
	c.spec = spec
	d.Lookup("gobench.classpath") // read by drivers that need it (hbase)
	c.promAddr = d.String("gobench.prometheus", "")

	c.dbName = defaultDB
	if v, ok := c.set.Get("db"); ok {
		c.dbName = v.Value
	}
	drv, err := drivers.Lookup(c.dbName)
	var derrs []error
	if err != nil {
		v, _ := c.set.Get("db")
		derrs = append(derrs, &props.Error{Key: "db", Value: c.dbName, Source: v.Source, Line: v.Line,
			Err: errors.New("unknown db"), Allowed: strings.Join(drivers.Names(), ", "), Hint: props.Nearest(c.dbName, drivers.Names())})
	} else {
		if p, ok := drv.(drivers.Printer); ok {
			// BasicDB's verbose lines go to stdout, as in Java.
			drv = p.WithOutput(out)
		}
		c.driver = drv
		db, err := drv.Configure(d, spec.Schema())
		if err != nil {
			derrs = append(derrs, err)
		}
		c.db = db
	}

	// Unknown keys: an error, unless another driver knows the key (a shared
	// property file may carry settings for several backends): then a warning.
	var unknown []error
	for _, e := range props.Unknown(c.set, nil, d) {
		var pe *props.Error
		if errors.As(e, &pe) {
			if other := driverOwning(pe.Key); other != "" {
				c.warns = append(c.warns, fmt.Sprintf("property %s (%s) is for the %s driver; ignored with -db %s", pe.Key, pe.Where(), other, c.dbName))
				continue
			}
		}
		unknown = append(unknown, e)
	}
	all := append(append([]error{}, d.Errs()...), unknown...)
	for _, e := range append(derrs, verr) {
		all = appendNew(all, e, c.set)
	}
	if len(all) > 0 {
		return nil, configErr(errors.Join(all...))
	}
	return c, nil
}

// driverOwning names a registered driver whose keys include key.
func driverOwning(key string) string {
	for _, n := range drivers.Names() {
		d, _ := drivers.Lookup(n)
		for _, k := range d.Keys() {
			if k.Name == key {
				return n
			}
		}
	}
	return ""
}

// readSource reads one -w or -P layer.
func readSource(s source) ([]props.Value, error) {
	if s.shipped {
		r, err := workloads.Open(s.name)
		if err != nil {
			return nil, usageErr(fmt.Errorf("-w %s: %w", s.name, err))
		}
		defer r.Close()
		return parse(r, s.name)
	}
	file, err := os.Open(s.name)
	if err != nil {
		// YCSB users write -P workloads/workloada: serve the shipped copy.
		if errors.Is(err, os.ErrNotExist) {
			if r, werr := workloads.Open(s.name); werr == nil {
				defer r.Close()
				return parse(r, s.name)
			}
			return nil, usageErr(fmt.Errorf("-P %s: no such file (shipped workloads: -w %s)", s.name, strings.Join(workloads.Names(), ", -w ")))
		}
		return nil, usageErr(fmt.Errorf("-P %s: %w", s.name, err))
	}
	defer file.Close()
	return parse(file, s.name)
}

// parse reads a property file; malformed lines are configuration errors.
func parse(r io.Reader, name string) ([]props.Value, error) {
	vals, err := props.Parse(r, name)
	if err != nil {
		return nil, configErr(err)
	}
	return vals, nil
}

// appendNew appends the leaves of err (a joined error) that all does not
// hold yet, giving property errors without an origin the key's value and
// origin from set. Drivers return the problems their decoder also recorded,
// so each is reported once.
func appendNew(all []error, err error, set *props.Set) []error {
	if err == nil {
		return all
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			all = appendNew(all, e, set)
		}
		return all
	}
	var pe *props.Error
	if errors.As(err, &pe) && pe.Source == "" {
		if v, ok := set.Get(pe.Key); ok {
			cp := *pe
			cp.Value, cp.Source, cp.Line = v.Value, v.Source, v.Line
			err = &cp
		}
	}
	for _, e := range all {
		if e == err || e.Error() == err.Error() {
			return all
		}
	}
	return append(all, err)
}

// effective renders the effective configuration, sorted, with origins.
func (c *config) effective() []string {
	keys := c.set.Keys()
	sort.Strings(keys)
	out := make([]string, 0, len(keys)+1)
	for _, k := range keys {
		v, _ := c.set.Get(k)
		out = append(out, fmt.Sprintf("  %s=%s   (%s)", k, v.Value, v.Where()))
	}
	return out
}
