package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workloads"
)

// benchLayers layers the properties of load and run: workload files and -P
// files in order, then -p, then explicit flags. The phase becomes
// dotransactions at flag level when it was chosen on the command line
// (gobench load/run, or Java's -load/-t); in Java Client style without
// either, a dotransactions property decides, as in Java. It returns the set
// and the warnings about flags that have no effect.
func benchLayers(f *benchFlags, phase engine.Phase, chosen bool) (*props.Set, []string, error) {
	var layers props.Layers
	var errs []error
	for _, s := range f.sources {
		vals, err := readSource(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		layers.Add(props.LayerFile, vals...)
	}
	for _, o := range f.overrides {
		v, err := props.ParseOverride(o, "-p")
		if err != nil {
			errs = append(errs, usageErr(err))
			continue
		}
		layers.Add(props.LayerOverride, v)
	}
	flag := func(name, key, value string) {
		layers.Add(props.LayerFlag, props.Value{Key: key, Value: value, Source: name})
	}
	fs := f.set
	if fs.Changed("threads") {
		flag("-threads", "threadcount", strconv.Itoa(f.threads))
	}
	if fs.Changed("target") {
		flag("-target", "target", strconv.FormatFloat(f.target, 'f', -1, 64))
	}
	if f.status {
		flag("-s", "status", "true")
	}
	if fs.Changed("label") {
		flag("-l", "label", f.label)
	}
	if f.db != "" {
		flag("-db", "db", f.db)
	}
	if f.classpath != "" {
		flag("-cp", "gobench.classpath", f.classpath)
	}
	if f.load {
		phase = engine.Load
	} else if f.txn {
		phase = engine.Transactions
	}
	if _, _, given := layers.Origin("dotransactions"); !given || chosen || f.load || f.txn {
		flag("gobench "+phase.String(), "dotransactions", strconv.FormatBool(phase == engine.Transactions))
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	var warns []string
	if f.jvmArgs != "" {
		warns = append(warns, fmt.Sprintf("-jvm-args %q ignored: gobench has no JVM", f.jvmArgs))
	}
	addJobIndex(&layers, os.Getenv)
	return layers.Set(), warns, nil
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
