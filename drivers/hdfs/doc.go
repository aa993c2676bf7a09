// Package hdfs is the gobench driver for HDFS (registered as "hdfs"). Files
// are created, written, read, renamed and deleted through gobench's own
// HDFS client (with Kerberos too: see "Secured clusters" below),
// drivers/hdfs/hwire (NameNode RPC and DataNode transfer
// protocol, with pipeline recovery and kept DataNode connections); the
// pure-Go github.com/colinmarc/hdfs/v2 client, dialled on first use, does
// the rest (listing, append, truncate, stat, mkdir). It serves two kinds of
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
//   - Insert writes the file in place: create with the overwrite flag (an
//     existing record is replaced in the same call; missing parents are
//     made), then its one block, then complete. Until complete, Read finds
//     no record there (a file under construction is not a record);
//   - Update reads the old record, merges the fields, writes the whole
//     record to a temporary name in the same directory
//     (".tmp-<conn>-<n>") and renames it over the record (rename2 with
//     overwrite), so a reader sees the old record or the new one, never
//     none and never half of one;
//   - Read is one getBlockLocations and one positional read of the
//     file's bytes; Delete is one delete (NOT_FOUND when it is not there);
//   - Scan lists the directory (one getListing of every entry: it costs
//     O(records) on the NameNode), then reads the files from the start key
//     in key order, up to the count.
//
// NameNode calls per YCSB operation (pinned on the real NameNode by
// TestIntegrationNameNodeCallsPerOperation, from its RPC counters):
//
//	insert  3  create, addBlock, complete
//	update  5  getBlockLocations, create, addBlock, complete, rename2
//	read    1  getBlockLocations
//	delete  1  delete
//	scan    1 + records read  getListing, getBlockLocations per record
//
// complete is called again (after 10 ms, doubling) while the NameNode has
// not yet had a DataNode's report of the finished block: about 4 files in
// 5 on the single-node testenv, 1 in 6 on the 3-DataNode cluster (Java's
// client does the same, waiting 400 ms first). The first write of a DB
// adds one getServerDefaults when hdfs.replication or hdfs.blocksize is 0;
// a write longer than 30 s renews its lease (renewLease) every 30 s. With
// colinmarc's client these were 5, 7, 2 and 2 calls (a getFileInfo before
// each rename and delete, a delete before an overwriting create, a
// getFileInfo before each open).
//
// The directory /<table> is created by [DB.CreateTable] ([drivers.TableAdmin])
// or on the first write. Every worker (Conn) has its own NameNode connection,
// as YCSB threads each have their own binding instance; calls on one
// connection are one at a time.
//
// File streams ([drivers.FileSystem]) for the dfsio workload (TestDFSIO):
// Create (overwrites and creates parents in one create call), Append,
// Open with sequential and positional reads, Size, Truncate, RemoveAll
// (one delete). A positional read (dfsio -read -random, -backward, -skip,
// and the record reads) asks the DataNode for exactly the bytes wanted, as
// Java's pread does, over the connection the previous read of that
// DataNode left (kept 3 s, under the DataNode's 4 s keep-alive): no
// connection and handshake per read, and the DataNode reads no more than
// asked. A sequential read streams each block from its offset to its end.
// A DataNode that fails a read is tried last for 10 s; the read goes on
// from the next replica.
//
// A DataNode that fails during a write (killed, or an error ack) costs what
// it costs Java's client with its default policy: the writer drops it from
// the block's pipeline (the node an error ack names, else the first),
// asks the NameNode for a new generation stamp (updateBlockForPipeline),
// sets the pipeline up again on the remaining DataNodes, reports it
// (updatePipeline), and sends again the packets not yet acknowledged (at
// most 80 of 64 KiB); 2 NameNode calls, one new connection and up to 5 MiB
// sent again per failure, and the write goes on with one replica fewer for
// that block (no replacement DataNode is added, as Java's DEFAULT policy
// with replication 3; the NameNode re-replicates later). A pipeline that
// cannot be set up for a new block (the dead DataNode is still handed out
// until the NameNode marks it stale) is abandoned (abandonBlock) and a new
// one asked for without that node (addBlock): 2 more calls, up to 3 times.
// A write fails only when every DataNode of its pipeline has failed, after
// 5 recoveries in a row, or on a NameNode error; Insert and Update then
// write their record once more from the start (the record is in memory),
// after deleting the file left under construction. Measured on the
// testenv cluster, hdfs-dn2 SIGKILLed 2 s into dfsio -write of 4 x 128 MB:
// every file complete and readable, the files 3.9-5.3 s each (Java's
// TestDFSIO: the same recovery, 5.5-5.9 s); gobench before this client
// failed all 4 files ("Ack error from datanode: ERROR"). A YCSB load of
// 3000 records (8 threads) with hdfs-dn2 killed: every insert succeeded
// and reads back.
//
// Every operation honours its context, and each call on a stream the
// context the stream was opened with: every NameNode and DataNode
// connection is dialled through a guard that gives each read and write
// the earliest of hdfs.timeout from now and the context's deadline, and
// that cuts blocked calls at once when the context is cancelled (the
// runner's drain). So a hung server holds an operation no longer than its
// context (or hdfs.timeout), and the error wraps the context's. A cut
// NameNode RPC leaves the connection out of step, so the Conn then
// replaces its connections before the next operation (not while a stream
// is open). An Update cut half-way leaves its temporary file behind; Scan
// skips it and DropTable removes it. An Insert cut half-way leaves the
// record's file under construction (Read: NOT_FOUND); the NameNode refuses
// to create it again until it has recovered the file's lease (its soft
// limit is a minute).
//
// Properties: hdfs.namenode (host:port[,host:port], default fs.defaultFS of
// the conf directory, else 127.0.0.1:9000), hdfs.user (default: the OS
// user, as Hadoop), hdfs.replication and hdfs.blocksize (default 0: the
// NameNode's defaults, dfs.replication and dfs.blocksize), hdfs.timeout
// (default 60s).
//
// Secured clusters: the Hadoop conf directory is hdfs.conf.dir, else the
// first directory of gobench.classpath (YCSB's -cp, which puts the conf
// directory on Java's classpath) holding core-site.xml or hdfs-site.xml,
// else $HADOOP_CONF_DIR. From its core-site.xml and hdfs-site.xml (and
// overridden by properties of the same names) the driver takes
// fs.defaultFS (hdfs://host:port, or a nameservice through
// dfs.ha.namenodes.NS and dfs.namenode.rpc-address.NS.ID),
// hadoop.security.authentication (simple or kerberos),
// dfs.namenode.kerberos.principal (_HOST is the NameNode host's canonical
// name, as Java's SecurityUtil: 127.0.0.1 is localhost),
// dfs.data.transfer.protection (the strongest of the list is asked for),
// dfs.encrypt.data.transfer and hadoop.rpc.protection (which decide the
// client, below). With
// Kerberos the credentials are a keytab (hdfs.kerberos.keytab with
// hdfs.kerberos.principal, or YCSB's keytab and principal) or kinit's
// ticket cache (KRB5CCNAME, FILE: caches only; default /tmp/krb5cc_UID);
// krb5.conf is $KRB5_CONFIG, else /etc/krb5.conf. A keytab that cannot be
// read is a configuration error; the login (and one authenticated NameNode
// connection) is made in Prepare, before the run, and its failure (no
// ticket cache, an expired ticket, an unknown principal, a refused
// handshake) ends the run before it starts with the principal and the
// cause; so does a cluster that encrypts data transfer when the
// configuration does not say dfs.encrypt.data.transfer=true. An
// AccessControlException is FORBIDDEN, per operation.
//
// On a Kerberized cluster whose NameNode RPC and DataNode connections ask
// for authentication only (hadoop.rpc.protection and
// dfs.data.transfer.protection = authentication, the usual setting and
// testenv's), hwire does the same calls as on an open cluster: SASL GSSAPI
// (security layer none) opens each NameNode connection, SASL DIGEST-MD5
// with the block access token (QOP auth) each new DataNode connection,
// which is then kept as on an open cluster. When the configuration asks
// for integrity or privacy on either, or dfs.encrypt.data.transfer, or
// data transfer protection without Kerberos, or hdfs.client=colinmarc,
// every operation goes through colinmarc's client instead, which speaks
// them (it takes the server's first QOP offer: a DataNode that offers
// authentication first is refused when privacy is asked for; not tested
// against integrity- or privacy-only servers here). What colinmarc's path
// costs, against hwire on the same calls: an Insert's create is preceded
// by a getFileInfo and a delete when the file exists (colinmarc's create
// has no overwrite flag), an Update's rename and a Delete take a
// getFileInfo more; each block read dials the DataNode again with its SASL
// handshake (no kept connections) and a positional read asks for the rest
// of the block, not the bytes wanted; a write has no pipeline recovery. On
// the secured testenv (1 DataNode, 2 files of 64 MB, a loaded 2-core
// machine) dfsio -read -random ran at 48-77 MB/s aggregate through hwire
// and 14-19 MB/s through colinmarc, -write at 110 and 37 MB/s; a YCSB load
// (4 threads) ran at 74-82 and 71 inserts/s (NameNode-bound).
//
// It may import gobench/drivers, gobench/drivers/hdfs/hwire, gobench/props,
// colinmarc/hdfs, jcmturner/gokrb5 and the standard library.
//
//	db, err := hdfs.Driver{}.Configure(decoder, schema) // reads hdfs.* keys
//	c, err := db.Open(ctx)                               // dials the NameNode
//	err = c.Insert(ctx, "usertable", []byte("user1"), rec)
//	w, err := c.(drivers.FileSystem).Create(ctx, "/benchmarks/f", 1<<20)
package hdfs
