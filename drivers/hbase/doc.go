// Package hbase is gobench's "hbase" driver (aliases hbase1, hbase2, hbase10,
// hbase12, hbase14, hbase20 and YCSB's binding class names): YCSB's
// operations on Apache HBase 2.x through gobench's own native client,
// drivers/hbase/hbclient (no Java, no gohbase).
//
// It may import the standard library, gobench/drivers, gobench/props,
// gokrb5's config (krb5.conf) and its sub-packages hbclient and pb (and
// hbtest, the fake server, in tests).
//
// Mapping of YCSB's operations (as in YCSB's hbase2 binding):
//
//   - row key = YCSB key; one column family (columnfamily, default "family");
//     one qualifier per field, named as the field (field0, field1, ...).
//   - read = Get of the family (all fields) or of the chosen qualifiers; a
//     row without cells is NOT_FOUND.
//   - scan = forward Scan from the start key (inclusive, no stop row) that
//     tells the server exactly how many rows are still wanted
//     (ScanRequest.limit_of_rows, so no PageFilter is needed and no extra
//     rows travel); it continues into the following regions until count
//     rows were seen.
//   - insert and update = Put of the fields set, with the configured
//     durability (HBase's enum names); delete = Delete of the whole row.
//   - clientbuffering=true = YCSB's BufferedMutator: each connection copies
//     its writes into a reusable buffer (answering BATCHED_OK) and sends it
//     as Multi RPCs (grouped by RegionServer and region, at most
//     hbase.multi.maxactions each) when writebuffersize bytes are buffered,
//     on Flush and on Close.
//   - hbase.createtable / hbase.splits / hbase.droptable: the first Open
//     drops and/or creates the table, pre-split at YCSB's recommended keys
//     ([SplitKeys]); the DB also implements drivers.TableAdmin.
//
// Cluster settings come from properties or from hbase-site.xml in
// hbase.conf.dir (or the first directory of gobench.classpath, YCSB's -cp):
// hbase.zookeeper.quorum, hbase.zookeeper.property.clientPort and
// zookeeper.znode.parent; properties win. hbase.hosts maps host names the
// servers advertise (in ZooKeeper and hbase:meta) to addresses this machine
// can dial. Errors: a cluster that cannot be
// reached within hbase.client.operation.timeout is SERVICE_UNAVAILABLE
// (drivers.ErrUnavailable); an AccessDeniedException (the AccessController
// said no) is FORBIDDEN; other server errors are ERROR.
//
// Secured clusters (security.go): hbase.security.authentication=kerberos
// (from -p or hbase-site.xml) turns on SASL GSSAPI with the server principals
// hbase.regionserver.kerberos.principal / hbase.master.kerberos.principal
// (_HOST = the server's host name) and hbase.rpc.protection. Credentials:
// YCSB's principal + keytab, else hbase.client.keytab.file +
// hbase.client.keytab.principal (or hbase.client.kerberos.principal), else
// kinit's ticket cache (KRB5CCNAME, default /tmp/krb5cc_UID; principal, if
// given, must match it); krb5.conf from KRB5_CONFIG (default
// /etc/krb5.conf). The first Open logs in before any table work, so a
// missing ticket, an expired one or a principal the KDC does not know stops
// the run before it starts; a missing keytab file or krb5.conf is a
// configuration error.
//
// Design: one DB holds one hbclient.Client, shared by every worker's Conn:
// one multiplexed TCP connection per RegionServer, a shared region cache,
// and retries that follow HBase's own error table (see hbclient's doc). A
// Conn only holds scratch buffers, so Read, Insert, Update and Delete
// allocate nothing per operation once warm.
//
//	var s props.Set
//	s.Add(props.Value{Key: "hbase.zookeeper.quorum", Value: "127.0.0.1:2181"})
//	db, err := hbase.Driver{}.Configure(props.NewDecoder(&s), schema)
//	c, err := db.Open(ctx)
//	err = c.Insert(ctx, "usertable", []byte("user1"), record)
package hbase
