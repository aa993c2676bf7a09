// Package drivers defines what a gobench database driver is: the [Driver] →
// [DB] → [Conn] contract, the optional capability interfaces a runner checks
// once at set-up, the YCSB return codes ([Status]) and how errors map onto them
// ([Classify]), the [Record] and [FieldSet] types that carry values without
// per-operation allocation, and a registry that the CLI uses to find drivers by
// name. Two helpers are embedded by drivers: [NoRecords] (the record
// operations as NOT_IMPLEMENTED, for file, stream and query drivers) and
// [LocalDir] (a local directory tree's names, Size, Truncate and RemoveAll,
// for localfs and diskfile).
//
// It may import only the standard library and gobench/props. Concrete drivers
// live in sub-packages (drivers/pebble, drivers/memory, drivers/basic,
// drivers/hbase, ...) and import this package; nothing here imports them.
// drivers/driverstest holds the conformance suite every driver runs.
//
// A minimal driver:
//
//	type myDriver struct{}
//	func (myDriver) Keys() []props.Key { return nil }
//	func (myDriver) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) { return &myDB{}, nil }
//	// myDB.Open returns one Conn per worker; each Conn implements Read, Scan,
//	// Update, Insert, Delete and Close.
//	func init() { drivers.Register("mine", myDriver{}) }
package drivers
