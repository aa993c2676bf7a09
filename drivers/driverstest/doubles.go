package driverstest

import (
	"context"

	"github.com/gobench/gobench/drivers"
)

// NopConn is a Conn whose every operation succeeds at once and returns
// nothing: for tests and benchmarks of a workload's own cost. Embed it to
// add a capability (a FileSystem, a Producer) to a test double.
type NopConn struct{}

func (NopConn) Read(context.Context, string, []byte, drivers.FieldSet, *drivers.Record) error {
	return nil
}
func (NopConn) Scan(context.Context, string, []byte, int, drivers.FieldSet, func([]byte, *drivers.Record) error) error {
	return nil
}
func (NopConn) Update(context.Context, string, []byte, *drivers.Record) error { return nil }
func (NopConn) Insert(context.Context, string, []byte, *drivers.Record) error { return nil }
func (NopConn) Delete(context.Context, string, []byte) error                  { return nil }
func (NopConn) Close(context.Context) error                                   { return nil }

// UnsupportedConn is a Conn that offers no YCSB operation (each returns
// errors.ErrUnsupported): a base for doubles of stream or file drivers.
type UnsupportedConn struct{ drivers.NoRecords }

func (UnsupportedConn) Close(context.Context) error { return nil }

// NopDB opens NopConns.
type NopDB struct{}

func (NopDB) Open(context.Context) (drivers.Conn, error) { return NopConn{}, nil }
func (NopDB) Close() error                               { return nil }
