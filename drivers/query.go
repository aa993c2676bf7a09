package drivers

import "context"

// Querier is implemented by a Conn that runs SQL statements (HiveServer2):
// what the hive workload needs. A DB whose Conns implement it declares
// [CapQuery].
type Querier interface {
	// Query runs one statement and calls fn with each row of its result, in
	// the order the server returns them; a statement without a result set
	// (DDL, LOAD DATA) calls fn never. cols are the result's column names;
	// row holds each value rendered as text the way the server's own
	// command-line client prints it ("NULL" for a null). Both slices are
	// valid only during the call. If fn returns an error, Query stops
	// reading, ends the statement on the server and returns that error.
	//
	// A statement the server rejects (bad SQL, a missing table) returns an
	// error that classifies as BAD_REQUEST; a server that cannot be reached
	// wraps [ErrUnavailable]. When ctx ends, Query cancels the statement on
	// the server and returns ctx's error, wrapped.
	Query(ctx context.Context, stmt string, fn func(cols, row []string) error) error
}
