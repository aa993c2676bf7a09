// Package hive is gobench's "hive" driver: a HiveServer2 client that runs
// SQL statements ([drivers.Querier], declared as [drivers.CapQuery]) for
// the hive workload (workload/hive, `gobench hive`).
//
// It speaks HiveServer2's Thrift protocol (TCLIService, binary transport)
// with the Thrift structs generated in github.com/beltran/gohive/hiveserver
// and a client of its own on top of them (session, statement, status,
// fetch), instead of gohive's Cursor: gohive sleeps PollIntervalInMillis
// between status calls and keeps its errors in cursor state. This client
// waits the way Hive's JDBC driver (beeline) does: it sends
// GetOperationStatus again at once, and HiveServer2 holds each call until
// the statement finishes or its long-polling step (0.5 s growing to
// hive.server2.long.polling.timeout, 5 s) passes, so a statement's time is
// the server's plus one round trip, as for beeline.
//
// Each Conn is one TCP connection with one HiveServer2 session (as each
// beeline process is). Query executes a statement asynchronously
// (runAsync, as JDBC does), waits for it, fetches the result set in
// batches of hive.fetchsize rows (columnar, protocol V10), renders every
// value as text the way beeline prints it (doubles in Java's
// Double.toString form, NULL for a null), and closes the operation.
// Authentication: hive.auth=none (HiveServer2's NONE: SASL PLAIN with any
// user, what JDBC sends without a password), plain (SASL PLAIN with
// hive.user and hive.password, for LDAP or a custom provider) or nosasl
// (hive.server2.authentication=NOSASL: no SASL layer). Kerberos and the
// HTTP transport are not supported.
//
// Errors: a statement HiveServer2 refuses to compile (SQLState 42xxx: bad
// SQL, a missing table or column) classifies as BAD_REQUEST, other
// statement failures as ERROR, both as a [*StatementError] with Hive's
// message; a server that cannot be reached wraps [drivers.ErrUnavailable]
// and names the address. A cancelled context breaks the connection, which
// makes HiveServer2 close the session and cancel what it was running
// (hive.server2.close.session.on.disconnect, on by default); the Conn is
// then unusable.
//
// The YCSB record operations are not offered: they return errors wrapping
// errors.ErrUnsupported (NOT_IMPLEMENTED).
//
// It may import gobench/drivers, gobench/props, the Thrift library and
// gohive's generated hiveserver package.
package hive
