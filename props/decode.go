package props

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Decoder reads typed values from a Set, collecting every problem instead of
// stopping at the first, and remembering which keys were read so that the
// rest can be reported as unknown. Getters return the default when the key is
// absent, and the default (plus a recorded error) when the value is bad: a bad
// value never silently becomes a default, because Err is checked before use.
//
// Typed getters ignore blanks around the value (see [Parse] on trailing
// blanks); String ignores trailing blanks only. A Decoder is not safe for
// concurrent use; decode once at set-up, never per operation.
type Decoder struct {
	set  *Set
	used map[string]bool
	errs []error
}

// NewDecoder returns a decoder over s.
func NewDecoder(s *Set) *Decoder { return &Decoder{set: s, used: map[string]bool{}} }

// Set returns the set being decoded.
func (d *Decoder) Set() *Set { return d.set }

// Lookup returns the value of key and marks it used.
func (d *Decoder) Lookup(key string) (Value, bool) {
	d.used[key] = true
	return d.set.Get(key)
}

// Used reports whether key was read by any getter.
func (d *Decoder) Used(key string) bool { return d.used[key] }

// UsedKeys returns every key read so far (present or not), sorted.
func (d *Decoder) UsedKeys() []string {
	keys := make([]string, 0, len(d.used))
	for k := range d.used {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Fail records a problem with the value of key (use for cross-field checks
// that the typed getters cannot see).
func (d *Decoder) Fail(err error) { d.errs = append(d.errs, err) }

// Failf records an [*Error] for key (marking it used) whose Err is
// fmt.Errorf(format, args...), with the key's value and origin when it is
// set: for cross-field checks such as "insertstart + insertcount exceeds
// recordcount".
func (d *Decoder) Failf(key, format string, args ...any) {
	v, _ := d.Lookup(key)
	d.errs = append(d.errs, &Error{Key: key, Value: v.Value, Source: v.Source, Line: v.Line, Err: fmt.Errorf(format, args...)})
}

// Require records an [*Error] wrapping ErrMissing when key is not set, and
// returns its value either way (marking it used).
func (d *Decoder) Require(key string) (Value, bool) {
	v, ok := d.Lookup(key)
	if !ok {
		d.errs = append(d.errs, &Error{Key: key, Err: ErrMissing})
	}
	return v, ok
}

// Errs returns every problem recorded so far, in recording order.
func (d *Decoder) Errs() []error { return d.errs }

// Err returns every recorded problem joined with errors.Join, or nil. The
// errors are ordered by origin (source name, then line, then key) for stable
// output; errors without an origin come last in recording order, and exact
// duplicates (the same key read twice) are dropped.
func (d *Decoder) Err() error {
	return errors.Join(sortErrs(d.errs)...)
}

// origin returns the source, line and key of err when it is one of ours.
func origin(err error) (src string, line int, key string) {
	var pe *Error
	var se *SyntaxError
	switch {
	case errors.As(err, &pe):
		return pe.Source, pe.Line, pe.Key
	case errors.As(err, &se):
		return se.Source, se.Line, ""
	}
	return "", 0, ""
}

func sortErrs(errs []error) []error {
	out := make([]error, 0, len(errs))
	seen := make(map[string]bool, len(errs))
	for _, err := range errs {
		if err == nil || seen[err.Error()] {
			continue
		}
		seen[err.Error()] = true
		out = append(out, err)
	}
	slices.SortStableFunc(out, func(a, b error) int {
		sa, la, ka := origin(a)
		sb, lb, kb := origin(b)
		if (sa == "") != (sb == "") {
			if sa == "" {
				return 1
			}
			return -1
		}
		return cmp.Or(strings.Compare(sa, sb), cmp.Compare(la, lb), strings.Compare(ka, kb))
	})
	return out
}

// Unknown returns an [*Error] wrapping ErrUnknown for each key of d's set
// that d never read and that is not in known, with a nearest-name hint; see
// the function [Unknown].
func (d *Decoder) Unknown(known []string) []error { return Unknown(d.set, known, d) }

// Unknown returns an [*Error] wrapping ErrUnknown for each key of s that is
// neither in known nor read by any of the decoders, ordered by origin. Each
// carries as Hint the nearest name among known and the decoders' used keys
// (see [Nearest]), when one is close enough. known lists keys that are valid
// even when no decoder read them (e.g. hotspotdatafraction when the request
// distribution is not hotspot); see [Names] to build it from [Key] lists.
func Unknown(s *Set, known []string, used ...*Decoder) []error {
	isKnown := make(map[string]bool, len(known))
	for _, k := range known {
		isKnown[k] = true
	}
	for _, d := range used {
		for k := range d.used {
			isKnown[k] = true
		}
	}
	cands := make([]string, 0, len(isKnown))
	for k := range isKnown {
		cands = append(cands, k)
	}
	slices.Sort(cands)
	var errs []error
	for _, k := range s.Keys() {
		if isKnown[k] {
			continue
		}
		v := s.m[k]
		errs = append(errs, &Error{Key: k, Value: v.Value, Source: v.Source, Line: v.Line, Err: ErrUnknown, Hint: Nearest(k, cands)})
	}
	return sortErrs(errs)
}
