package props

import (
	"sort"
	"strings"
)

// Value is one property with its origin.
type Value struct {
	Key   string
	Value string
	// Source names where the value came from: a file path, "-p", a flag
	// ("-threads"), "default", or a shipped workload ("workload workloada").
	Source string
	// Line is the 1-based line in Source, or 0 when Source is not a file.
	Line int
}

// Where renders the origin as "file:line" or the bare source.
func (v Value) Where() string {
	if v.Line > 0 {
		return v.Source + ":" + itoa(v.Line)
	}
	return v.Source
}

// Set holds the effective properties: for each key, the value from the highest
// layer added so far (later Add wins). The zero Set is empty and ready to use.
// A Set is not safe for concurrent mutation.
type Set struct {
	m map[string]Value
}

// Add lays values over the set, later values winning per key.
func (s *Set) Add(vals ...Value) {
	if s.m == nil {
		s.m = make(map[string]Value)
	}
	for _, v := range vals {
		s.m[v.Key] = v
	}
}

// Get returns the effective value of key.
func (s *Set) Get(key string) (Value, bool) {
	v, ok := s.m[key]
	return v, ok
}

// Keys returns every key in the set, sorted.
func (s *Set) Keys() []string {
	k := make([]string, 0, len(s.m))
	for key := range s.m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

// Len returns the number of keys in the set.
func (s *Set) Len() int { return len(s.m) }

// Values returns the effective value of every key, sorted by key.
func (s *Set) Values() []Value {
	vals := make([]Value, 0, len(s.m))
	for _, k := range s.Keys() {
		vals = append(vals, s.m[k])
	}
	return vals
}

// KeysWithPrefix returns the sorted keys that start with prefix + ".", e.g.
// every "hbase.*" key for KeysWithPrefix("hbase").
func (s *Set) KeysWithPrefix(prefix string) []string {
	var keys []string
	for _, k := range s.Keys() {
		if Prefix(k) == prefix {
			keys = append(keys, k)
		}
	}
	return keys
}

// Prefix returns the part of key before its first '.', or "" when key has
// no '.': Prefix("hbase.zookeeper.quorum") == "hbase", so that callers can
// route a driver's keys to it.
func Prefix(key string) string {
	p, _, ok := strings.Cut(key, ".")
	if !ok {
		return ""
	}
	return p
}

// FromMap returns one Value per entry of m, sorted by key, all with the given
// source and line 0: for defaults ("default") and flags ("-threads").
func FromMap(m map[string]string, source string) []Value {
	vals := make([]Value, 0, len(m))
	for k, v := range m {
		vals = append(vals, Value{Key: k, Value: v, Source: source})
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].Key < vals[j].Key })
	return vals
}

// Key describes a property a consumer understands, for strict checking,
// hints and help text.
type Key struct {
	Name    string
	Default string
	Usage   string
	// Show marks a key whose value decides where the data goes (a
	// directory, a server address) or what is measured: the effective
	// configuration shows it even when it is left at its default.
	Show bool
}

// Names returns the names of keys, in order, as the known list for
// [Unknown].
func Names(keys ...[]Key) []string {
	var names []string
	for _, ks := range keys {
		for _, k := range ks {
			names = append(names, k.Name)
		}
	}
	return names
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
