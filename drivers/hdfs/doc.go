// Package hdfs is the gobench driver for HDFS (registered as "hdfs"), on the
// pure-Go client github.com/colinmarc/hdfs/v2. It serves two kinds of
// workload:
//
// YCSB operations, as one small file per record under /<table>/ — the
// NameNode-heavy small-file pattern, which is what HDFS does worst and what
// this driver lets you measure:
//   - the file name is the key, with bytes other than [0-9A-Za-z_-]
//     written as %XX (YCSB's keys "user123..." are unchanged, and keys made
//     of those bytes keep their order);
//   - the file holds the record's fields as (uvarint field index, uvarint
//     length, bytes) triples;
//   - Insert and Update write the whole file to a temporary name in the same
//     directory (".tmp-<conn>-<n>") and rename it over the record, so a
//     reader never sees half a record; Update reads the old record first and
//     keeps the fields it does not change;
//   - Read opens and reads the file; Delete removes it (NOT_FOUND when it is
//     not there);
//   - Scan lists the directory (one getListing of every entry: it costs
//     O(records) on the NameNode), then reads the files from the start key
//     in key order, up to the count.
//
// The directory /<table> is created by [DB.CreateTable] ([drivers.TableAdmin])
// or on the first write. Every worker (Conn) has its own client, i.e. its
// own NameNode connection, as YCSB threads each have their own binding
// instance; the colinmarc client serialises the RPCs of one connection.
//
// File streams ([drivers.FileSystem]) for the dfsio workload (TestDFSIO):
// Create (overwrites, creates parents), Append, Open with sequential and
// positional reads, Truncate, RemoveAll.
//
// Every operation honours its context, and each call on a stream the
// context the stream was opened with: the client (which takes no context)
// dials through a guard that gives each read and write on a NameNode or
// DataNode connection the earliest of hdfs.timeout from now and the
// context's deadline, and that cuts blocked calls at once when the context
// is cancelled (the runner's drain). So a hung server holds an operation no
// longer than its context (or hdfs.timeout), and the error wraps the
// context's. A cut NameNode RPC leaves the connection out of step, so the
// Conn then replaces its client before the next operation (not while a
// stream is open). An Insert or Update cut half-way leaves its temporary
// file behind; Scan skips it and DropTable removes it.
//
// Properties: hdfs.namenode (host:port[,host:port], default 127.0.0.1:9000),
// hdfs.user (default: the OS user, as Hadoop), hdfs.replication and
// hdfs.blocksize (default 0: the NameNode's defaults, dfs.replication and
// dfs.blocksize), hdfs.timeout (default 60s).
//
// It may import gobench/drivers, gobench/props, colinmarc/hdfs and the
// standard library.
//
//	db, err := hdfs.Driver{}.Configure(decoder, schema) // reads hdfs.* keys
//	c, err := db.Open(ctx)                               // dials the NameNode
//	err = c.Insert(ctx, "usertable", []byte("user1"), rec)
//	w, err := c.(drivers.FileSystem).Create(ctx, "/benchmarks/f", 1<<20)
package hdfs
