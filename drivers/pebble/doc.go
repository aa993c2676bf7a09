// Package pebble is gobench's embedded default store, registered as the
// driver "pebble": an LSM key-value store (github.com/cockroachdb/pebble
// v1.1.5) in a local directory, so a load in one gobench process is read by
// a run in the next without any server.
//
// Layout: one store per directory (pebble.dir, default "gobench-data" under
// the working directory). Tables share it as key prefixes: a record lives at
// table + 0x00 + key, so a table's records are contiguous and ordered by the
// bytes of their keys; a table name may not hold a zero byte. A record's
// value is a compact binary encoding of its present fields: a version byte,
// then per field uvarint(index) uvarint(length) bytes.
//
// How it serves the YCSB operations:
//   - read: one Get, decoding the requested fields straight into the
//     caller's record; a missing key is NOT_FOUND.
//   - scan: one iterator per scan, bounded to the table, SeekGE to the start
//     key and Next up to count records, closed before Scan returns.
//   - insert: one Set of the whole record (replacing any old one).
//   - update: read, merge the given fields, Set, under a striped per-key lock
//     so concurrent writers to a key never lose each other's fields; an
//     update of every field is a blind Set, and an update of a missing key
//     creates it (as HBase does).
//   - delete: one Delete; a missing key is not an error (as in HBase).
//
// The DB holds one pebble store shared by all Conns, opened at the first
// Open; Conns are cheap (a few buffers). Defaults favour throughput with
// safety: the write-ahead log is on (pebble.wal), each write is not synced
// (pebble.sync=false: data survives a process crash, not a machine crash),
// 64 MB memtables and block cache, 4 KB blocks and bloom filters on every
// level, so a point read that misses the cache reads one small block.
// pebble's informational log is dropped; its fatal errors panic.
// [DB] implements [drivers.TableAdmin]: CreateTable does nothing, DropTable
// deletes the table's key range.
//
// It may import the standard library, gobench/drivers, gobench/props and
// github.com/cockroachdb/pebble.
//
//	var s props.Set
//	s.Add(props.Value{Key: "pebble.dir", Value: "/tmp/ycsb", Source: "-p"})
//	db, err := pebble.Driver{}.Configure(props.NewDecoder(&s), schema)
//	c, err := db.Open(ctx) // opens the store
//	defer db.Close()
package pebble
