package drivers

import (
	"context"
	"io"
)

// Optional capabilities. The runner checks for them once, at set-up, with a
// type assertion on the DB or Conn; a workload that needs one the driver lacks
// is refused before the run starts. Never wrap a Conn in a decorator that
// implements every optional interface: it would defeat the check.

// BatchWriter is implemented by a Conn that can buffer writes (YCSB's client
// buffering). Insert and Update may then return an error wrapping
// [ErrBatched] (counted as BATCHED_OK) and Flush sends what is buffered.
type BatchWriter interface {
	Flush(ctx context.Context) error
}

// TableAdmin is implemented by a DB that can create and drop tables (HBase
// tables, Kafka topics, HDFS directories).
type TableAdmin interface {
	// CreateTable creates table with the given split keys (may be nil); it is
	// not an error if the table already exists and ifMissing is true.
	CreateTable(ctx context.Context, table string, splits [][]byte, ifMissing bool) error
	DropTable(ctx context.Context, table string) error
}

// Printer is implemented by a Driver that prints output the user asked
// for, such as basic's per-operation log (basicdb.verbose) and its count
// summary (basicdb.count). WithOutput returns a copy of the driver that
// writes to w; a driver that was never given a writer prints nothing. The
// CLI passes its standard output after [Lookup], so no package below it
// touches os.Stdout. The driver serialises its own writes to w.
type Printer interface {
	Driver
	WithOutput(w io.Writer) Driver
}

// Noter is implemented by a DB that has facts about the run worth telling
// the user apart from the report (a Kafka offset index built at open, and
// how long it took). The CLI prints them on stderr after the run.
type Noter interface {
	Notes() []string
}
