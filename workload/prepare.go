package workload

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/props"
)

// DefaultDB is the driver used when no db property is given.
const DefaultDB = "pebble"

// Option configures [Prepare].
type Option func(*prepare)

type prepare struct {
	driver     drivers.Driver
	db         drivers.DB
	driverName string
	stdout     io.Writer
}

// WithDriver runs against d (a driver of the caller's, registered or not)
// instead of the one the db property names; name is how messages call it.
// The plan configures it from the properties and closes its DB after the
// run.
func WithDriver(name string, d drivers.Driver) Option {
	return func(p *prepare) { p.driver, p.driverName = d, name }
}

// WithDB runs against db, already configured (so that one in-process store
// serves a load and then a run); name is how messages call it. The plan
// never closes it: it is the caller's.
func WithDB(name string, db drivers.DB) Option {
	return func(p *prepare) { p.db, p.driverName = db, name }
}

// WithOutput is where a driver prints what the user asked it to print
// (basicdb.verbose, basicdb.count; see drivers.Printer). Default: nowhere.
func WithOutput(w io.Writer) Option { return func(p *prepare) { p.stdout = w } }

// Prepare is the one way to set up a run, for every command and for library
// users: from the layered properties set it decodes the phase
// (dotransactions), the workload kind (workload, default core), the common
// settings and the kind's own properties; it configures the driver (the db
// property, default pebble, or the one given WithDriver/WithDB) with the
// kind's schema; it checks that the driver has every capability the kind
// needs; and it rejects unknown properties (a key another driver knows is a
// warning). Every problem is reported at once, in one error, before any
// connection opens: Prepare does no I/O.
func Prepare(set *props.Set, opts ...Option) (*Plan, error) {
	var o prepare
	for _, f := range opts {
		f(&o)
	}
	d := props.NewDecoder(set)
	p := &Plan{set: set}
	p.Phase = decodePhase(d)
	var known bool
	p.Kind, known = decodeKind(d)
	settings, out, maxErr, notes, cerr := decodeCommon(d)
	p.Output, p.MaxErrorRatio, p.Notes = out, maxErr, notes

	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(cerr)
	var job engine.Job
	if known {
		b := &engine.Build{Phase: p.Phase, Settings: &settings, Props: d}
		var kerr error
		job, kerr = p.Kind.Build(b)
		add(kerr)
		p.Notes = append(p.Notes, b.Notes...)
	}
	schema := drivers.Schema{Table: d.String("table", "usertable")}
	if job != nil {
		schema = job.Schema()
	}

	drv, db := o.driver, o.db
	p.DriverName = o.driverName
	if drv == nil && db == nil {
		p.DriverName = DefaultDB
		if v, ok := set.Get("db"); ok {
			p.DriverName = v.Value
		}
		var err error
		if drv, err = drivers.Lookup(p.DriverName); err != nil {
			v, _ := set.Get("db")
			add(&props.Error{Key: "db", Value: p.DriverName, Source: v.Source, Line: v.Line,
				Err: errors.New("unknown db"), Allowed: strings.Join(drivers.Names(), ", "), Hint: props.Nearest(p.DriverName, drivers.Names())})
		}
		if c, ok := drivers.Canonical(p.DriverName); ok {
			p.DriverName = c
		}
	}
	d.Lookup("db")
	if pr, ok := drv.(drivers.Printer); ok && o.stdout != nil {
		drv = pr.WithOutput(o.stdout)
	}
	if drv != nil {
		var err error
		db, err = drv.Configure(d, schema)
		add(err)
		p.ownDB = db != nil
		p.driverKeys = drv.Keys()
	}
	if known && db != nil {
		have := drivers.CapsOf(db)
		if missing := p.Kind.Needs &^ have; missing != 0 {
			add(capsError(p.DriverName, p.Kind.Name, missing))
		}
	}

	// Unknown keys: an error, unless another driver knows the key (a shared
	// property file may carry settings for several backends): then a
	// warning.
	for _, e := range props.Unknown(set, props.Names(p.Kind.Keys, p.driverKeys), d) {
		var pe *props.Error
		if errors.As(e, &pe) {
			if other := driverOwning(pe.Key, p.DriverName); other != "" {
				p.Warnings = append(p.Warnings, fmt.Sprintf("property %s (%s) is for the %s driver; ignored with db %s", pe.Key, pe.Where(), other, p.DriverName))
				continue
			}
		}
		add(e)
	}
	if job != nil {
		add(settings.Validate())
	}
	if all := dedupe(append(append([]error{}, d.Errs()...), errs...), set); len(all) > 0 {
		if p.ownDB {
			db.Close()
		}
		return nil, errors.Join(all...)
	}
	r, err := engine.New(settings, job, db)
	if err != nil {
		if p.ownDB {
			db.Close()
		}
		return nil, err
	}
	p.job, p.db, p.runner = job, db, r
	p.Settings = r.Settings()
	return p, nil
}

// capsError says which capability a driver lacks for a kind, and which
// registered drivers have it.
func capsError(driver, kind string, missing drivers.Caps) error {
	var with []string
	for _, n := range drivers.Names() {
		if d, err := drivers.Lookup(n); err == nil && drivers.CapsOf(d).Has(missing) {
			with = append(with, n)
		}
	}
	msg := fmt.Sprintf("db %s cannot run workload %s: its connections lack %s", driver, kind, strings.Join(missing.Names(), " and "))
	if len(with) > 0 {
		msg += fmt.Sprintf(" (drivers with it: %s)", strings.Join(with, ", "))
	}
	return &props.Error{Key: "workload", Value: kind, Err: errors.New(msg)}
}

// driverOwning names a registered driver other than current whose keys
// include key.
func driverOwning(key, current string) string {
	for _, n := range drivers.Names() {
		if n == current {
			continue
		}
		d, _ := drivers.Lookup(n)
		for _, k := range d.Keys() {
			if k.Name == key {
				return n
			}
		}
	}
	return ""
}

// dedupe flattens joined errors, drops repeats (a driver may return the
// problems its decoder also recorded) and gives property errors without an
// origin the key's value and origin from set.
func dedupe(errs []error, set *props.Set) []error {
	var out []error
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		if u := errors.Unwrap(err); u != nil {
			if _, ok := u.(interface{ Unwrap() []error }); ok {
				walk(u) // a driver's "configure X: " over its list: each problem once, by itself
				return
			}
		}
		var pe *props.Error
		if errors.As(err, &pe) && err != error(pe) {
			for _, e := range out {
				var oe *props.Error
				if errors.As(e, &oe) && (oe == pe || oe.Error() == pe.Error()) {
					return // a wrapped property problem already reported as such
				}
			}
		}
		if errors.As(err, &pe) && pe.Source == "" {
			if v, ok := set.Get(pe.Key); ok {
				cp := *pe
				cp.Value, cp.Source, cp.Line = v.Value, v.Source, v.Line
				err = &cp
			}
		}
		for _, e := range out {
			if e == err || e.Error() == err.Error() {
				return
			}
		}
		out = append(out, err)
	}
	for _, e := range errs {
		walk(e)
	}
	return out
}
