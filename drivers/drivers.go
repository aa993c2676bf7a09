package drivers

import (
	"context"

	"github.com/gobench/gobench/props"
)

// Schema is the shape of every record a run touches. It is fixed before any
// connection opens: field i of a [Record] is named Fields[i].
type Schema struct {
	// Table is YCSB's table property (default "usertable"). Operations also
	// carry the table name so that one DB can serve several tables.
	Table string
	// Fields are the field names in order (fieldnameprefix + i).
	Fields []string
}

// Driver is a registered database binding. It is stateless: Configure turns the
// driver's properties into a DB that holds everything the workers share.
type Driver interface {
	// Keys lists the property keys the driver understands, with their
	// defaults and one-line usage, so that unknown keys can be rejected with a
	// nearest-name hint and `gobench help` can list them.
	Keys() []props.Key
	// Configure decodes and validates the driver's properties (reading them
	// through d, which records every problem with its source and line) and
	// returns the shared DB. It must not do network or disk I/O: the runner
	// calls it before anything opens so that every configuration error is
	// reported at once.
	Configure(d *props.Decoder, s Schema) (DB, error)
}

// DB is the state a driver shares between workers (a connection pool, a
// region cache, an embedded store). It is safe for concurrent use.
type DB interface {
	// Open returns a new connection for one worker. The first Open may
	// establish the shared resources (dial a cluster, open a store).
	Open(ctx context.Context) (Conn, error)
	// Close releases the shared resources after every Conn has been closed.
	Close() error
}

// Conn is one worker's connection. A Conn is used by one goroutine at a time,
// so per-worker state can be plain fields.
//
// Buffer ownership: keys, values and records passed in are valid only during
// the call; a driver copies whatever it keeps. Records passed to Read and to
// the Scan callback are owned by the caller or the driver respectively, as
// documented on each method.
//
// Errors: a missing record is reported as an error that wraps [ErrNotFound];
// an unsupported operation wraps errors.ErrUnsupported; anything else is
// classified with [Classify] (a driver may return a *[StatusError] to choose
// the YCSB code itself). Cancellation returns the context's error, wrapped.
type Conn interface {
	// Read fills dst with the requested fields of the record at key. dst is
	// owned by the caller and reused across calls; Read calls dst.Reset first
	// and then dst.Set for every field it found.
	Read(ctx context.Context, table string, key []byte, fields FieldSet, dst *Record) error
	// Scan visits up to count records in key order starting at start
	// (inclusive), calling fn with each key and record. The key and record
	// passed to fn are valid only during that call. If fn returns an error the
	// scan stops and Scan returns it.
	Scan(ctx context.Context, table string, start []byte, count int, fields FieldSet, fn func(key []byte, r *Record) error) error
	// Update writes the fields set in values to the record at key, creating
	// the record if the backend does not distinguish (YCSB semantics).
	Update(ctx context.Context, table string, key []byte, values *Record) error
	// Insert writes a new record with the fields set in values.
	Insert(ctx context.Context, table string, key []byte, values *Record) error
	// Delete removes the record at key.
	Delete(ctx context.Context, table string, key []byte) error
	// Close ends the connection, flushing anything buffered. The runner times
	// it as YCSB's CLEANUP measurement.
	Close(ctx context.Context) error
}

// FieldSet selects fields by their index in the [Schema]. The nil FieldSet
// means every field. Runners build the sets they need once, at set-up.
type FieldSet []int

// All reports whether s selects every field.
func (s FieldSet) All() bool { return s == nil }
