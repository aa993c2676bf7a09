// Package props reads Java-style property files and command-line overrides,
// layers them with their origin (file and line) kept, and decodes them
// strictly into typed values.
//
// It is a leaf: standard library only. The workload package decodes the core
// properties with it, and every driver decodes its own keys with it, so both
// report bad input the same way: key, value, file:line, what is allowed, and a
// nearest-name hint for unknown keys.
//
//	var s props.Set
//	vals, err := props.Parse(strings.NewReader("recordcount=1000\n"), "my.properties")
//	s.Add(vals...)
//	d := props.NewDecoder(&s)
//	n := d.Int64("recordcount", 0)
//	if err := d.Err(); err != nil { ... }
package props
