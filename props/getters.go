package props

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// get looks key up (marking it used) and returns the value with blanks
// trimmed, for the typed getters.
func (d *Decoder) get(key string) (Value, string, bool) {
	v, ok := d.Lookup(key)
	return v, strings.TrimSpace(v.Value), ok
}

// bad records an *Error for v.
func (d *Decoder) bad(v Value, err error, allowed, hint string) {
	d.errs = append(d.errs, &Error{Key: v.Key, Value: v.Value, Source: v.Source, Line: v.Line, Err: err, Allowed: allowed, Hint: hint})
}

// String returns the value of key with trailing blanks removed, or def when
// the key is not set.
func (d *Decoder) String(key, def string) string {
	v, ok := d.Lookup(key)
	if !ok {
		return def
	}
	return strings.TrimRight(v.Value, " \t\f")
}

// Int returns the value of key as a decimal integer (optional sign), or def
// when the key is not set.
func (d *Decoder) Int(key string, def int) int {
	return d.IntRange(key, def, math.MinInt, math.MaxInt)
}

// IntRange is Int restricted to [min, max]; a value outside is recorded as an
// error wrapping ErrRange whose message states the range.
func (d *Decoder) IntRange(key string, def, min, max int) int {
	return int(d.Int64Range(key, int64(def), int64(min), int64(max)))
}

// Int64 returns the value of key as a 64-bit decimal integer, or def when the
// key is not set.
func (d *Decoder) Int64(key string, def int64) int64 {
	return d.Int64Range(key, def, math.MinInt64, math.MaxInt64)
}

// Int64Range is Int64 restricted to [min, max].
func (d *Decoder) Int64Range(key string, def, min, max int64) int64 {
	v, s, ok := d.get(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		d.bad(v, outOfRange(), "a whole number from "+strconv.FormatInt(min, 10)+" to "+strconv.FormatInt(max, 10), "")
		return def
	case err == nil && (n < min || n > max):
		d.bad(v, outOfRange(), intRange(min, max), "")
		return def
	case err != nil:
		d.bad(v, invalid("invalid integer"), intRange(min, max), "")
		return def
	}
	return n
}

func intRange(min, max int64) string {
	lo, hi := min == math.MinInt64, max == math.MaxInt64
	switch {
	case lo && hi:
		return "a whole number"
	case hi:
		return "a whole number >= " + strconv.FormatInt(min, 10)
	case lo:
		return "a whole number <= " + strconv.FormatInt(max, 10)
	}
	return "a whole number from " + strconv.FormatInt(min, 10) + " to " + strconv.FormatInt(max, 10)
}

// Float returns the value of key as a finite decimal number (Go syntax:
// 0.95, 1e-3), or def when the key is not set. NaN and infinities are errors.
func (d *Decoder) Float(key string, def float64) float64 {
	return d.FloatRange(key, def, math.Inf(-1), math.Inf(1))
}

// FloatRange is Float restricted to [min, max].
func (d *Decoder) FloatRange(key string, def, min, max float64) float64 {
	v, s, ok := d.get(key)
	if !ok {
		return def
	}
	f, err := parseFloat(s)
	switch {
	case err != nil:
		d.bad(v, invalid("invalid number"), floatRange(min, max), "")
		return def
	case f < min || f > max:
		d.bad(v, outOfRange(), floatRange(min, max), "")
		return def
	}
	return f
}

func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		err = strconv.ErrSyntax
	}
	return f, err
}

func floatRange(min, max float64) string {
	g := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	lo, hi := math.IsInf(min, -1), math.IsInf(max, 1)
	switch {
	case lo && hi:
		return "a finite number"
	case hi:
		return "a number >= " + g(min)
	case lo:
		return "a number <= " + g(max)
	}
	return "a number from " + g(min) + " to " + g(max)
}

// Bool returns the value of key as true or false (any letter case, as Java
// accepts), or def when the key is not set. Anything else is an error (Java
// would silently read it as false).
func (d *Decoder) Bool(key string, def bool) bool {
	v, s, ok := d.get(key)
	switch {
	case !ok:
		return def
	case strings.EqualFold(s, "true"):
		return true
	case strings.EqualFold(s, "false"):
		return false
	}
	d.bad(v, invalid("invalid boolean"), "true or false", "")
	return def
}

// Enum returns the allowed spelling that matches the value of key ignoring
// case, or def when the key is not set. A value not in allowed is an error
// listing them, with the nearest as a hint.
func (d *Decoder) Enum(key, def string, allowed ...string) string {
	v, s, ok := d.get(key)
	if !ok {
		return def
	}
	for _, a := range allowed {
		if strings.EqualFold(s, a) {
			return a
		}
	}
	d.bad(v, invalid("invalid value"), strings.Join(allowed, ", "), Nearest(s, allowed))
	return def
}

// Duration returns the value of key as a duration, or def when the key is not
// set. A plain number (integer or decimal) counts in unit, e.g. time.Second
// for YCSB's maxexecutiontime; Go duration text such as "90s" or "1m30s" is
// accepted too. Negative durations are errors.
func (d *Decoder) Duration(key string, def, unit time.Duration) time.Duration {
	v, s, ok := d.get(key)
	if !ok {
		return def
	}
	allowed := "a duration >= 0: a number of " + unitName(unit) + " or Go duration text like 90s, 1m30s, 250ms"
	var dur time.Duration
	if f, err := parseFloat(s); err == nil {
		x := f * float64(unit)
		if x >= math.MaxInt64 || x < 0 {
			d.bad(v, outOfRange(), allowed, "")
			return def
		}
		dur = time.Duration(x)
	} else if dur, err = time.ParseDuration(s); err != nil {
		d.bad(v, invalid("invalid duration"), allowed, "")
		return def
	}
	if dur < 0 {
		d.bad(v, outOfRange(), allowed, "")
		return def
	}
	return dur
}

func unitName(u time.Duration) string {
	switch u {
	case time.Nanosecond:
		return "nanoseconds"
	case time.Microsecond:
		return "microseconds"
	case time.Millisecond:
		return "milliseconds"
	case time.Second:
		return "seconds"
	case time.Minute:
		return "minutes"
	case time.Hour:
		return "hours"
	}
	return "units of " + u.String()
}

// Floats returns the value of key as a comma-separated list of finite numbers
// (blanks around items allowed, e.g. YCSB's hdrhistogram.percentiles
// "50,95,99"), or def (not copied) when the key is not set. An empty item is
// an error.
func (d *Decoder) Floats(key string, def []float64) []float64 {
	v, s, ok := d.get(key)
	if !ok {
		return def
	}
	items := strings.Split(s, ",")
	out := make([]float64, 0, len(items))
	for _, it := range items {
		f, err := parseFloat(strings.TrimSpace(it))
		if err != nil {
			d.bad(v, invalid("invalid number list"), "comma-separated numbers, e.g. 50,95,99.9", "")
			return def
		}
		out = append(out, f)
	}
	return out
}

// Strings returns the value of key split at commas, items trimmed of blanks
// and empty items dropped (so an empty value is an empty list), or def (not
// copied) when the key is not set.
func (d *Decoder) Strings(key string, def []string) []string {
	v, ok := d.Lookup(key)
	if !ok {
		return def
	}
	out := []string{}
	for _, it := range strings.Split(v.Value, ",") {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}
