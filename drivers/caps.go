package drivers

import (
	"context"
	"io"
)

// Optional capabilities. BatchWriter is found with a type assertion on the
// Conn; the stream and file capabilities are declared by the DB ([Caps]) and
// checked before any connection opens, so a workload that needs one the
// driver lacks is refused before the run starts. Never wrap a Conn in a
// decorator that implements every optional interface: it would defeat the
// check.

// BatchWriter is implemented by a Conn that can buffer writes (YCSB's client
// buffering). Insert and Update may then return an error wrapping
// [ErrBatched] (counted as BATCHED_OK) and Flush sends what is buffered.
type BatchWriter interface {
	Flush(ctx context.Context) error
}

// ValueBytesIgnorer is implemented by a Conn that, as configured, never
// reads the bytes of the values given to Update and Insert (basic without
// basicdb.verbose or basicdb.count). A workload may then leave those bytes
// unwritten: the fields are still set, at their drawn lengths, with
// whatever the buffers held. Java YCSB's values are iterators that make
// their bytes as a binding reads them, so its BasicDB never pays for them
// either, and the no-op driver measures the same work under both tools.
// Found with a type assertion on the Conn, like [BatchWriter].
type ValueBytesIgnorer interface {
	IgnoresValueBytes() bool
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

// Preparer is implemented by a DB that has work to do before the measured
// phase of a run, such as the kafka driver reading a topic to build its key
// index. The runner calls Prepare once, after Configure and before any
// worker opens a connection or the run's clock starts, so that neither an
// operation's latency nor the run time includes it; an error ends the run
// before it starts. A DB must also work without it (library users, the
// conformance suite), doing the work at first use.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// Caps is a set of optional capabilities of a DB's connections, declared by
// the DB (or its Driver) with [Capable], so that a workload that needs one
// is refused before any connection opens. The conformance suite checks that
// the declaration matches what the Conns implement.
type Caps uint8

// The capabilities a workload kind may need beyond the core operations.
const (
	CapFiles   Caps = 1 << iota // Conn implements FileSystem (dfsio)
	CapProduce                  // Conn implements Producer (produce)
	CapConsume                  // Conn implements Consumer (consume)
	CapNet                      // Conn implements NetStream (net)
	CapQuery                    // Conn implements Querier (hive)
)

var capNames = [...]string{"file streams (drivers.FileSystem)", "producing to a stream (drivers.Producer)", "consuming a stream (drivers.Consumer)", "network test streams (drivers.NetStream)", "SQL queries (drivers.Querier)"}

// Has reports whether c holds every capability of want.
func (c Caps) Has(want Caps) bool { return c&want == want }

// Names lists the capabilities in c, in a fixed order.
func (c Caps) Names() []string {
	var n []string
	for i, name := range capNames {
		if c&(1<<i) != 0 {
			n = append(n, name)
		}
	}
	return n
}

// Capable is implemented by a DB, or a Driver, whose connections offer
// optional capabilities.
type Capable interface {
	Caps() Caps
}

// CapsOf returns what v (a DB or a Driver) declares; nothing when it does
// not implement [Capable].
func CapsOf(v any) Caps {
	if c, ok := v.(Capable); ok {
		return c.Caps()
	}
	return 0
}

// ConnCaps returns the capabilities a Conn actually implements.
func ConnCaps(c Conn) Caps {
	var caps Caps
	if _, ok := c.(FileSystem); ok {
		caps |= CapFiles
	}
	if _, ok := c.(Producer); ok {
		caps |= CapProduce
	}
	if _, ok := c.(Consumer); ok {
		caps |= CapConsume
	}
	if _, ok := c.(NetStream); ok {
		caps |= CapNet
	}
	if _, ok := c.(Querier); ok {
		caps |= CapQuery
	}
	return caps
}
