package props

// Decoder reads typed values from a Set, collecting every problem instead of
// stopping at the first, and remembering which keys were read so that the
// rest can be reported as unknown. Getters return the default when the key is
// absent, and the default (plus a recorded error) when the value is bad: a bad
// value never silently becomes a default, because Err is checked before use.
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

// Fail records a problem with the value of key (use for cross-field checks
// that the typed getters cannot see).
func (d *Decoder) Fail(err error) { d.errs = append(d.errs, err) }

// Errs returns every problem recorded so far.
func (d *Decoder) Errs() []error { return d.errs }
