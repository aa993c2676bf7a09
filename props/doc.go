// Package props reads Java-style property files and command-line overrides,
// layers them with their origin (file and line) kept, and decodes them
// strictly into typed values.
//
// It is a leaf: standard library only. The workload package decodes the core
// properties with it, and every driver decodes its own keys with it, so both
// report bad input the same way: key, value, file:line, what is allowed, and a
// nearest-name hint for unknown keys.
//
// # The pipeline
//
//   - [Parse] reads java.util.Properties text (key=value, key: value,
//     key value, # and ! comments, backslash continuations, escapes) and
//     returns every entry with its source and line; [ParseOverride] reads one
//     -p key=value. Every malformed line is reported at once.
//   - [Layers] fixes the precedence in one place, lowest first: defaults,
//     workload files, -P files in order, -p, explicit flags; [Layers.Set]
//     merges them and [Layers.Origin] tells which layer set a key.
//   - A [Decoder] reads typed values (Int, IntRange, Float, Bool, Duration,
//     Enum, Bytes, Floats, ...), records every bad value as an [*Error]
//     instead of defaulting silently, and remembers the keys it read, so that
//     [Unknown] can reject the rest with a hint. [Prefix] routes "hbase.*"
//     keys to their driver.
//   - [Set.Dump] prints the effective configuration with each key's origin.
//
// # Deliberate differences from Java
//
// Files that are valid UTF-8 are read as UTF-8, others as ISO-8859-1 (Java
// reads ISO-8859-1 only). Trailing blanks stay in the raw value, as in Java,
// but typed getters ignore them, so "threadcount=500 " is 500 rather than a
// NumberFormatException. A key with neither separator nor value, an empty key
// and a malformed \uXXXX escape are errors. Booleans other than true/false
// (any case) are errors, where Java reads them as false.
//
// # Example
//
//	var layers props.Layers
//	vals, err := props.Parse(f, "my.properties") // f is an io.Reader
//	if err != nil { return err }                   // every bad line, with file:line
//	layers.Add(props.LayerFile, vals...)
//	p, err := props.ParseOverride("threadcount=8", "-p")
//	if err != nil { return err }
//	layers.Add(props.LayerOverride, p)
//
//	d := props.NewDecoder(layers.Set())
//	threads := d.IntRange("threadcount", 1, 1, 10000)
//	limit := d.Duration("maxexecutiontime", 0, time.Second)
//	dist := d.Enum("requestdistribution", "uniform", "uniform", "zipfian", "latest")
//	err = errors.Join(d.Err(), errors.Join(d.Unknown(knownKeys)...))
//
// Nothing here is used per operation: decode once at set-up. None of the
// types is safe for concurrent mutation.
package props
