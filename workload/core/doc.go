// Package core is YCSB's CoreWorkload as a gobench workload kind ([Kind],
// the default of the workload property): the key space (Java's key names,
// insert order, client slices), the operation mix (read, update, insert,
// scan, read-modify-write, and gobench's delete), the request, field-length
// and scan-length distributions, field values (Java's RandomByteIterator
// bytes or dataintegrity's; none for a Conn that never reads them,
// drivers.ValueBytesIgnorer), insertion retries, and the VERIFY measurement.
//
// [Decode] reads the CoreWorkload properties into a [Spec]; the kind's Build
// makes the engine.Job whose worker tasks run one operation per Step. Run it
// through package workload (workload.Prepare), which decodes the common
// settings, configures the driver and checks it before anything opens.
//
// It may import engine, generator, drivers and props, and the standard
// library (os, to read fieldlengthhistogram).
package core
