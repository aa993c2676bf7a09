package drivers

import (
	"context"
	"errors"
)

// NoRecords gives a Conn the five YCSB record operations, each returning
// errors.ErrUnsupported (NOT_IMPLEMENTED): embed it in the Conn of a driver
// that serves files, streams or queries but no records.
type NoRecords struct{}

// Read is not offered.
func (NoRecords) Read(context.Context, string, []byte, FieldSet, *Record) error {
	return errors.ErrUnsupported
}

// Scan is not offered.
func (NoRecords) Scan(context.Context, string, []byte, int, FieldSet, func([]byte, *Record) error) error {
	return errors.ErrUnsupported
}

// Update is not offered.
func (NoRecords) Update(context.Context, string, []byte, *Record) error { return errors.ErrUnsupported }

// Insert is not offered.
func (NoRecords) Insert(context.Context, string, []byte, *Record) error { return errors.ErrUnsupported }

// Delete is not offered.
func (NoRecords) Delete(context.Context, string, []byte) error { return errors.ErrUnsupported }
