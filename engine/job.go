package engine

import (
	"context"
	"io"
	"math/rand/v2"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/generator"
	"github.com/gobench/gobench/props"
)

// Job is one kind of workload the Runner drives: YCSB's core workload,
// TestDFSIO, Kafka's perf tools, or a caller's own. The Runner owns the
// workers, the op division, pacing, warm-up, time limit, stopping and
// measurement; a Job says what one operation is.
type Job interface {
	// Ops names the job's operations (index = operation id), as its
	// report blocks are named; Extra names further measurements.
	Ops() []string
	Extra() []string
	// Schema is the record shape the job touches (the table or topic, and
	// the field names), given to the driver's Configure.
	Schema() drivers.Schema
	// NewTask makes the task of worker id, which owns conn, rnd (its own
	// deterministic random stream) and m. It is called on the worker's
	// goroutine before its first operation.
	NewTask(id int, conn drivers.Conn, rnd *rand.Rand, m *Meter) (Task, error)
	// Warnings are set-up notices for the user.
	Warnings() []string
}

// Task is one worker's operation loop body.
type Task interface {
	// Step performs one operation. It returns false when the worker must
	// stop (Java ends a load thread whose insert finally failed; dfsio has
	// no file left).
	Step(ctx context.Context) bool
}

// TaskCloser is implemented by a Task that holds resources across steps (an
// open file stream in dfsio). The runner calls Close after the task's last
// step, whether it finished or was stopped, before closing the connection.
type TaskCloser interface {
	Close(ctx context.Context) error
}

// SetUpper is implemented by a Job that prepares the backend before the
// workers start, outside the measured time (TestDFSIO writes its control
// files before its timer starts). The Runner calls SetUp once, on a
// connection of its own, and writes nothing of it into the report; log is
// the Runner's log (see [WithLog]). An error ends the run before any worker
// starts.
type SetUpper interface {
	SetUp(ctx context.Context, conn drivers.Conn, log io.Writer) error
}

// Kind describes a workload kind, the value of the workload property: its
// names, the driver capabilities it needs, its own properties, and how to
// build its Job. The kinds packages (workload/core, workload/dfsio,
// workload/kafkaperf) each export theirs; package workload lists them.
type Kind struct {
	Name    string
	Aliases []string // other accepted values of the workload property
	Summary string   // one line for listings
	// Command is the gobench command that offers this kind with its tool's
	// own flags ("" = load and run).
	Command string
	// Needs are the capabilities the kind's tasks use; a driver that lacks
	// one is refused before any connection opens.
	Needs drivers.Caps
	// Keys are the kind's own properties (for unknown-key hints and help).
	Keys []props.Key
	// Build decodes the kind's properties through b.Props (recording every
	// problem there) and returns its Job. It may change b.Settings: the
	// threads and op count of the run are the kind's to decide.
	Build func(b *Build) (Job, error)
}

// Build is what a Kind's Build gets: the phase, the common settings decoded
// from the properties (which Build may adjust), and the decoder for the
// kind's own properties. Build may append notices for the user to Notes
// (properties Java knows that have no effect here).
type Build struct {
	Phase    Phase
	Settings *Settings
	Props    *props.Decoder
	Notes    []string
}

func generatorRand(seed uint64, id int) *rand.Rand { return generator.NewRand(seed, uint64(id)) }
