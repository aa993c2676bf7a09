// Package basic is YCSB's BasicDB in Go, registered as the driver "basic"
// (aliases "site.ycsb.BasicDB" and "com.yahoo.ycsb.BasicDB"). It stores
// nothing and answers every operation with OK, so a run against it
// measures gobench's own overhead: key generation, pacing,
// measurement and reporting.
//
// How it serves the YCSB operations, as Java's BasicDB does:
//   - every operation first waits basicdb.simulatedelay (a number of
//     milliseconds, or Go duration text), drawn uniformly from
//     [0, simulatedelay) when basicdb.randomizedelay is true (the default):
//     whole milliseconds as Java's nextInt when the delay is whole
//     milliseconds. A cancelled context ends the wait and the operation
//     fails with the context's error.
//   - read returns OK with no fields (so dataintegrity=true fails its
//     verification, as in Java); scan returns OK without visiting a record;
//     insert, update and delete return OK.
//   - basicdb.verbose=true prints each operation on one line in Java's
//     format, for example
//     "READ usertable user6284781860667377211 [ <all fields>]",
//     "SCAN usertable user1 10 [ field0 ]",
//     "UPDATE usertable user1 [ field3=value ]",
//     "DELETE usertable user1"; the first Open prints the properties between
//     Java's rows of asterisks. Fields print in schema order (Java's order
//     is a hash map's). Java defaults basicdb.verbose to true; gobench
//     defaults it to false, because a line per operation floods the report.
//   - basicdb.count=true counts distinct (table, key, fields or values) per
//     operation and prints "[READS], Uniques, N" and so on for SCANS,
//     UPDATES, INSERTS and DELETES when the DB closes.
//
// Output goes to the writer the driver was given ([New],
// [Driver.WithOutput], which makes Driver a [drivers.Printer]); the
// registered zero Driver prints nothing, and the CLI hands it its stdout.
// Without verbose or count, operations allocate nothing, and a Conn says
// it never reads the bytes of the values it is given
// ([drivers.ValueBytesIgnorer]), so the core workload does not make them:
// Java's BasicDB never fills its lazy values either.
//
// It may import the standard library, gobench/drivers and gobench/props.
//
//	drv := basic.New(os.Stdout)
//	db, err := drv.Configure(props.NewDecoder(&set), schema)
//	c, _ := db.Open(ctx)
//	_ = c.Read(ctx, "usertable", []byte("user1"), nil, rec) // prints READ usertable user1 [ <all fields>]
package basic
