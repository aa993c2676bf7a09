// Package memory is gobench's in-process ordered store, registered as the
// driver "memory". It needs no disk and no server, so it serves library
// tests, examples and runs that measure gobench itself with realistic data
// flow (reads return what was written, unlike "basic").
//
// How it serves the YCSB operations: each table is a skip list ordered by
// the bytes of the key (O(log n) insert, lookup and seek, so workload E's
// scans cost a seek plus one step per record), guarded by its own RWMutex.
// A record is its field values indexed by schema position.
//   - read copies the requested fields into the caller's record; a missing
//     key is NOT_FOUND.
//   - scan seeks to the start key and copies up to count records, in key
//     order, into the Conn's scratch space, then calls the callback.
//   - insert replaces the whole record; update sets only the given fields and
//     creates the record if it is missing (as HBase does).
//   - delete removes the record; deleting a missing key is not an error
//     (as in HBase).
//
// Every Conn of one [DB] shares its tables; a new DB is empty, and the data
// is gone when the DB is closed or the process ends (a load in one gobench
// process is not seen by a run in the next: use "pebble" for that). Reads
// and scans allocate nothing once the caller's record has grown; writes
// allocate the stored copy of the key and values. Operations never block
// on I/O, so they do not consult the context.
//
// It may import the standard library, gobench/drivers and gobench/props.
//
//	db := memory.NewDB(drivers.Schema{Table: "usertable", Fields: []string{"field0"}})
//	c, _ := db.Open(ctx)
//	r := drivers.NewRecord(1)
//	r.Set(0, []byte("hello"))
//	_ = c.Insert(ctx, "usertable", []byte("user1"), r)
//	_ = c.Read(ctx, "usertable", []byte("user1"), nil, r)
package memory
